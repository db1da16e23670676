#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, then every vitest suite against the real
# release files in ../shared/imgthla and the real Redis. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-test-env.sh
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
exec npx vitest run "$@"
