/**
 * `--resume`: a run killed halfway (SIGKILL, or SIGINT), started again with the same arguments,
 * skips what it finished and gives the same output, byte for byte, as a run never stopped.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../lib/run/batch.js';
import { childEnv, cli, repoRoot, sampleNames, samplePdf, untapped } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-resume-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with stdout appended to `outPath`; kills it with `signal` once `stateFile` lists `after` documents. */
function runInto(args: readonly string[], outPath: string, kill?: { signal: NodeJS.Signals; stateFile: string; after: number }): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const fd = openSync(outPath, 'a');
    const child = spawn(...untapped(process.execPath, [cli, ...args]), { cwd: repoRoot, env: childEnv, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    let timer: NodeJS.Timeout | null = null;
    if (kill) {
      timer = setInterval(() => {
        const lines = existsSync(kill.stateFile) ? readFileSync(kill.stateFile, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length : 0;
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

const DOCUMENTS = 30;

t.test('--resume: a run killed halfway (SIGKILL), started again, gives the output of a run never stopped', async (t) => {
  const folder = join(dir, 'many');
  mkdirSync(folder);
  // Enough documents that the kill lands midway on a loaded machine too.
  for (let i = 0; i < DOCUMENTS; i++) copyFileSync(samplePdf(sampleNames[i % sampleNames.length]!), join(folder, `doc-${String(i).padStart(2, '0')}.pdf`));
  writeFileSync(join(folder, 'doc-12.pdf'), 'broken: a failed document must be resumed like any other');
  const args = ['extract', '--quiet', '--jobs', '2', folder];
  const whole = join(dir, 'whole.txt');
  await runInto(args, whole);
  const state = join(dir, 'state');
  const out = join(dir, 'resumed.txt');
  const first = await runInto([...args, '--resume', state], out, { signal: 'SIGKILL', stateFile: state, after: 5 });
  t.equal(first.signal, 'SIGKILL', 'the first run was killed');
  const done = readFileSync(state, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length;
  t.ok(done >= 5 && done < DOCUMENTS, `it had finished ${done} of ${DOCUMENTS} documents`);
  const second = await runInto([...args, '--resume', state, '--report', join(dir, 'resume-report.json')], out);
  t.equal(second.code, 0, 'the run completes though the broken document fails');
  const report = JSON.parse(readFileSync(join(dir, 'resume-report.json'), 'utf8')) as RunReport;
  t.equal(report.skipped + report.documents, DOCUMENTS, 'skipped + run = every input, no duplicates, no gaps');
  t.equal(readFileSync(out, 'utf8'), readFileSync(whole, 'utf8'), 'the same output, byte for byte');
});

t.test('--resume after SIGINT with base64 lines: the state is consistent and the lines add up', async (t) => {
  const pdfs = sampleNames.map((n) => readFileSync(samplePdf(n)).toString('base64'));
  const lines = Array.from({ length: 14 }, (_, i) => (i === 7 ? 'broken line' : pdfs[i % pdfs.length]!));
  const inputFile = join(dir, 'lines.b64');
  writeFileSync(inputFile, lines.join('\n') + '\n');
  const whole = join(dir, 'whole.b64');
  const sh = (extra: string): string[] => ['-c', `exec "${process.execPath}" "${cli}" extract --quiet --jobs 2 --base64 --format base64 ${extra} < "${inputFile}"`];
  const runSh = (extra: string, outPath: string, kill?: { stateFile: string }): Promise<string | null> =>
    new Promise((resolve) => {
      const fd = openSync(outPath, 'a');
      const child = spawn(...untapped('sh', sh(extra)), { cwd: repoRoot, env: childEnv, stdio: ['ignore', fd, 'ignore'] });
      closeSync(fd);
      const timer = kill
        ? setInterval(() => {
          if (existsSync(kill.stateFile) && readFileSync(kill.stateFile, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length >= 4) {
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
  const done = readFileSync(state, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length;
  t.ok(done >= 4 && done < 14, `interrupted after ${done} of 14 documents`);
  t.equal(readFileSync(out, 'utf8').split('\n').length - 1, done, 'the output has exactly the lines the state lists');
  await runSh(`--resume "${state}"`, out);
  const result = readFileSync(out, 'utf8');
  t.equal(result.split('\n').length - 1, 14, 'lines out = lines in');
  t.equal(result, readFileSync(whole, 'utf8'), 'the same output as a run never stopped');
});


for (const format of ['xml', 'html']) {
  t.test(`--resume with --format ${format} on stdout: the form feed between documents is kept across the restart`, async (t) => {
    const folder = join(dir, `grow-${format}`);
    mkdirSync(folder);
    copyFileSync(samplePdf(sampleNames[0]!), join(folder, 'a.pdf'));
    copyFileSync(samplePdf(sampleNames[1]!), join(folder, 'b.pdf'));
    const args = ['extract', '--quiet', '--jobs', '1', '--format', format, folder];
    const state = join(dir, `state-${format}`);
    const out = join(dir, `resumed.${format}`);
    await runInto([...args, '--resume', state], out);
    // A document added since: the resumed run writes it alone, after the two.
    copyFileSync(samplePdf(sampleNames[2]!), join(folder, 'c.pdf'));
    await runInto([...args, '--resume', state], out);
    const whole = join(dir, `whole.${format}`);
    await runInto(args, whole);
    t.equal(readFileSync(out, 'utf8'), readFileSync(whole, 'utf8'), 'the same output, byte for byte');
  });
}
