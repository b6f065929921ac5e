#!/bin/sh
# Rebuilds the contents-page documents: sources and truths from src/texts.py, then the PDFs.
# Needs python3, chromium, groff (gropdf) and LibreOffice Writer (soffice).
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 src/build.py "$work"
cp "$work"/*.txt "$work"/*.json .
chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf=en-chromium-toc.pdf "$work/en-chromium-toc.html" 2>/dev/null
groff -ms -Tpdf -k -dpaper=a4 -P-pa4 "$work/de-groff-toc.ms" > de-groff-toc.pdf
soffice --headless --convert-to pdf --outdir "$work" "$work/fr-lo-fodt-toc.fodt" >/dev/null
cp "$work/fr-lo-fodt-toc.pdf" .
