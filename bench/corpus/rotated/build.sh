#!/bin/sh
# Rebuilds the rotated-text documents: sources and truths from src/texts.py, then the PDFs.
# Needs python3, pdflatex (texlive-latex-base, graphics) and chromium.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 src/build.py "$work"
cp "$work"/*.txt "$work"/*.json .
for name in en-pdflatex-stamp de-pdflatex-landscape es-pdflatex-rotate; do
  (cd "$work" && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 pdflatex -interaction=batchmode $name.tex >/dev/null)
  cp "$work/$name.pdf" .
done
chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf=fr-chromium-sidebar.pdf "$work/fr-chromium-sidebar.html" 2>/dev/null
