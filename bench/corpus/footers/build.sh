#!/bin/sh
# Rebuilds the running-footer documents: sources and truths from src/build.py, the PDFs, then
# their role labels into bench/roles/ (the page each paragraph starts on read with pdftotext).
# Needs python3, LibreOffice Writer (soffice), pdfLaTeX with fancyhdr, groff (gropdf), chromium,
# and pdfinfo/pdftotext (poppler-utils).
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 src/build.py sources "$work"
cp "$work"/*.txt .
soffice --headless --convert-to pdf --outdir "$work" "$work/en-lo-footer.fodt" >/dev/null 2>&1
cp "$work/en-lo-footer.pdf" .
for name in en-pdflatex-twoside de-pdflatex-fancyhdr; do
  (cd "$work" && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 pdflatex -interaction=batchmode $name.tex >/dev/null)
  cp "$work/$name.pdf" .
done
groff -ms -Tpdf -k -dpaper=a5 -P-pa5 "$work/de-groff-ms.ms" > de-groff-ms.pdf
for name in fr-chromium-margin-boxes es-chromium-page-number; do
  chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$name.pdf" "file://$work/$name.html" 2>/dev/null
done
# pages into each NAME.json
for j in "$work"/*.json; do
  n=$(basename "$j" .json)
  p=$(pdfinfo "$n.pdf" | awk '/^Pages:/ {print $2}')
  python3 - "$j" "$p" "$n.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
m["pages"] = int(sys.argv[2])
open(sys.argv[3], "w", encoding="utf-8").write(json.dumps(m, ensure_ascii=False, indent=1) + "\n")
PY
done
python3 src/build.py labels . ../../roles
