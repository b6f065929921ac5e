#!/bin/sh
# Rebuilds the vertical-writing documents: sources and truths from src/texts.py, then the PDFs.
# Needs python3, chromium, LibreOffice Writer (soffice) and the fonts IPAMincho
# (fonts-ipafont-mincho) and AR PL UMing (fonts-arphic-uming).
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 src/build.py "$work"
cp "$work"/*.txt "$work"/*.json .
for name in ja-chromium-vrl zh-chromium-vrl; do
  chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf=$name.pdf "$work/$name.html" 2>/dev/null
done
for name in ja-lo-fodt-tbrl zh-lo-fodt-tbrl; do
  soffice --headless --convert-to pdf --outdir "$work" "$work/$name.fodt" >/dev/null
  cp "$work/$name.pdf" .
done
