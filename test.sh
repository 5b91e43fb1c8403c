#!/usr/bin/env bash
# Runs every test of the project. Usage: ./test.sh [extra go test flags]
set -euo pipefail
cd "$(dirname "$0")"
go test -count=1 "$@" ./...
