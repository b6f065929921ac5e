#!/usr/bin/env bash
# Build the font sweep: sources and truths from make.py, PDFs with Chromium (HTML), LibreOffice
# Writer (flat ODT), XeLaTeX, pdfLaTeX and Pango with cairo (pango.py, through the system's libpango,
# libpangocairo and libcairo). Incremental: a PDF is rebuilt only when its source is
# newer. Two builds at a time. A document its generator cannot set in its font (missing glyphs,
# a fallback font) gets NAME.skip with the reason instead of a PDF.
#
#   usage: build.sh [OUT]      [default: bench/fontsweep/out, not committed]
#
# Debian packages: chromium libreoffice-writer texlive-xetex texlive-latex-recommended
#   texlive-lang-greek texlive-lang-cyrillic texlive-lang-arabic texlive-lang-chinese texlive-lang-french cm-super
#   poppler-utils fontconfig python3 libpangocairo-1.0-0, and the fonts:
#   fonts-noto-core fonts-noto-extra fonts-noto-cjk fonts-hosny-amiri fonts-sil-scheherazade
#   fonts-sil-lateef fonts-kacst fonts-farsiweb fonts-dejavu-core fonts-liberation
#   fonts-linuxlibertine fonts-sil-gentium fonts-paratype fonts-gfs-didot fonts-freefont-otf
#   fonts-sil-ezra fonts-lohit-deva fonts-samyak-deva fonts-lohit-beng-bengali fonts-tlwg-garuda-otf
#   fonts-tlwg-loma-otf fonts-tlwg-kinnari-otf fonts-tlwg-norasi-otf fonts-tlwg-waree-otf
#   fonts-wqy-zenhei fonts-wqy-microhei fonts-arphic-uming fonts-arphic-ukai fonts-ipafont-gothic
#   fonts-ipafont-mincho fonts-nanum fonts-unfonts-core fonts-lmodern lmodern (lmodern.sty, for pdfLaTeX)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mkdir -p "${1:-$HERE/out}" && cd "${1:-$HERE/out}" && pwd)
export OUT HERE SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1
python3 "$HERE/make.py" "$OUT" > "$OUT/documents.tsv"

stale() { [ ! -f "$OUT/$1.pdf" ] && [ ! -f "$OUT/$1.skip" ] || [ "$OUT/src/$1.$2" -nt "$OUT/$1.pdf" -a "$OUT/src/$1.$2" -nt "$OUT/$1.skip" ]; }

# one document: NAME GENERATOR (chromium, xelatex, pdflatex, pango)
one() {
  n=$1; g=$2; rm -f "$OUT/$n.skip"
  case $g in
    chromium)
      timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
        --user-data-dir="$OUT/src/.chromium-$n" --print-to-pdf="$OUT/$n.pdf" "file://$OUT/src/$n.html" >/dev/null 2>&1 || true
      rm -rf "$OUT/src/.chromium-$n" ;;
    xelatex|pdflatex)
      (cd "$OUT/src" && timeout 300 "$g" -interaction=batchmode -halt-on-error "$n.tex" >/dev/null 2>&1) || true
      [ -f "$OUT/src/$n.pdf" ] && mv "$OUT/src/$n.pdf" "$OUT/$n.pdf"
      rm -f "$OUT/src/$n.aux" ;;
    pango)
      timeout 120 python3 "$HERE/pango.py" "$OUT/src/$n.json" "$OUT/$n.pdf" 2> "$OUT/src/$n.log" || rm -f "$OUT/$n.pdf" ;;
  esac
  [ -f "$OUT/$n.pdf" ] || { echo "$g failed (see src/$n.log)" > "$OUT/$n.skip"; return 0; }
  touch "$OUT/$n.pdf"
}
export -f one

todo=()
lo=()
while IFS=$'\t' read -r n g; do
  case $g in
    lo) stale "$n" fodt && lo+=("$OUT/src/$n.fodt") ;;
    chromium) stale "$n" html && todo+=("$n $g") ;;
    pango) stale "$n" json && todo+=("$n $g") ;;
    *) stale "$n" tex && todo+=("$n $g") ;;
  esac
done < "$OUT/documents.tsv"

echo "fontsweep: ${#todo[@]} Chromium/TeX and ${#lo[@]} Writer documents to build into $OUT" >&2
if [ ${#lo[@]} -gt 0 ]; then
  # a private profile, so a Writer already running elsewhere does not take the job
  soffice -env:UserInstallation="file://$OUT/src/.lo-profile" --headless --convert-to pdf --outdir "$OUT" "${lo[@]}" >/dev/null 2>&1 || true
  for f in "${lo[@]}"; do n=$(basename "$f" .fodt); [ -f "$OUT/$n.pdf" ] || echo "LibreOffice failed" > "$OUT/$n.skip"; done
fi
printf '%s\n' "${todo[@]}" | grep . | xargs -r -P 2 -L 1 bash -c 'one "$0" "$1"' || true

# the documents not set in their font: not scored, their reason in NAME.skip
while IFS=$'\t' read -r n g; do
  [ -f "$OUT/$n.pdf" ] || continue
  [ "$OUT/$n.pdf" -nt "$OUT/$n.checked" ] || continue
  why=$(python3 "$HERE/make.py" check "$OUT" "$n")
  if [ -n "$why" ]; then echo "$why" > "$OUT/$n.skip"; mv "$OUT/$n.pdf" "$OUT/src/$n.pdf"; touch "$OUT/$n.skip"; fi
  touch "$OUT/$n.checked"
done < "$OUT/documents.tsv"
n_pdf=$(ls "$OUT"/*.pdf 2>/dev/null | wc -l); n_skip=$(ls "$OUT"/*.skip 2>/dev/null | wc -l)
echo "fontsweep: $n_pdf PDFs, $n_skip skipped (NAME.skip says why)" >&2
