/**
 * Batch runs (lib/run/batch.ts) on the samples: one outcome per input in every format, the summary,
 * `--report` and `--errors`, Bitextor-style base64 lines in and out, `--unordered`. (`--resume` is
 * in resume.test.ts; the bounded intake and a worker that crashes in parse-pool.test.ts.)
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  t.equal(result.code, 0, 'completed: exit 0, the failures are in the outcome records and the summary');
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
  t.equal(result.code, 0);
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
