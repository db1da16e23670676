#!/usr/bin/env bash
# Runs the service on a fresh machine: installs the npm packages if needed, then starts the API on
# PORT (default 8000). The release is fetched from the official source and MD5-verified at start-up,
# or read from the local mirror in HLA_SERVICE_DATA_DIR. In a development checkout with the shared
# mirror beside it (../shared/imgthla) and no HLA_SERVICE_DATA_DIR set, that mirror is used.
# With no REDIS_URL, bulk jobs run in this process (embedded mode).
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
# Bulk-job results are signed with HLA_SERVICE_WEBHOOK_SECRET. Without one, a local secret is made
# once (file mode 0600) so that bulk jobs run out of the box; your receiver reads it from that file.
if [ -z "${HLA_SERVICE_WEBHOOK_SECRET:-}" ]; then
  secret_file=.cache/webhook-secret
  if [ ! -s "$secret_file" ]; then
    mkdir -p .cache
    (umask 077 && node -e 'process.stdout.write("whsec_" + require("node:crypto").randomBytes(32).toString("base64"))' > "$secret_file")
  fi
  HLA_SERVICE_WEBHOOK_SECRET="$(cat "$secret_file")"
  export HLA_SERVICE_WEBHOOK_SECRET
  echo "start: bulk-job callbacks are signed with the secret in $(pwd)/$secret_file (set HLA_SERVICE_WEBHOOK_SECRET to choose one)" >&2
fi
exec node --import tsx src/server.ts "$@"
