#!/bin/sh
# Rebuilds the table documents: sources and truths from src/texts.py, then the PDFs.
# Needs python3, chromium, LibreOffice Writer (soffice) and pdfLaTeX.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 src/build.py "$work"
cp "$work"/*.txt "$work"/*.json .
for name in en-chromium-table fr-chromium-landscape; do
  chromium --headless --no-sandbox --no-pdf-header-footer --print-to-pdf="$name.pdf" "$work/$name.html" 2>/dev/null
done
soffice --headless --convert-to pdf --outdir "$work" "$work/de-lo-fodt-table.fodt" >/dev/null
cp "$work/de-lo-fodt-table.pdf" .
(cd "$work" && pdflatex -interaction=batchmode es-pdflatex-tabular.tex >/dev/null)
cp "$work/es-pdflatex-tabular.pdf" .
