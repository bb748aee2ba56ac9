#!/usr/bin/env bash
# Peer comparison: installs dockerfile-ast and dockerfile-utils from npm into a temporary folder,
# runs them in-process on bench_check's workload, and prints boxlint's throughput as a multiple.
# Usage: bench/peers/run.sh [BUILD_DIR]   (default build/release; `make bench` builds it)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build/release}"
bench="$build/bench/bench_check"
[ -x "$bench" ] || { echo "run.sh: $bench not found (make bench builds it)" >&2; exit 2; }
command -v node >/dev/null || { echo "run.sh: node is needed (apt-get install nodejs npm)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && \
  npm install --no-audit --no-fund --silent dockerfile-ast@0.7.1 dockerfile-utils@0.16.3 >/dev/null)
echo "peers: dockerfile-ast $(node -p "require('$tmp/node_modules/dockerfile-ast/package.json').version"), dockerfile-utils $(node -p "require('$tmp/node_modules/dockerfile-utils/package.json').version"), node $(node --version)"
"$bench" --dump "$tmp/workload.json"
"$bench" --json > "$tmp/boxlint.json"
cp "$here/peers.mjs" "$tmp/peers.mjs"
(cd "$tmp" && node peers.mjs workload.json boxlint.json)
