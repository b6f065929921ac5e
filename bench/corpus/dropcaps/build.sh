#!/usr/bin/env bash
# Rebuild the drop-cap and float corpus: sources and truths from make.py, PDFs with Chromium
# (HTML), LibreOffice Writer (flat ODT) and pdfLaTeX.  Run from anywhere.
#   needs: /usr/bin/chromium, soffice (libreoffice-writer-nogui), pdflatex (texlive-latex-extra
#          for lettrine and wrapfig, texlive-lang-european for Polish, texlive-lang-spanish),
#          python3, pdfinfo
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
if ls "$SRC"/*.fodt >/dev/null 2>&1; then
  soffice --headless --convert-to pdf --outdir "$HERE" "$SRC"/*.fodt >/dev/null 2>&1
fi
for f in "$SRC"/*.tex; do
  n=$(basename "$f" .tex)
  (cd "$SRC" && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 pdflatex -interaction=batchmode "$n.tex" >/dev/null)
  cp "$SRC/$n.pdf" "$HERE/"
done
# pages into each NAME.json
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
