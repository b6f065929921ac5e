/**
 * Bad input never stops a batch: every input gets exactly one outcome record (`end` or `error`
 * with the right code), and a good document after a bad one still parses.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorRecord, PipeRecord } from '../../lib/protocol/records.js';
import { parseLines, run, samplePdf, toNdjson, wildFile } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-bad-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const notPdf = join(dir, 'notes.txt');
writeFileSync(notPdf, 'These are plain-text notes, not a PDF.\n'.repeat(20));
const empty = join(dir, 'empty.pdf');
writeFileSync(empty, '');
const truncated = join(dir, 'truncated.pdf');
const sample = readFileSync(samplePdf('one-column'));
writeFileSync(truncated, sample.subarray(0, Math.floor(sample.length * 0.4)));
const missing = join(dir, 'missing.pdf');

/** The outcome records of each document id, in the order they came. */
function outcomes(records: readonly PipeRecord[]): Map<string, (PipeRecord & { type: 'end' | 'error' })[]> {
  const map = new Map<string, (PipeRecord & { type: 'end' | 'error' })[]>();
  for (const r of records) {
    if (r.type === 'end' || r.type === 'error') map.set(r.doc, [...(map.get(r.doc) ?? []), r]);
  }
  return map;
}

for (const engine of ['pdfjs', 'pdfium']) {
  t.test(`${engine}: each bad file gets one error record with its code, and the good file after them parses`, async (t) => {
    const result = await run(['parse', '--engine', engine, '--jobs', '2', notPdf, empty, truncated, missing, samplePdf('one-column')]);
    const records = parseLines(result.stdout);
    const byDoc = outcomes(records);
    const expected: [string, string][] = [
      ['notes.txt', 'not-a-pdf'],
      ['empty', 'not-a-pdf'],
      ['truncated', 'corrupt'],
      ['missing', 'not-found'],
    ];
    t.same([...byDoc.keys()], [...expected.map(([id]) => id), 'one-column'], 'one document per input, in input order');
    for (const [id, code] of expected) {
      const list = byDoc.get(id) ?? [];
      t.equal(list.length, 1, `${id}: exactly one outcome`);
      t.match(list[0], { type: 'error', code, stage: 'parse' }, `${id}: ${code}`);
      t.ok((list[0] as ErrorRecord | undefined)?.message, `${id}: has a message`);
    }
    t.equal(byDoc.get('one-column')?.length, 1);
    t.equal(byDoc.get('one-column')?.[0]?.type, 'end', 'the good file after the bad ones parses');
    t.ok(records.some((r) => r.type === 'page' && r.doc === 'one-column'), 'with its pages');
    t.equal(result.code, 0, 'completed: exit 0, the failures are in the outcome records');
  });
}

const encrypted = wildFile('pdfbox__PasswordSample-40bit.pdf');
for (const engine of ['pdfjs', 'pdfium']) {
  t.test(`${engine}: an encrypted PDF needs a password`, { skip: encrypted.skip }, async (t) => {
    const result = await run(['parse', '--engine', engine, encrypted.path, samplePdf('cjk')]);
    const byDoc = outcomes(parseLines(result.stdout));
    t.equal(byDoc.get('pdfbox__PasswordSample-40bit')?.length, 1);
    t.match(byDoc.get('pdfbox__PasswordSample-40bit')?.[0], { type: 'error', code: 'password-required' });
    t.equal(byDoc.get('cjk')?.[0]?.type, 'end', 'the next document parses');
  });
}

t.test('pdf records on stdin: base64 data of a non-PDF, a directory, a good inline PDF, and a bad line', async (t) => {
  const input =
    toNdjson([
      { type: 'pdf', id: 'text-data', data: Buffer.from('hello').toString('base64') },
      { type: 'pdf', id: 'a-directory', path: dir },
      { type: 'pdf', id: 'inline', data: sample.toString('base64') },
    ]) + '{"type":"pdf","path":\n';
  const result = await run(['parse'], input);
  const records = parseLines(result.stdout);
  const byDoc = outcomes(records);
  t.match(byDoc.get('text-data'), [{ type: 'error', code: 'not-a-pdf' }]);
  t.match(byDoc.get('a-directory'), [{ type: 'error', code: 'unreadable' }]);
  t.match(byDoc.get('inline'), [{ type: 'end' }]);
  const lineErrors = records.filter((r): r is ErrorRecord => r.type === 'error' && r.code === 'bad-json');
  t.equal(lineErrors.length, 1, 'the unparsable input line is reported, not dropped');
  t.equal(lineErrors[0]?.place?.line, 4);
  t.equal([...byDoc.values()].reduce((n, list) => n + list.length, 0), 4, 'one outcome per input line');
  t.equal(result.code, 0);
});

// Walden is 249 pages and takes seconds; one-column and cjk take well under 0.2 s once a worker
// has loaded pdf.js (the limit does not include that start-up).
const big = wildFile('pdfcpu__WaldenFull.pdf');
t.test('a document over the time limit ends with a timeout error, and the next one still parses', { skip: big.skip }, async (t) => {
  const result = await run(['parse', '--jobs', '1', '--timeout', '0.5', big.path, samplePdf('one-column'), samplePdf('cjk')]);
  const records = parseLines(result.stdout);
  const byDoc = outcomes(records);
  t.equal(byDoc.get('pdfcpu__WaldenFull')?.length, 1, 'one outcome for the abandoned document');
  t.match(byDoc.get('pdfcpu__WaldenFull')?.[0], { type: 'error', code: 'timeout' });
  t.match(byDoc.get('one-column'), [{ type: 'end' }], 'the next document parses in a fresh worker');
  t.match(byDoc.get('cjk'), [{ type: 'end' }]);
  t.same([...byDoc.keys()], ['pdfcpu__WaldenFull', 'one-column', 'cjk']);
  t.equal(result.code, 0);
});

t.test('bad NDJSON into a layout stage: error records on stdout, exit code 1, later documents intact', async (t) => {
  const good = toNdjson([
    { type: 'doc', id: 'ok', source: 'ok.pdf', schema: 1, meta: { pages: 0, info: {}, lang: null, outline: [], encrypted: false, engine: 'x', normalization: 'none' } },
    { type: 'end', doc: 'ok', stats: { pages: 0, items: 0, chars: 0, ms: 0 } },
  ]);
  const result = await run(['order'], 'garbage\n' + good);
  const records = parseLines(result.stdout);
  t.match(records[0], { type: 'error', code: 'bad-json', place: { line: 1 } });
  t.same(records.slice(1).map((r) => r.type), ['doc', 'end']);
  t.equal(result.code, 0);
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
});
