/**
 * SIGTERM (how Slurm and Kubernetes stop a job) and SIGINT (Ctrl-C): the run writes its summary
 * and its `--report`, marked interrupted, before it exits 143 or 130.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../../lib/run/batch.js';
import { childEnv, cli, repoRoot, sampleNames, samplePdf, untapped } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-signals-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const folder = join(dir, 'many');
mkdirSync(folder);
for (let i = 0; i < 30; i++) copyFileSync(samplePdf(sampleNames[i % sampleNames.length]!), join(folder, `doc-${String(i).padStart(2, '0')}.pdf`));

/** Runs extract over the folder and sends `signal` once the resume state lists a document. */
function stopped(signal: NodeJS.Signals, name: string): Promise<{ code: number | null; stderr: string; report: string }> {
  const state = join(dir, `${name}.state`);
  const report = join(dir, `${name}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(...untapped(process.execPath, [cli, 'extract', '--jobs', '1', '--resume', state, '--report', report, folder]), { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The state file may be missing for a moment (not yet written, or the run compacting it).
    const lists = (): boolean => {
      try {
        return readFileSync(state, 'utf8').includes('"id"');
      } catch {
        return false;
      }
    };
    const timer = setInterval(() => {
      if (lists()) {
        child.kill(signal);
        clearInterval(timer);
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stderr, report });
    });
  });
}

for (const [signal, status] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  t.test(`${signal}: the summary and the report are written, exit ${status}`, async (t) => {
    const result = await stopped(signal, signal);
    t.equal(result.code, status);
    t.match(result.stderr, /pdfpipe extract: \d+ documents .*\(interrupted\)/, 'the summary, marked interrupted');
    t.ok(existsSync(result.report), 'the report is written');
    const report = JSON.parse(readFileSync(result.report, 'utf8')) as RunReport;
    t.equal(report.interrupted, true);
    t.ok(report.documents >= 1 && report.documents < 30, `${report.documents} documents done before the stop`);
  });
}
