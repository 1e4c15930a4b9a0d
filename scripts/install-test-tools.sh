#!/usr/bin/env bash
# What the tests drive besides Node: Debian's Chromium for the browser tests (test/web/browser.test.ts,
# driven by playwright-core through its executablePath), poppler-utils: pdfinfo, which reads the print
# PDFs' page boxes back as a printer's preflight would, and pdftoppm, which renders interior.pdf for
# test/web/editor-live.test.ts, HAProxy, the load balancer in front of the cluster test's API processes
# (test/e2e/cluster.test.ts, npm run cluster), and libheif's heif-enc, which makes the HEIC photos of the
# upload tests (test/services/uploads/uploads.test.ts) and brings libheif1, the system library the native
# HEIC decoder loads (test/imaging/heic-native.test.ts). Idempotent: installs only what is missing.
# Installs only as root with apt-get; elsewhere it says what to do and the tests that need a tool skip.
set -euo pipefail
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$BROWSER" ] || missing+=(chromium)
command -v pdfinfo >/dev/null || missing+=(poppler-utils)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v heif-enc >/dev/null || missing+=(libheif-examples)
if [ ${#missing[@]} -eq 0 ]; then
  echo "test tools: $BROWSER, pdfinfo, haproxy and heif-enc are installed"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "test tools: installing ${missing[*]} with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  echo "test tools: $("$BROWSER" --version 2>/dev/null || echo "chromium installed"); $(pdfinfo -v 2>&1 | head -n 1)"
else
  echo "test tools: missing ${missing[*]} and not root with apt-get: install them (e.g. 'sudo apt-get install ${missing[*]}') or set CHROMIUM_PATH; the tests that need them will be skipped"
fi
