import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { WARCParser, type WARCRecord } from 'warcio';
import { childEnv, cli, collapse, samplePdf, sampleTxt, untapped } from '../../helpers.js';

/** A WARC record's bytes, written here by hand so the test does not read its input with the code it tests. */
function record(fields: Record<string, string>, block: Buffer, declaredLength = block.byteLength): Buffer {
  const head = ['WARC/1.0', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${declaredLength}`].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), block, Buffer.from('\r\n\r\n', 'latin1')]);
}

function httpResponse(headers: string[], body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(['HTTP/1.1 200 OK', ...headers, `Content-Length: ${body.byteLength}`].join('\r\n') + '\r\n\r\n', 'latin1'), body]);
}

let serial = 0;
function response(uri: string, block: Buffer, declaredLength?: number): Buffer {
  serial += 1;
  return record({
    'WARC-Type': 'response',
    'WARC-Record-ID': `<urn:uuid:00000000-0000-4000-8000-${String(serial).padStart(12, '0')}>`,
    'WARC-Date': `2024-03-0${serial % 9 + 1}T10:00:00Z`,
    'WARC-Target-URI': uri,
    'Content-Type': 'application/http; msgtype=response',
  }, block, declaredLength);
}

const pdfOne = readFileSync(samplePdf('one-column'));
const pdfTwo = readFileSync(samplePdf('hyphenated'));
const html = Buffer.from('<html><head><title>Harbour</title></head><body><p>Ferries leave at dawn.</p></body></html>');
const htmlRecord = response('http://example.test/index.html', httpResponse(['Content-Type: text/html', 'Set-Cookie: a=1', 'Set-Cookie: b=2'], html));
const oneRecord = response('http://example.test/papers/one-column.pdf', httpResponse(['Content-Type: application/pdf', 'Set-Cookie: a=1', 'Set-Cookie: b=2', 'Transfer-Encoding: identity'], pdfOne));
// A PDF known by its Content-Type only: its URI stays as it is.
const twoRecord = response('http://example.test/download?id=7', httpResponse(['Content-Type: application/pdf; qs=0.9'], pdfTwo));
const brokenRecord = response('http://example.test/broken.pdf', httpResponse(['Content-Type: application/pdf'], Buffer.from('%PDF-1.4\nthis is not a PDF at all\n')));
// Declares 40 bytes fewer than it has: the next record must still be found.
const wrongLength = response('http://example.test/wrong-length.html', httpResponse(['Content-Type: text/html'], html), httpResponse(['Content-Type: text/html'], html).byteLength - 40);
// Cut by the end of the input.
const cut = response('http://example.test/cut.pdf', httpResponse(['Content-Type: application/pdf'], pdfOne)).subarray(0, 5000);
const warcinfo = record({ 'WARC-Type': 'warcinfo', 'WARC-Record-ID': '<urn:uuid:00000000-0000-4000-8000-aaaaaaaaaaaa>', 'WARC-Date': '2024-03-01T00:00:00Z', 'Content-Type': 'application/warc-fields' }, Buffer.from('software: test\r\n'));

const crawl = [warcinfo, oneRecord, htmlRecord, brokenRecord, wrongLength, twoRecord, cut];

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

function pdfpipeWarc(args: string[], input: Buffer): Run {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-warc-'));
  const path = join(dir, 'crawl.warc.gz');
  writeFileSync(path, input);
  const result = spawnSync(...untapped(process.execPath, [cli, 'warc', ...args, path]), { env: childEnv, maxBuffer: 1 << 28 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

interface ReadRecord {
  record: WARCRecord;
  payload: Buffer;
}

async function readWarc(bytes: Buffer): Promise<ReadRecord[]> {
  const parser = new WARCParser(Readable.from([bytes]));
  const out: ReadRecord[] = [];
  for await (const record of parser) out.push({ record, payload: Buffer.from(await record.readFully(true)) });
  return out;
}

const plainText = (htmlText: string): string => collapse(htmlText.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&'));
const sampleStart = (name: string): string => collapse(readFileSync(sampleTxt(name), 'utf8')).slice(0, 120);

// Gzip per record, as crawlers write it.
const input = Buffer.concat(crawl.map((r) => gzipSync(r)));
const result = pdfpipeWarc([], input);

t.test('PDF records become HTML records, others pass on, failures are reported', async (t) => {
  t.equal(result.status, 0, result.stderr);
  // Gzip per record: the output's first bytes are a gzip member that holds only the warcinfo record.
  t.equal(result.stdout[0], 0x1f);
  const records = await readWarc(result.stdout);
  t.same(records.map((r) => r.record.warcType), ['warcinfo', 'warcinfo', 'response', 'response', 'response'], 'our warcinfo, the input warcinfo, the converted PDF, the HTML, the second PDF');
  t.equal(records[0]!.payload.toString('latin1'), 'software: pdfpipe warc\r\nformat: WARC File Format 1.0\r\n');
  const [, , one, page, two] = records;

  t.equal(one!.record.warcTargetURI, 'http://example.test/papers/one-column.pdf.converted');
  t.equal(one!.record.warcHeader('WARC-Date'), '2024-03-03T10:00:00Z', 'the WARC-Date is kept');
  t.equal(one!.record.warcContentType, 'application/http; msgtype=response');
  t.match(one!.record.httpHeaders?.headers.get('content-type'), /^text\/html/);
  t.equal(Number(one!.record.httpHeaders?.headers.get('content-length')), one!.payload.byteLength, 'the HTTP Content-Length is the HTML length');
  t.notOk(one!.record.httpHeaders?.headers.get('transfer-encoding'));
  const raw = gunzipSync(result.stdout).toString('latin1');
  t.match(raw, /one-column\.pdf\.converted[\s\S]*Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n/, 'repeated HTTP header lines are kept in order');
  const oneHtml = one!.payload.toString('utf8');
  t.match(oneHtml, /<div id="page1" class="page">/, "PDFExtract's alignment HTML");
  t.ok(plainText(oneHtml).includes(sampleStart('one-column')), "the HTML holds the sample's text");

  t.equal(page!.record.warcTargetURI, 'http://example.test/index.html');
  t.ok(gunzipSync(result.stdout).includes(htmlRecord), 'the HTML record is passed through byte for byte');

  t.equal(two!.record.warcTargetURI, 'http://example.test/download?id=7', 'a PDF known by its Content-Type keeps its URI');
  t.ok(plainText(two!.payload.toString('utf8')).includes(sampleStart('hyphenated')));

  // A line per failed record; a document's line comes when its extraction ends, so the order may vary.
  const lines = result.stderr.trim().split('\n');
  t.equal(lines.length, 3, result.stderr);
  for (const pattern of [
    /broken\.pdf: corrupt: .*; dropped$/,
    /wrong-length\.html: its Content-Length \(\d+\) does not end where the next record starts.*; dropped$/,
    /cut\.pdf: the input ends \d+ bytes into the \d+ its Content-Length declares; dropped$/,
  ]) t.equal(lines.filter((line) => pattern.test(line)).length, 1, String(pattern));
});

t.test('--fail-on error turns failed records into exit status 1; --on-failure pass keeps them', async (t) => {
  const failing = pdfpipeWarc(['--fail-on', 'error', '--on-failure', 'pass'], Buffer.concat([warcinfo, brokenRecord]));
  t.equal(failing.status, 1);
  const records = await readWarc(failing.stdout);
  t.same(records.map((r) => r.record.warcTargetURI ?? r.record.warcType), ['warcinfo', 'warcinfo', 'http://example.test/broken.pdf']);
  t.ok(gunzipSync(failing.stdout).includes(brokenRecord), 'the failed record passes on unchanged');
  t.match(failing.stderr, /broken\.pdf: .*passed on unchanged/);
});

t.test('plain paragraphs, a whole-file gzip input, and the size limit', async (t) => {
  const run = pdfpipeWarc(['--html', 'paragraphs', '--max-record-size', String(pdfTwo.byteLength + 300)], gzipSync(Buffer.concat([oneRecord, twoRecord])));
  t.equal(run.status, 0);
  const records = await readWarc(run.stdout);
  t.same(records.map((r) => r.record.warcType), ['warcinfo', 'response'], 'the larger PDF is skipped');
  t.match(run.stderr, /one-column\.pdf: \d+ bytes, over --max-record-size \d+; skipped/);
  const body = records[1]!.payload.toString('utf8');
  t.match(body, /^<html lang="en">\n<head>\n<meta charset="utf-8">/);
  t.match(body, /<p>Fixing the Points of a Thermometer<\/p>/);
});

/** warc2text: the WARC2TEXT variable, or on the PATH. */
function findWarc2text(): string | null {
  if (process.env.WARC2TEXT) return existsSync(process.env.WARC2TEXT) ? process.env.WARC2TEXT : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, 'warc2text'))) return join(dir, 'warc2text');
  return null;
}
const warc2text = findWarc2text();

t.test("warc2text reads pdfpipe's WARC and writes the PDFs' text", { skip: warc2text ? false : 'warc2text not found (set WARC2TEXT or put it on the PATH)' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-warc2text-'));
  const path = join(dir, 'pdfpipe.warc.gz');
  writeFileSync(path, result.stdout);
  const out = join(dir, 'out');
  const ran = spawnSync(warc2text!, ['-o', out, '-f', 'text,url', path], { encoding: 'utf8' });
  t.equal(ran.status, 0, ran.stderr);
  const documents = new Map<string, string>();
  for (const lang of readdirSync(out)) {
    const urls = gunzipSync(readFileSync(join(out, lang, 'url.gz'))).toString('utf8').trim().split('\n');
    const texts = gunzipSync(readFileSync(join(out, lang, 'text.gz'))).toString('utf8').trim().split('\n');
    urls.forEach((url, i) => documents.set(url, `${lang}\t${Buffer.from(texts[i]!, 'base64').toString('utf8')}`));
  }
  for (const [url, name] of [['http://example.test/papers/one-column.pdf.converted', 'one-column'], ['http://example.test/download?id=7', 'hyphenated']] as const) {
    const got = documents.get(url);
    t.ok(got, `${url} is in warc2text's output`);
    t.match(got, /^en\t/, 'identified as English');
    t.ok(collapse(got ?? '').includes(sampleStart(name).slice(0, 60).replace(/^\S+ /, '')), `warc2text's text holds pdfpipe's text of ${name}`);
  }
  t.ok(documents.has('http://example.test/index.html'), 'the HTML page too');
});
