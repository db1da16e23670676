#!/usr/bin/env bash
# Makes a fresh machine ready for the whole test suite: npm packages, a Redis answering on
# 127.0.0.1:6379, and Debian's Chromium for the demo-page test. Idempotent; quiet when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'ensure-test-env: %s\n' "$*" >&2; }

apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    log "apt-get not available; cannot install $*"
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "${APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

redis_answers() {
  if command -v redis-cli >/dev/null 2>&1; then
    redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG
  else
    (exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && head -c 5 <&3 | grep -q PONG) 2>/dev/null
  fi
}

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund >/dev/null
fi

if ! redis_answers; then
  command -v redis-server >/dev/null 2>&1 || { log "installing redis-server"; apt_install redis-server; }
  log "starting redis-server on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 50); do redis_answers && break; sleep 0.1; done
  redis_answers || { log "Redis does not answer on 127.0.0.1:6379"; exit 1; }
fi

if [ ! -x /usr/bin/chromium ]; then
  log "installing Debian chromium for the demo-page test"
  apt_install chromium || log "chromium could not be installed; the demo-page test will fail in CI"
fi
