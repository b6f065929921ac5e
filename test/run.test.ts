/**
 * Batch runs (lib/run.ts) on the samples: one outcome per input in every format, the summary,
 * `--report` and `--errors`, Bitextor-style base64 lines in and out, `--unordered`, a bounded
 * intake, and `--resume` after a run killed halfway giving the same output as one never stopped.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parse } from '../stages/parse.js';
import type { PdfRecord, PipeRecord } from '../lib/records.js';
import type { RunReport } from '../lib/run.js';
import { childEnv, cli, parseLines, repoRoot, run, samplePdf, sampleNames } from './helpers.js';

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
    for (let i = 0; i < 30; i++) yield { type: 'pdf', id: `e${i}`, path: samplePdf('letter-spaced') };
  }
  await new Promise<void>((resolve, reject) => {
    Readable.from(few())
      .pipe(parse({ jobs: 2 }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { if (r.type === 'end') ends += 1; done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  t.equal(ends, 30);
});

/** Runs the CLI with stdout appended to `outPath`; kills it with `signal` once `stateFile` lists `after` documents. */
function runInto(args: readonly string[], outPath: string, kill?: { signal: NodeJS.Signals; stateFile: string; after: number }): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const fd = openSync(outPath, 'a');
    const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, env: childEnv, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    let timer: NodeJS.Timeout | null = null;
    if (kill) {
      timer = setInterval(() => {
        const lines = existsSync(kill.stateFile) ? readFileSync(kill.stateFile, 'utf8').split('\n').filter(Boolean).length : 0;
        if (lines >= kill.after) {
          child.kill(kill.signal);
          clearInterval(timer!);
        }
      }, 20);
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}

t.test('--resume: a run killed halfway (SIGKILL), started again, gives the output of a run never stopped', async (t) => {
  const folder = join(dir, 'many');
  mkdirSync(folder);
  for (let i = 0; i < 24; i++) copyFileSync(samplePdf(sampleNames[i % sampleNames.length]!), join(folder, `doc-${String(i).padStart(2, '0')}.pdf`));
  writeFileSync(join(folder, 'doc-20.pdf'), 'broken: a failed document must be resumed like any other');
  const args = ['extract', '--quiet', '--jobs', '2', folder];
  const whole = join(dir, 'whole.txt');
  await runInto(args, whole);
  const state = join(dir, 'state');
  const out = join(dir, 'resumed.txt');
  const first = await runInto([...args, '--resume', state], out, { signal: 'SIGKILL', stateFile: state, after: 8 });
  t.equal(first.signal, 'SIGKILL', 'the first run was killed');
  const done = readFileSync(state, 'utf8').split('\n').filter(Boolean).length;
  t.ok(done >= 8 && done < 24, `it had finished ${done} of 24 documents`);
  const second = await runInto([...args, '--resume', state, '--report', join(dir, 'resume-report.json')], out);
  t.equal(second.code, 1, 'the broken document, after the kill, fails');
  const report = JSON.parse(readFileSync(join(dir, 'resume-report.json'), 'utf8')) as RunReport;
  t.equal(report.skipped + report.documents, 24, 'skipped + run = every input, no duplicates, no gaps');
  t.equal(readFileSync(out, 'utf8'), readFileSync(whole, 'utf8'), 'the same output, byte for byte');
});

t.test('--resume after SIGINT with base64 lines: the state is consistent and the lines add up', async (t) => {
  const pdfs = sampleNames.map((n) => readFileSync(samplePdf(n)).toString('base64'));
  const lines = Array.from({ length: 24 }, (_, i) => (i === 7 ? 'broken line' : pdfs[i % pdfs.length]!));
  const inputFile = join(dir, 'lines.b64');
  writeFileSync(inputFile, lines.join('\n') + '\n');
  const whole = join(dir, 'whole.b64');
  const sh = (extra: string): string[] => ['-c', `exec "${process.execPath}" "${cli}" extract --quiet --jobs 2 --base64 --format base64 ${extra} < "${inputFile}"`];
  const runSh = (extra: string, outPath: string, kill?: { stateFile: string }): Promise<string | null> =>
    new Promise((resolve) => {
      const fd = openSync(outPath, 'a');
      const child = spawn('sh', sh(extra), { cwd: repoRoot, env: childEnv, stdio: ['ignore', fd, 'ignore'] });
      closeSync(fd);
      const timer = kill
        ? setInterval(() => {
          if (existsSync(kill.stateFile) && readFileSync(kill.stateFile, 'utf8').split('\n').filter(Boolean).length >= 6) {
            child.kill('SIGINT');
            clearInterval(timer!);
          }
        }, 20)
        : null;
      child.on('close', (_code, signal) => {
        if (timer) clearInterval(timer);
        resolve(signal);
      });
    });
  await runSh('', whole);
  const state = join(dir, 'state-b64');
  const out = join(dir, 'resumed.b64');
  await runSh(`--resume "${state}"`, out, { stateFile: state });
  const done = readFileSync(state, 'utf8').split('\n').filter(Boolean).length;
  t.ok(done >= 6 && done < 24, `interrupted after ${done} of 24 documents`);
  t.equal(readFileSync(out, 'utf8').split('\n').length - 1, done, 'the output has exactly the lines the state lists');
  await runSh(`--resume "${state}"`, out);
  const result = readFileSync(out, 'utf8');
  t.equal(result.split('\n').length - 1, 24, 'lines out = lines in');
  t.equal(result, readFileSync(whole, 'utf8'), 'the same output as a run never stopped');
});

t.test('a worker that crashes: that document gets worker-crashed, a fresh worker takes the next, order kept', async (t) => {
  const workerUrl = new URL('./crashing-worker.js', import.meta.url);
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
