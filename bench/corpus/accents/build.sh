#!/bin/sh
# Rebuilds the accent documents and their truths from src/*.src.
# Needs: python3, pdflatex (texlive-latex-base), groff + ps2pdf (ghostscript).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
for name in fr-pdflatex-ot1 cs-pdflatex-ot1; do
  python3 src/make.py src/$name.src latex-ot1 $tmp/$name
done
python3 src/make.py src/de-pdflatex-t1.src latex-t1 $tmp/de-pdflatex-t1
for name in fr-pdflatex-ot1 cs-pdflatex-ot1 de-pdflatex-t1; do
  (cd $tmp && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 pdflatex -interaction=batchmode $name.tex >/dev/null)
  cp $tmp/$name.pdf $tmp/$name.txt $tmp/$name.json .
done
python3 src/make.py src/cs-groff-am.src groff-am $tmp/cs-groff-am
groff -Tps -ms -k $tmp/cs-groff-am.ms > $tmp/cs-groff-am.ps
ps2pdf $tmp/cs-groff-am.ps cs-groff-am.pdf
cp $tmp/cs-groff-am.txt $tmp/cs-groff-am.json .
rm -rf "$tmp"
