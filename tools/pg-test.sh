#!/usr/bin/env bash
# Prepares a PostgreSQL server on loopback for the store tests: installs
# Debian's postgresql if missing, starts its cluster, and creates the user
# and database "anychess". Prints the URL to put in ANYCHESS_TEST_PG.
# Usage: eval "$(tools/pg-test.sh)"   # sets ANYCHESS_TEST_PG
set -euo pipefail
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

# prepare leaves the cluster's port in $port. It runs with stdout sent to
# stderr, so that only the export line reaches the caller's $(...) and no
# server it starts holds that pipe open (pg_ctlcluster reports a removed
# stale pid file on stdout, for one).
prepare() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    echo "pg-test.sh: installing postgresql from Debian packages"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
  fi
  local ver
  ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$ver main$"; then
    $sudo pg_createcluster "$ver" main >/dev/null
  fi
  if ! pg_lsclusters -h | grep "^$ver *main" | grep -q online; then
    $sudo pg_ctlcluster "$ver" main start
  fi
  port=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
  psql_as() { $sudo -u postgres psql -v ON_ERROR_STOP=1 -qAt -p "$port" "$@"; }
  if [ "$(id -u)" = 0 ]; then psql_as() { su postgres -c "psql -v ON_ERROR_STOP=1 -qAt -p $port $(printf '%q ' "$@")"; }; fi
  if [ "$(psql_as -c "SELECT 1 FROM pg_roles WHERE rolname='anychess'")" != 1 ]; then
    psql_as -c "CREATE ROLE anychess LOGIN PASSWORD 'anychess'"
  fi
  if [ "$(psql_as -c "SELECT 1 FROM pg_database WHERE datname='anychess'")" != 1 ]; then
    psql_as -c "CREATE DATABASE anychess OWNER anychess"
  fi
}

port=""
prepare >&2
echo "export ANYCHESS_TEST_PG=postgres://anychess:anychess@127.0.0.1:$port/anychess?sslmode=disable"
