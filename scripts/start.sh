#!/usr/bin/env bash
# Runs the service on a fresh machine: installs the npm packages if needed, then starts the API on
# PORT (default 8000). The release is fetched from the official source and MD5-verified at start-up,
# or read from the local mirror in HLA_SERVICE_DATA_DIR. In a development checkout with the shared
# mirror beside it (../shared/imgthla) and no HLA_SERVICE_DATA_DIR set, that mirror is used.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "start: installing npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund >/dev/null
fi
if [ -z "${HLA_SERVICE_DATA_DIR:-}" ] && [ -d ../shared/imgthla ]; then
  export HLA_SERVICE_DATA_DIR="$(cd ../shared/imgthla && pwd)"
  echo "start: using the local release mirror $HLA_SERVICE_DATA_DIR (set HLA_SERVICE_DATA_DIR to choose another)" >&2
fi
exec node --import tsx src/server.ts "$@"
