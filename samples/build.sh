#!/bin/sh
# Regenerate the sample PDFs from src/*.html with headless Chromium.
# Usage: sh build.sh [NAME ...]   (default: all samples)
set -eu
cd "$(dirname "$0")"
CHROMIUM=${CHROMIUM:-chromium}
names=${*:-"one-column two-columns letter-spaced running-header hyphenated cjk rtl-mixed paper parallel-columns parallel-table parallel-rtl tagged"}
for name in $names; do
  profile=$(mktemp -d)
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --no-pdf-header-footer \
    --print-to-pdf="$PWD/$name.pdf" "file://$PWD/src/$name.html" 2>/dev/null
  rm -rf "$profile"
  echo "built $name.pdf"
done
