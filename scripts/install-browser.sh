#!/usr/bin/env bash
# The browser the end-to-end tests drive (test/web-browser.test.ts): Debian's Chromium, driven by
# playwright-core through its executablePath. Idempotent: does nothing when it is already there.
# Installs only as root with apt-get; elsewhere it says what to do and the browser tests skip.
set -euo pipefail
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$BROWSER" ]; then
  echo "browser: $BROWSER is installed"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "browser: installing chromium with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "browser: $("$BROWSER" --version 2>/dev/null || echo "chromium installed")"
else
  echo "browser: no $BROWSER and not root with apt-get: install Chromium (e.g. 'sudo apt-get install chromium') or set CHROMIUM_PATH; the browser tests will be skipped"
fi
