/**
 * Batch runs (lib/run/batch.ts) on the samples: one outcome per input in every format, the summary,
 * `--report` and `--errors`, Bitextor-style base64 lines in and out, `--unordered`, a bounded
 * intake, and a worker that crashes. (`--resume` is in resume.test.ts.)
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parse } from '../../../stages/parse.js';
import type { PdfRecord, PipeRecord } from '../../../lib/protocol/records.js';
import type { RunReport } from '../../../lib/run/batch.js';
import { parseLines, run, samplePdf, sampleNames } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-run-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const bad = join(dir, 'scan.pdf');
writeFileSync(bad, 'not a pdf at all');
const missing = join(dir, 'gone.pdf');

t.test('accounting: one outcome per input, a summary on stderr, --report as JSON, --errors as NDJSON', async (t) => {
  const report = join(dir, 'report.json');
  const errors = join(dir, 'errors.ndjson');
  const inputs = [samplePdf('one-column'), bad, missing, samplePdf('cjk')];
  const result = await run(['extract', '--report', report, '--errors', errors, ...inputs]);
  t.equal(result.code, 1, 'exit 1: some documents failed');
  t.equal(result.stdout.split('\f\n').length, inputs.length, 'text output: one part per input, failed ones too');
  t.match(result.stderr, /pdfpipe extract: 4 documents \(end 2, (not-a-pdf 1, not-found 1|not-found 1, not-a-pdf 1)\), 2 pages in [\d.]+ s, [\d.]+ pages\/s/);
  const json = JSON.parse(readFileSync(report, 'utf8')) as RunReport;
  t.equal(json.documents, inputs.length);
  t.same(json.outcomes, { end: 2, 'not-a-pdf': 1, 'not-found': 1 });
  t.equal(json.pages, 2);
  t.ok(json.memory.rssPeakMiB > 0 && json.memory.workerPeakMiB > 0, 'peak memory of the process and of a worker');
  const errorRecords = parseLines(readFileSync(errors, 'utf8'));
  t.same(errorRecords.map((r) => r.type === 'error' && [r.doc, r.code]), [['scan', 'not-a-pdf'], ['gone', 'not-found']]);
  const quiet = await run(['extract', '--quiet', samplePdf('one-column')]);
  t.equal(quiet.stderr, '', '--quiet: nothing on stderr');
});

t.test('base64 lines in and out: line N of the output is document N, a failed one an empty line', async (t) => {
  const lines = [samplePdf('one-column'), samplePdf('cjk')].map((p) => readFileSync(p).toString('base64'));
  const input = [lines[0], 'this is not base64!', '', Buffer.from('plain text').toString('base64'), lines[1]].join('\n') + '\n';
  const result = await run(['extract', '--quiet', '--base64', '--format', 'base64'], input);
  t.equal(result.code, 1);
  const out = result.stdout.split('\n');
  t.equal(out.pop(), '', 'ends with a newline');
  t.equal(out.length, 5, 'as many lines out as in');
  t.same(out.slice(1, 4), ['', '', ''], 'failed documents are empty lines');
  const text = await run(['extract', '--quiet', samplePdf('one-column')]);
  t.equal(Buffer.from(out[0]!, 'base64').toString('utf8'), text.stdout, 'line 1 decodes to the text of the PDF');
  t.match(Buffer.from(out[4]!, 'base64').toString('utf8'), /城市屋顶上的小菜园/);
  const records = parseLines((await run(['parse', '--quiet', '--base64'], input)).stdout);
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.same(outcomes.map((r) => (r.type === 'end' || r.type === 'error') && r.doc), ['line-1', 'line-2', 'line-3', 'line-4', 'line-5'], 'parse: one outcome per line, in order');
});

t.test('--unordered: the same documents, each whole', async (t) => {
  const paths = sampleNames.map(samplePdf);
  const result = await run(['parse', '--quiet', '--unordered', '--jobs', '2', ...paths]);
  t.equal(result.code, 0);
  const records = parseLines(result.stdout);
  const outcomes = records.filter((r) => r.type === 'end').map((r) => r.type === 'end' && r.doc);
  t.same([...outcomes].sort(), [...sampleNames].sort(), 'every document once');
  let open: string | null = null;
  for (const r of records) {
    if (r.type === 'doc') {
      t.equal(open, null, 'no document starts inside another');
      open = r.id;
    } else if ('doc' in r && r.type !== 'diagnostic') {
      t.equal(r.doc, open, `${r.type} belongs to the open document`);
      if (r.type === 'end') open = null;
    }
  }
});

t.test('bounded intake: parse takes only a few inputs ahead of a reader that does not read', async (t) => {
  let pulled = 0;
  async function* many(): AsyncGenerator<PdfRecord> {
    for (let i = 0; i < 2000; i++) {
      pulled += 1;
      yield { type: 'pdf', id: `d${i}`, path: samplePdf('letter-spaced') };
    }
  }
  const stage = parse({ jobs: 2 });
  Readable.from(many()).pipe(stage);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  t.ok(pulled > 2, `documents were taken in (${pulled})`);
  t.ok(pulled < 60, `but not many more than the pool and the output buffer hold (${pulled} of 2000)`);
  stage.destroy();
  // And with a reader, everything arrives.
  let ends = 0;
  async function* few(): AsyncGenerator<PdfRecord> {
    for (let i = 0; i < 12; i++) yield { type: 'pdf', id: `e${i}`, path: samplePdf('letter-spaced') };
  }
  await new Promise<void>((resolve, reject) => {
    Readable.from(few())
      .pipe(parse({ jobs: 2 }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { if (r.type === 'end') ends += 1; done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  t.equal(ends, 12);
});

t.test('a worker that crashes: that document gets worker-crashed, a fresh worker takes the next, order kept', async (t) => {
  const workerUrl = new URL('../../crashing-worker.js', import.meta.url);
  const ids = ['ok-1', 'exit-1', 'ok-2', 'throw-1', 'ok-3', 'exit-2', 'ok-4'];
  const records: PipeRecord[] = [];
  await new Promise<void>((resolve, reject) => {
    Readable.from(ids.map((id): PdfRecord => ({ type: 'pdf', id, path: samplePdf('letter-spaced') })))
      .pipe(parse({ jobs: 2 }, { workerUrl }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { records.push(r); done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.same(
    outcomes.map((r) => (r.type === 'error' ? `${r.doc}:${r.code}` : `${r.type === 'end' && r.doc}:end`)),
    ['ok-1:end', 'exit-1:worker-crashed', 'ok-2:end', 'throw-1:worker-crashed', 'ok-3:end', 'exit-2:worker-crashed', 'ok-4:end'],
    'one outcome per document, in input order',
  );
});
