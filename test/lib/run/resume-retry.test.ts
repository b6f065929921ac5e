/**
 * `--resume` retries: a document that failed is done again on resume (all failures, or only the
 * codes `--retry` names), a resume with other output options is refused unless forced, and on
 * stdout the output stays that of a run never stopped.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../lib/run/batch.js';
import { childEnv, cli, repoRoot, run, samplePdf, untapped } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-retry-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of three PDFs, the middle one broken. */
function folder(name: string): { path: string; broken: string } {
  const path = join(dir, name);
  mkdirSync(path);
  copyFileSync(samplePdf('one-column'), join(path, 'a.pdf'));
  writeFileSync(join(path, 'b.pdf'), 'not a pdf: fixed before the resume');
  copyFileSync(samplePdf('cjk'), join(path, 'c.pdf'));
  return { path, broken: join(path, 'b.pdf') };
}

const report = (path: string): RunReport => JSON.parse(readFileSync(path, 'utf8')) as RunReport;

t.test('--out-dir: the failed document is done again on resume, the others skipped', async (t) => {
  const input = folder('outdir');
  const out = join(dir, 'out');
  const state = join(dir, 'outdir.state');
  const first = await run(['extract', '--quiet', '--out-dir', out, '--resume', state, input.path]);
  t.equal(first.code, 0);
  t.equal(readFileSync(join(out, 'b.txt'), 'utf8'), '', 'the broken document: an empty file');
  copyFileSync(samplePdf('hyphenated'), input.broken);
  const second = await run(['extract', '--quiet', '--out-dir', out, '--resume', state, '--report', join(dir, 'r1.json'), input.path]);
  t.equal(second.code, 0);
  const r = report(join(dir, 'r1.json'));
  t.equal(r.skipped, 2, 'the two good documents are skipped');
  t.same(r.outcomes, { end: 1 }, 'the failed one is done again, and now succeeds');
  t.ok(readFileSync(join(out, 'b.txt'), 'utf8').length > 100, 'its output is written');
  t.same(readdirSync(out).sort(), ['a.txt', 'b.txt', 'c.txt'], 'no temporary file left behind');
  const third = await run(['extract', '--quiet', '--out-dir', out, '--resume', state, '--report', join(dir, 'r2.json'), input.path]);
  t.equal(third.code, 0);
  t.equal(report(join(dir, 'r2.json')).documents, 0, 'nothing left to do');
});

t.test('--retry CODES: only failures of those codes are done again', async (t) => {
  const input = folder('codes');
  const out = join(dir, 'codes-out');
  const state = join(dir, 'codes.state');
  await run(['extract', '--quiet', '--out-dir', out, '--resume', state, input.path]);
  copyFileSync(samplePdf('hyphenated'), input.broken);
  await run(['extract', '--quiet', '--out-dir', out, '--resume', state, '--retry', 'timeout,out-of-memory', '--report', join(dir, 'r3.json'), input.path]);
  t.equal(report(join(dir, 'r3.json')).documents, 0, 'a not-a-pdf failure is not retried with --retry timeout,out-of-memory');
  await run(['extract', '--quiet', '--out-dir', out, '--resume', state, '--retry', 'not-a-pdf', '--report', join(dir, 'r4.json'), input.path]);
  t.same(report(join(dir, 'r4.json')).outcomes, { end: 1 }, 'and is with --retry not-a-pdf');
});

t.test('a resume with other output options is a usage error, unless --resume-force', async (t) => {
  const input = folder('options');
  const out = join(dir, 'options-out');
  const state = join(dir, 'options.state');
  await run(['extract', '--quiet', '--out-dir', out, '--resume', state, input.path]);
  const refused = await run(['extract', '--quiet', '--out-dir', out, '--format', 'xml', '--resume', state, input.path]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /made with other options \(format: "xml" now, "text" in the state\).*--resume-force/);
  const jobs = await run(['extract', '--quiet', '--jobs', '1', '--out-dir', out, '--resume', state, '--retry', 'none', input.path]);
  t.equal(jobs.code, 0, 'changing --jobs (how the run goes, not what it writes) is allowed');
  const forced = await run(['extract', '--quiet', '--out-dir', out, '--format', 'xml', '--resume', state, '--resume-force', input.path]);
  t.equal(forced.code, 0, 'forced');
});

/** Runs the CLI with stdout appended to `outPath`. */
function runInto(args: readonly string[], outPath: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const fd = openSync(outPath, 'a');
    const child = spawn(...untapped(process.execPath, [cli, ...args]), { cwd: repoRoot, env: childEnv, stdio: ['ignore', fd, 'ignore'] });
    closeSync(fd);
    child.on('error', reject);
    child.on('close', resolve);
  });
}

t.test('stdout: a retried document in the middle gives the output of a run never stopped', async (t) => {
  const input = folder('stdout');
  const state = join(dir, 'stdout.state');
  const out = join(dir, 'resumed.txt');
  await runInto(['extract', '--quiet', '--resume', state, input.path], out);
  copyFileSync(samplePdf('hyphenated'), input.broken);
  await runInto(['extract', '--quiet', '--resume', state, input.path], out);
  const whole = join(dir, 'whole.txt');
  await runInto(['extract', '--quiet', input.path], whole);
  t.equal(readFileSync(out, 'utf8'), readFileSync(whole, 'utf8'), 'the same output, byte for byte');
  t.equal(readFileSync(out, 'utf8').split('\f\n').length, 3, 'three documents');
});
