#!/bin/sh
# Rebuilds the scanned documents and their truths from src/LANG.txt: each text set by Chromium or
# XeLaTeX, rasterised, skewed and soiled, and wrapped as an image-only PDF (src/make.py).
# Needs: python3 with numpy, chromium, xelatex (texlive-xetex), pdftoppm (poppler-utils),
# ghostscript, fonts-noto-core, fonts-arphic-uming, fonts-dejavu.
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
rm -rf "$tmp"
