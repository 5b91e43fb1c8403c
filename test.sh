#!/usr/bin/env bash
# Runs every test of the project. It first installs, from Debian's packages,
# the outside programs some tests compare against (pgn-extract, fairymax), since those
# tests fail rather than skip when a peer is missing.
# Usage: ./test.sh [extra go test flags, e.g. -short or -run X]
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v pgn-extract >/dev/null 2>&1 || [ -x /usr/games/pgn-extract ] || missing+=(pgn-extract)
command -v fairymax >/dev/null 2>&1 || [ -x /usr/games/fairymax ] || missing+=(fairymax)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} from Debian packages"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

go test -count=1 "$@" ./...
