#!/bin/sh
# Rebuilds the Nastaliq documents and their truths from src/*.src.
# Needs: python3, chromium, LibreOffice (soffice), the Noto Nastaliq Urdu font (fonts-noto-extra).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
python3 src/make.py src/ur-chromium.src html $tmp/ur-chromium normal
python3 src/make.py src/fa-chromium.src html $tmp/fa-chromium 1.9
for name in ur-chromium fa-chromium; do
  chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf=$tmp/$name.pdf $tmp/$name.html 2>/dev/null
done
python3 src/make.py src/ur-lo.src fodt $tmp/ur-lo normal
python3 src/make.py src/fa-lo.src fodt $tmp/fa-lo 150%
for name in ur-lo fa-lo; do
  soffice --headless --convert-to pdf --outdir $tmp $tmp/$name.fodt >/dev/null 2>&1
done
for name in ur-chromium fa-chromium ur-lo fa-lo; do
  cp $tmp/$name.pdf $tmp/$name.txt $tmp/$name.json .
done
rm -rf "$tmp"
