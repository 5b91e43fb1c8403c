#!/usr/bin/env bash
# Runs every test of the project. It first installs, from Debian's packages,
# the outside programs some tests compare against (pgn-extract, fairymax), since those
# tests fail rather than skip when a peer is missing, and what the server's
# tests use: chromium and node for the browser tests (with `npm ci` in
# web/e2e) and for the page's type check and build check (with `npm ci` in
# web/), PostgreSQL on loopback for the store tests (tools/pg-test.sh sets
# ANYCHESS_TEST_PG unless it is set already), nats-server, which the
# engine bus's tests start on a free loopback port, and haproxy, the load
# balancer in front of the cluster's nodes in internal/clustertest.
# Usage: ./test.sh [extra go test flags, e.g. -short or -run X]
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v pgn-extract >/dev/null 2>&1 || [ -x /usr/games/pgn-extract ] || missing+=(pgn-extract)
command -v fairymax >/dev/null 2>&1 || [ -x /usr/games/fairymax ] || missing+=(fairymax)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} from Debian packages"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The page's packages: tsc type-checks web/src and esbuild checks that
# web/dist is built from it (web/build_test.go).
if [ ! -d web/node_modules/typescript ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi

# The browser tests' packages (playwright-core drives Debian's chromium).
if [ ! -d web/e2e/node_modules/playwright-core ] || [ web/e2e/package-lock.json -nt web/e2e/node_modules/.package-lock.json ]; then
  (cd web/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi

# PostgreSQL on loopback for the store tests, which also run on SQLite.
if [ -z "${ANYCHESS_TEST_PG:-}" ]; then
  if ! pgenv=$(tools/pg-test.sh); then
    echo "test.sh: PostgreSQL could not be started (see above); the store tests need it" >&2
    exit 1
  fi
  case "$pgenv" in
    "export ANYCHESS_TEST_PG="*) eval "$pgenv" ;;
    *) echo "test.sh: tools/pg-test.sh printed no URL: $pgenv" >&2; exit 1 ;;
  esac
fi

go test -count=1 -timeout 30m "$@" ./...
