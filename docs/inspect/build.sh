#!/usr/bin/env bash
# Rebuilds the pictures of docs/inspect/ from pages of the ground-truth corpus beside the
# repository (../shared/corpus/gt): a two-column page, a right-to-left page, a page with a
# running header, footnotes and a page number. Run from the repository root after a build.
set -euo pipefail
cd "$(dirname "$0")/../.."
gt=../shared/corpus/gt
out=docs/inspect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
picture() { # NAME DOCUMENT PAGE
  node dist/bin/pdfpipe.js inspect --scale 1 --pages "$3" --out-dir "$tmp/$1" "$gt/$2.pdf"
  cp "$tmp/$1/page-$3.png" "$out/$1.png"
}
picture two-column en-pdflatex-2col 2
picture right-to-left he-xelatex-mixed 1
picture running-header en-lo-fodt-notes 2
ls -l "$out"/*.png
