#!/usr/bin/env bash
# A test crawl through Bitextor's two PDF routes into warc2text.
#
#   bash bench/warc-crawl.sh PDF_DIR OUT_DIR [N]
#
# Builds OUT_DIR/crawl.warc.gz (gzip per record) from the first N PDFs of PDF_DIR (default all) as
# HTTP responses under made-up URIs, with HTML pages between them, one record whose Content-Length
# is wrong and one cut by the end of the file. Then:
#   pdfpipe route:   pdfpipe warc crawl.warc.gz > pdfpipe.warc.gz
#   pdftohtml route: each PDF record replaced by `pdftohtml -i -stdout` HTML (Bitextor's default
#                    converter), the rest passed on, written by a small Python filter below
# and runs warc2text (WARC2TEXT, or on the PATH) on both, then counts, per route, the PDFs whose
# text warc2text wrote and the PDFs one route has and the other lacks.
# Everything it writes stays in OUT_DIR: keep it outside the repository.
set -euo pipefail
PDF_DIR=${1:?PDF folder}
OUT=${2:?output folder}
N=${3:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WARC2TEXT=${WARC2TEXT:-$(command -v warc2text || true)}
mkdir -p "$OUT"

python3 - "$PDF_DIR" "$OUT/crawl.warc.gz" "$N" <<'PY'
import gzip, os, sys, uuid
pdf_dir, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sorted(f for f in os.listdir(pdf_dir) if f.lower().endswith('.pdf'))
if n: names = names[:n]
def record(uri, block, declared=None):
    head = ['WARC/1.0', 'WARC-Type: response', f'WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>',
            'WARC-Date: 2024-05-01T12:00:00Z', f'WARC-Target-URI: {uri}',
            'Content-Type: application/http; msgtype=response',
            f'Content-Length: {len(block) if declared is None else declared}']
    return ('\r\n'.join(head) + '\r\n\r\n').encode('latin1') + block + b'\r\n\r\n'
def http(ctype, body):
    return f'HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n'.encode('latin1') + body
with open(out, 'wb') as f:
    for i, name in enumerate(names):
        data = open(os.path.join(pdf_dir, name), 'rb').read()
        # Half the PDFs under a .pdf URI, half known by their Content-Type only.
        uri = f'http://crawl.example/docs/{name}' if i % 2 == 0 else f'http://crawl.example/get?file={i}'
        f.write(gzip.compress(record(uri, http('application/pdf', data))))
        if i % 10 == 0:
            page = f'<html><body><p>Index page {i} of the example crawl, listing documents.</p></body></html>'.encode()
            f.write(gzip.compress(record(f'http://crawl.example/index{i}.html', http('text/html', page))))
    page = b'<html><body><p>A page whose record declares a wrong length.</p></body></html>'
    f.write(gzip.compress(record('http://crawl.example/wrong-length.html', http('text/html', page), declared=20)))
    data = open(os.path.join(pdf_dir, names[0]), 'rb').read()
    f.write(gzip.compress(record('http://crawl.example/cut.pdf', http('application/pdf', data)))[:-200])
print(f'{len(names)} PDFs in {out}', file=sys.stderr)
PY

start=$(date +%s.%N)
node "$ROOT/dist/bin/pdfpipe.js" warc --quiet "$OUT/crawl.warc.gz" > "$OUT/pdfpipe.warc.gz" || true
echo "pdfpipe warc: $(echo "$(date +%s.%N) - $start" | bc) s" >&2

start=$(date +%s.%N)
python3 - "$OUT/crawl.warc.gz" "$OUT/pdftohtml.warc.gz" <<'PY'
# Bitextor's pdftohtml route, on the raw records: a PDF record (URI ending in .pdf or HTTP
# Content-Type application/pdf) becomes a text/html response of `pdftohtml -i -stdout`.
import gzip, re, subprocess, sys, uuid, zlib
raw, rest = b'', open(sys.argv[1], 'rb').read()
while rest:
    d = zlib.decompressobj(31)
    try:
        raw += d.decompress(rest)
    except zlib.error:
        break
    rest = d.unused_data
out = open(sys.argv[2], 'wb')
pos = 0
while True:
    start = raw.find(b'WARC/1.', pos)
    if start < 0: break
    end = raw.find(b'\r\n\r\n', start)
    head = raw[start:end].decode('latin1')
    length = int(re.search(r'Content-Length: (\d+)', head).group(1))
    block = raw[end + 4:end + 4 + length]
    pos = end + 4 + length
    if len(block) < length or raw[pos:pos + 4] != b'\r\n\r\n':
        pos = end + 4  # damaged: on to the next record header
        continue
    uri = re.search(r'WARC-Target-URI: (\S+)', head).group(1)
    hend = block.find(b'\r\n\r\n')
    http, body = block[:hend].decode('latin1'), block[hend + 4:]
    if uri.endswith('.pdf') or 'application/pdf' in http:
        html = subprocess.run(['pdftohtml', '-i', '-stdout', '-', '-'], input=body, capture_output=True).stdout.replace(b'&#160;', b' ')
        if not html.strip(): continue
        uri = uri + '.converted' if uri.endswith('.pdf') else uri
        http = f'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(html)}\r\n\r\n'.encode('latin1')
        block = http + html
    rec = (f'WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n'
           f'WARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {len(block)}\r\n\r\n').encode('latin1') + block + b'\r\n\r\n'
    out.write(gzip.compress(rec))
PY
echo "pdftohtml route: $(echo "$(date +%s.%N) - $start" | bc) s" >&2

[ -n "$WARC2TEXT" ] || { echo "warc2text not found (set WARC2TEXT or put it on the PATH): stopping before it" >&2; exit 0; }
for route in pdfpipe pdftohtml; do
  rm -rf "$OUT/$route.text"
  "$WARC2TEXT" -o "$OUT/$route.text" -f text,url "$OUT/$route.warc.gz" 2>"$OUT/$route.warc2text.log"
done
python3 - "$OUT" <<'PY'
# Per route: the PDF documents warc2text wrote text for (URL, characters), and the differences.
import base64, gzip, os, sys
out = sys.argv[1]
def docs(route):
    found = {}
    base = os.path.join(out, route + '.text')
    for lang in os.listdir(base):
        urls = gzip.open(os.path.join(base, lang, 'url.gz')).read().decode().split('\n')
        texts = gzip.open(os.path.join(base, lang, 'text.gz')).read().decode().split('\n')
        for url, text in zip(urls, texts):
            if url and ('.pdf' in url or 'get?file=' in url):
                found[url] = (lang, len(base64.b64decode(text).decode('utf8', 'replace')))
    return found
a, b = docs('pdfpipe'), docs('pdftohtml')
print(f'pdfpipe route: {len(a)} PDFs with text, {sum(c for _, c in a.values())} characters')
print(f'pdftohtml route: {len(b)} PDFs with text, {sum(c for _, c in b.values())} characters')
print(f'in both: {len(a.keys() & b.keys())}; only pdfpipe: {len(a.keys() - b.keys())}; only pdftohtml: {len(b.keys() - a.keys())}')
for url in sorted(b.keys() - a.keys()): print('  only pdftohtml:', url, b[url])
same_lang = sum(1 for u in a.keys() & b.keys() if a[u][0] == b[u][0])
print(f'same language in both: {same_lang} of {len(a.keys() & b.keys())}')
PY
