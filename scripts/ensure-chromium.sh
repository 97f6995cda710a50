#!/usr/bin/env bash
# The browser tests use Debian's Chromium (Playwright cannot download its own
# browser here): its headless shell, what Playwright itself runs headless
# (e2e/support/chromium-path.ts), or the full browser when only that is
# installed. Install the shell when neither is there and we are root;
# otherwise say how.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "CHROMIUM_PATH points at $CHROMIUM_PATH, which is not an executable." >&2
  exit 1
fi
if [ -x /usr/lib/chromium/chromium-headless-shell ] || [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium-headless-shell package..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
  exit 0
fi
echo "Chromium is missing. Install it with: sudo apt-get install -y chromium-headless-shell" >&2
echo "(or chromium, or point CHROMIUM_PATH at a Chromium binary)" >&2
exit 1
