#!/usr/bin/env bash
# Writes every output of one build of pdfpipe, so that two builds can be compared byte for byte
# with `diff -r`: a change that is meant to keep the output (a refactor, a speed-up) must leave
# the two folders equal.
#
#   bench/same-output.sh PDFPIPE_JS OUT [ENGINES] [SETS] [FORMATS]
#   bench/same-output.sh /tmp/before/dist/bin/pdfpipe.js /tmp/out-before
#   bench/same-output.sh dist/bin/pdfpipe.js /tmp/out-after && diff -r /tmp/out-before /tmp/out-after
#
# OUT/ENGINE/SET/FORMAT/ holds one file per document from `extract --out-dir`. The NDJSON's only
# clock reading, the `ms` of each `end` record's stats, is set to 0. SETS are `gt` (the shared
# ground-truth corpus), `samples` (this repository's) and `wild` (the shared malformed and real
# PDFs); a shared set that is not there is skipped with a line that says so.
set -euo pipefail
bin=$1
out=$2
engines=${3:-auto pdfium pdfjs}
sets=${4:-gt samples wild}
formats=${5:-text ndjson html xml base64}
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${PDFPIPE_SHARED:-$here/../shared}

for set in $sets; do
  case $set in
    gt) input=$shared/corpus/gt ;;
    wild) input=$shared/corpus/wild ;;
    samples) input=$here/samples ;;
    *) echo "unknown set: $set" >&2; exit 2 ;;
  esac
  if [ ! -d "$input" ]; then echo "skipped $set: $input is not there" >&2; continue; fi
  for engine in $engines; do
    for format in $formats; do
      dir=$out/$engine/$set/$format
      rm -rf "$dir" && mkdir -p "$dir"
      node "$bin" extract --quiet --timeout 120 --engine "$engine" --format "$format" --out-dir "$dir" "$input" \
        > "$dir.stdout" 2> "$dir.stderr" || echo "$?" > "$dir.exit"
      if [ "$format" = ndjson ]; then
        find "$dir" -name '*.ndjson' -exec sed -i -E 's/"ms":[0-9]+/"ms":0/g' {} +
        sed -i -E 's/"ms":[0-9]+/"ms":0/g' "$dir.stdout"
      fi
      echo "$engine $set $format: $(find "$dir" -type f | wc -l) files" >&2
    done
  done
done
