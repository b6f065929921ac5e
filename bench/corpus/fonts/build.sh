#!/usr/bin/env bash
# Rebuild the font corpus: sources and truths from make.py, PDFs with LibreOffice Writer
# (flat ODT), Chromium (HTML) and XeLaTeX.  Run from anywhere.
#   needs: soffice, /usr/bin/chromium, xelatex (texlive-xetex), python3, pdfinfo,
#          fonts-noto-core, fonts-wqy-microhei, fonts-farsiweb (Nazli)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
python3 "$HERE/make.py" "$SRC" >/dev/null
cp "$SRC"/*.txt "$SRC"/*.json "$HERE/"
for f in "$SRC"/*.html; do
  n=$(basename "$f" .html)
  /usr/bin/chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --print-to-pdf="$HERE/$n.pdf" "file://$f" 2>/dev/null
done
soffice --headless --convert-to pdf --outdir "$HERE" "$SRC"/*.fodt >/dev/null 2>&1
for f in "$SRC"/*.tex; do
  n=$(basename "$f" .tex)
  (cd "$SRC" && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 xelatex -interaction=batchmode "$n.tex" >/dev/null)
  cp "$SRC/$n.pdf" "$HERE/"
done
for j in "$HERE"/*.json; do
  n=$(basename "$j" .json)
  [ -f "$HERE/$n.pdf" ] || continue
  p=$(pdfinfo "$HERE/$n.pdf" | awk '/^Pages:/ {print $2}')
  python3 - "$j" "$p" <<'PY'
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
m["pages"] = int(sys.argv[2])
open(sys.argv[1], "w", encoding="utf-8").write(json.dumps(m, ensure_ascii=False, indent=1) + "\n")
PY
done
