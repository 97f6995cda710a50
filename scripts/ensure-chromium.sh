#!/usr/bin/env bash
# The browser tests use Debian's Chromium (Playwright cannot download its own
# browser here): its headless shell, what Playwright itself runs headless, for
# most specs, and the full browser for the MCP Apps specs
# (e2e/support/chromium-path.ts; either one alone runs them all). Install what
# is missing when we are root; otherwise say how.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "CHROMIUM_PATH points at $CHROMIUM_PATH, which is not an executable." >&2
  exit 1
fi
missing=()
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -gt 0 ] || exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]}..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
# Either one alone runs every spec.
[ ${#missing[@]} -lt 2 ] && exit 0
echo "Chromium is missing. Install it with: sudo apt-get install -y chromium-headless-shell chromium" >&2
echo "(or point CHROMIUM_PATH at a Chromium binary)" >&2
exit 1
