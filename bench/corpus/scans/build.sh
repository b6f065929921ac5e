#!/bin/sh
# Rebuilds the scanned documents and their truths from src/LANG.txt: each text set by Chromium or
# XeLaTeX, rasterised, skewed and soiled, and wrapped as an image-only PDF (src/make.py).
# Needs: python3 with numpy, chromium, xelatex (texlive-xetex), pdftoppm (poppler-utils),
# ghostscript, fonts-noto-core, fonts-arphic-uming, fonts-dejavu.
# Documents set in TeX's bitmap fonts come after.
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
while read -r name lang generator dpi kind; do
  python3 src/make.py "$name" "$lang" "$generator" "$dpi" "$kind" "$tmp"
  cp "$tmp/$name.pdf" "$tmp/$name.txt" "$tmp/$name.json" .
done <<LIST
en-chromium-jpeg en chromium 200 jpeg
de-xelatex-ccitt de xelatex 300 ccitt
ru-chromium-ccitt ru chromium 200 ccitt
el-xelatex-jpeg el xelatex 200 jpeg
ar-chromium-jpeg ar chromium 300 jpeg
he-chromium-ccitt he chromium 300 ccitt
hi-chromium-jpeg hi chromium 300 jpeg
th-chromium-jpeg th chromium 300 jpeg
zh-chromium-jpeg zh chromium 300 jpeg
LIST
# Documents set in TeX's bitmap fonts (Type 3, no Unicode map): src/type3.py. Needs pdflatex, latex
# and dvips (texlive), the EC fonts' Metafont sources (texlive-fonts-recommended), ghostscript.
while read -r name lang route; do
  python3 src/type3.py "$name" "$lang" "$route" "$tmp"
  cp "$tmp/$name.pdf" "$tmp/$name.txt" "$tmp/$name.json" .
done <<LIST
en-pdflatex-type3 en pdflatex
de-dvips-type3 de dvips
es-pdflatex-type3 es pdflatex
LIST
rm -rf "$tmp"
