#!/usr/bin/env bash
# Korean line breaks decided wrong: for each Korean PDF beside its truth (NAME.pdf, NAME.txt), the
# words of the truth missing from `pdfpipe extract`'s output (a multiset difference of
# whitespace-separated words; a wrong break costs one or two), per folder and in all.
#   usage: bench/korean-breaks.sh DIR...   e.g. bench/fontsweep/out bench/fontsweep/out-b test/fixtures/korean
#   (the font sweep's Korean documents are those named korean-*.pdf; every PDF of another folder counts)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for dir in "$@"; do
  key=$(echo "$dir" | tr '/' '_')
  mkdir -p "$OUT/$key"
  pdfs=$(ls "$dir"/korean-*.pdf 2>/dev/null || ls "$dir"/*.pdf)
  for pdf in $pdfs; do
    name=$(basename "$pdf" .pdf)
    [ -f "$dir/$name.txt" ] || continue
    node "$ROOT/dist/bin/pdfpipe.js" extract --quiet --ocr never "$pdf" > "$OUT/$key/$name.out" 2>/dev/null || true
    cp "$dir/$name.txt" "$OUT/$key/$name.truth"
  done
done
python3 - "$OUT" "$@" <<'PY'
import collections, glob, os, sys
out, dirs = sys.argv[1], sys.argv[2:]
total = 0
for d in dirs:
    key = d.replace('/', '_'); missing = docs = 0
    for p in sorted(glob.glob(f'{out}/{key}/*.out')):
        truth = collections.Counter(open(p[:-4] + '.truth', encoding='utf-8').read().split())
        got = collections.Counter(open(p, encoding='utf-8').read().split())
        lost = list((truth - got).elements())
        docs += 1; missing += len(lost)
        if lost: print(f'  {os.path.basename(p)[:-4]}: {" ".join(lost)}')
    print(f'{d}: {missing} missing words in {docs} documents'); total += missing
print(f'all: {total}')
PY
