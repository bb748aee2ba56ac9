#!/bin/sh
# Run the Node.js binding tests (ctest: bindings_node). Installs koffi from the committed
# package-lock.json when node_modules is missing; --ignore-scripts: koffi's prebuilt binary
# comes from its platform package (@koromix/koffi-linux-x64), nothing is compiled.
set -eu
NODE=${BOXLINT_NODE:-node}
NPM=${BOXLINT_NPM:-npm}
cd "$(dirname "$0")/.."
if ! "$NODE" -e 'require("koffi")' >/dev/null 2>&1; then
  echo "bindings_node: installing koffi (npm ci)"
  "$NPM" ci --no-audit --no-fund --ignore-scripts --loglevel=error
fi
exec "$NODE" --test test/*.test.js # test/support.js is shared, not a test
