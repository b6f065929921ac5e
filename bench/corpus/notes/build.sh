#!/usr/bin/env bash
# Rebuild the note-mark corpus: sources and truths from make.py, PDFs with Chromium
# (HTML) and LibreOffice Writer (flat ODT) and pdfLaTeX.  Run from anywhere.
#   needs: /usr/bin/chromium, soffice (libreoffice-writer-nogui), python3, pdfinfo, pdflatex
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
  (cd "$SRC" && pdflatex -interaction=batchmode "$(basename "$f")" >/dev/null)
  cp "$SRC/$(basename "$f" .tex).pdf" "$HERE/"
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
