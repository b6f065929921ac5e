/**
 * The input readers (lib/run/inputs.ts): folders searched by content, path lists, base64 lines, and
 * WARC / WARC.gz files built here from the samples (PDF and HTML responses, a resource record,
 * a cut payload, a damaged file), each document with exactly one input record.
 */
import t from 'tap';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { WARCRecord, WARCSerializer } from 'warcio';
import { inputsFromArgs, inputsFromBase64, inputsFromList, inputsFromWarc, withIds, type InputRecord } from '../../../lib/run/inputs.js';
import { parseLines, run, samplePdf } from '../../helpers.js';

const collect = async (source: AsyncIterable<InputRecord>): Promise<InputRecord[]> => {
  const out: InputRecord[] = [];
  for await (const r of source) out.push(r);
  return out;
};

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-inputs-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

interface Entry {
  url: string;
  type: 'response' | 'resource' | 'request';
  contentType: string;
  body: Buffer;
  /** HTTP Content-Length to declare (defaults to the body's length). */
  declared?: number;
  warcHeaders?: Record<string, string>;
}

/** Writes a WARC file with warcio's own serializer. */
async function writeWarc(path: string, entries: readonly Entry[], gzip: boolean): Promise<void> {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const record = e.type === 'resource'
      ? WARCRecord.create({ url: e.url, type: 'resource', warcHeaders: { 'Content-Type': e.contentType, ...e.warcHeaders } }, once(new Uint8Array(e.body)))
      : WARCRecord.create(
        {
          url: e.url,
          type: e.type,
          warcHeaders: e.warcHeaders ?? {},
          statusline: e.type === 'request' ? 'GET / HTTP/1.1' : 'HTTP/1.1 200 OK',
          httpHeaders: { 'Content-Type': e.contentType, 'Content-Length': String(e.declared ?? e.body.byteLength) },
        },
        once(new Uint8Array(e.body)),
      );
    parts.push(Buffer.from(await WARCSerializer.serialize(record, { gzip })));
  }
  writeFileSync(path, Buffer.concat(parts));
}

const onePdf = readFileSync(samplePdf('one-column'));
const cjkPdf = readFileSync(samplePdf('cjk'));
const entries: Entry[] = [
  { url: 'https://example.org/', type: 'request', contentType: 'text/plain', body: Buffer.alloc(0) },
  { url: 'https://example.org/index.html', type: 'response', contentType: 'text/html', body: Buffer.from('<html><body>not a pdf</body></html>') },
  { url: 'https://example.org/one.pdf', type: 'response', contentType: 'application/pdf', body: onePdf },
  // Served with the wrong type: a PDF by its bytes.
  { url: 'https://example.org/download?id=7', type: 'response', contentType: 'application/octet-stream', body: cjkPdf },
  // Cut by the crawler, as Common Crawl cuts payloads.
  { url: 'https://example.org/big.pdf', type: 'response', contentType: 'application/pdf', body: onePdf.subarray(0, 2000), declared: onePdf.byteLength, warcHeaders: { 'WARC-Truncated': 'length' } },
  { url: 'file:///archive/cjk.pdf', type: 'resource', contentType: 'application/pdf', body: cjkPdf },
];

t.test('WARC and WARC.gz: PDF payloads by type or magic, record id and target URI kept, cut payloads truncated', async (t) => {
  for (const gzip of [false, true]) {
    const path = join(dir, gzip ? 'crawl.warc.gz' : 'crawl.warc');
    await writeWarc(path, entries, gzip);
    const records = await collect(inputsFromWarc(path));
    t.equal(records.length, 4, `${path}: one input per PDF record, none for the request and the HTML page`);
    const sources = records.map((r) => (r.type === 'pdf' ? r.source : r.message));
    t.equal(sources[0], 'https://example.org/one.pdf');
    t.equal(sources[1], 'https://example.org/download?id=7', 'a PDF served as octet-stream is found by its bytes');
    t.match(sources[2], /big\.pdf is incomplete.*WARC-Truncated: length/);
    t.equal(sources[3], 'file:///archive/cjk.pdf', 'a resource record');
    t.equal(records[2]!.type, 'error');
    t.equal(records[2]!.type === 'error' && records[2]!.code, 'truncated');
    for (const r of records) {
      const id = r.type === 'pdf' ? r.id : r.doc;
      t.match(id, /^urn:uuid:[0-9a-f-]{36}$/, 'the WARC-Record-ID is the document id');
    }
    const first = records[0]!;
    t.same(first.type === 'pdf' && Buffer.from(first.data!, 'base64'), onePdf, 'the payload is the PDF, byte for byte');
  }
});

t.test('a payload shorter than its HTTP Content-Length is truncated even without WARC-Truncated', async (t) => {
  const path = join(dir, 'short.warc');
  await writeWarc(path, [{ url: 'https://example.org/a.pdf', type: 'response', contentType: 'application/pdf', body: onePdf.subarray(0, 5000), declared: onePdf.byteLength }], false);
  const [only, ...rest] = await collect(inputsFromWarc(path));
  t.equal(rest.length, 0);
  t.equal(only?.type === 'error' && only.code, 'truncated');
  t.match(only?.type === 'error' && only.message, /5000 of the \d+ bytes/);
});

t.test('a record whose Content-Length is too long takes the next one\'s header: that record is a corrupt FILE@OFFSET error, the third comes through', async (t) => {
  const path = join(dir, 'long.warc');
  const pdfs = ['a', 'b', 'c'].map((name): Entry => ({ url: `https://example.org/${name}.pdf`, type: 'resource', contentType: 'application/pdf', body: onePdf }));
  await writeWarc(path, pdfs, false);
  const bytes = readFileSync(path).toString('latin1');
  writeFileSync(path, Buffer.from(bytes.replace(/Content-Length: (\d+)/u, (_m, n: string) => `Content-Length: ${Number(n) + 300}`), 'latin1'));
  const records = await collect(inputsFromWarc(path));
  t.same(records.map((r) => (r.type === 'pdf' ? r.source : `${r.code} ${r.doc.replace(/@\d+$/u, '@N')}`)), ['https://example.org/a.pdf', 'corrupt long.warc@N', 'https://example.org/c.pdf']);
});

t.test('a damaged WARC.gz: the records before the damage, then a corrupt outcome naming the offset', async (t) => {
  const good = join(dir, 'good.warc.gz');
  await writeWarc(good, entries.slice(2, 6), true);
  // Each record is its own gzip member: the second starts where a one-record file ends.
  await writeWarc(join(dir, 'first.warc.gz'), entries.slice(2, 3), true);
  const member2 = readFileSync(join(dir, 'first.warc.gz')).byteLength;
  const bytes = Buffer.from(readFileSync(good));
  for (let i = member2 + 300; i < member2 + 700; i++) bytes[i] = (bytes[i]! * 7 + 13) & 255;
  const damaged = join(dir, 'damaged.warc.gz');
  writeFileSync(damaged, bytes);
  const records = await collect(inputsFromWarc(damaged));
  t.equal(records[0]?.type, 'pdf', 'the record before the damage is read whole');
  t.same(records[0]?.type === 'pdf' && Buffer.from(records[0].data!, 'base64'), onePdf);
  t.ok(records.length <= 3, 'then at most the damaged record, then the outcome of the damage; nothing after it');
  const last = records[records.length - 1]!;
  t.equal(last.type === 'error' && last.code, 'corrupt', 'the damage is an outcome, not a silent end');
  t.match(last.type === 'error' && last.doc, /^damaged\.warc\.gz@\d+$/, 'named after the file and the offset');
  // A file cut short ends the same way.
  writeFileSync(join(dir, 'cut.warc.gz'), readFileSync(good).subarray(0, member2 + 300));
  const cut = await collect(inputsFromWarc(join(dir, 'cut.warc.gz')));
  t.equal(cut[0]?.type, 'pdf');
  const lastCut = cut[cut.length - 1]!;
  t.equal(lastCut.type === 'error' && lastCut.code, 'corrupt', 'the cut is reported');
  t.match(lastCut.type === 'error' && lastCut.message, /unexpected end of file/);
});

t.test('folders: PDFs by content as well as by name, WARC files opened, other files skipped, sorted', async (t) => {
  const root = join(dir, 'tree');
  mkdirSync(join(root, 'sub'), { recursive: true });
  copyFileSync(samplePdf('one-column'), join(root, 'b.pdf'));
  copyFileSync(samplePdf('cjk'), join(root, 'sub', 'download'));
  writeFileSync(join(root, 'notes.txt'), 'hello');
  copyFileSync(join(dir, 'crawl.warc.gz'), join(root, 'sub', 'crawl.warc.gz'));
  const records = await collect(inputsFromArgs([root]));
  const ids = records.map((r) => (r.type === 'pdf' ? r.id : r.doc));
  t.equal(ids[0], 'b');
  t.equal(ids.length, 1 + 4 + 1, 'the PDF, the four WARC documents, the PDF without an extension');
  t.ok(ids.includes(join('sub', 'download')), 'a PDF without .pdf is found by its header');
  t.notOk(ids.includes('notes.txt'));
});

t.test('folders: symbolic links followed (a file, a folder, a loop back up read once), a broken link a not-found document', async (t) => {
  const root = join(dir, 'links');
  const outside = join(dir, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(outside, { recursive: true });
  copyFileSync(samplePdf('one-column'), join(outside, 'real.pdf'));
  symlinkSync(join(outside, 'real.pdf'), join(root, 'a-file.pdf'));
  symlinkSync(outside, join(root, 'b-folder'));
  symlinkSync(root, join(root, 'c-loop'));
  symlinkSync(join(dir, 'nowhere.pdf'), join(root, 'd-broken.pdf'));
  const records = await collect(inputsFromArgs([root]));
  t.same(records.map((r) => (r.type === 'pdf' ? r.id : r.doc)), ['a-file', join('b-folder', 'real'), 'd-broken']);
  const outcome = await run(['parse', join(root, 'd-broken.pdf')]);
  t.match(outcome.stdout, /"code":"not-found"/u);
});

t.test('a list of paths: each line an input; a missing file still becomes a document', async (t) => {
  const list = `${samplePdf('one-column')}\n\n${join(dir, 'nope.pdf')}\n${join(dir, 'crawl.warc')}`;
  const records = await collect(withIds(inputsFromList(Readable.from([list]))));
  t.same(records.slice(0, 2).map((r) => r.type === 'pdf' && r.id), ['one-column', 'nope']);
  t.equal(records.length, 2 + 4, 'two files, the WARC documents; the blank line is not an input');
});

t.test('base64 lines: line N is document line-N; a broken or blank line is still a document', async (t) => {
  const text = `${onePdf.toString('base64')}\n%%% not base64\n\n${cjkPdf.toString('base64')}`;
  const records = await collect(inputsFromBase64(Readable.from([text])));
  t.same(records.map((r) => (r.type === 'pdf' ? r.id : r.doc)), ['line-1', 'line-2', 'line-3', 'line-4']);
  t.equal(records[1]!.type === 'error' && records[1]!.code, 'bad-record');
  t.equal(records[2]!.type, 'pdf', 'a blank line is an (empty) document: it gets its not-a-pdf outcome from parse');
});

t.test('withIds: ids as parse gives them, and documents a previous run finished are dropped', async (t) => {
  async function* source(): AsyncGenerator<InputRecord> {
    yield { type: 'pdf', path: '/x/a.pdf' };
    yield { type: 'pdf', data: 'JVBERi0=' };
    yield { type: 'pdf', data: 'JVBERi0=' };
  }
  const all = await collect(withIds(source()));
  t.same(all.map((r) => r.type === 'pdf' && r.id), ['a', 'document-2', 'document-3']);
  const rest = await collect(withIds(source(), new Set(['a', 'document-2'])));
  t.same(rest.map((r) => r.type === 'pdf' && r.id), ['document-3'], 'the counter still counts skipped documents');
});

t.test('extract on a WARC.gz: a document per PDF record, the source in its doc record, the cut one truncated', async (t) => {
  const result = await run(['parse', '--quiet', join(dir, 'crawl.warc.gz')]);
  t.equal(result.code, 0, 'completed: exit 0, the failure is in its outcome record');
  const records = parseLines(result.stdout);
  const docs = records.filter((r) => r.type === 'doc');
  t.same(docs.map((d) => d.type === 'doc' && d.source), ['https://example.org/one.pdf', 'https://example.org/download?id=7', 'file:///archive/cjk.pdf']);
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.same(outcomes.map((r) => (r.type === 'error' ? r.code : 'end')), ['end', 'end', 'truncated', 'end']);
});
