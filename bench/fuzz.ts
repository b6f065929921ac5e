/**
 * Fuzz benchmark: does every input still get exactly one outcome when the PDFs are damaged?
 * A deterministic mutator (a seeded PRNG, so a run can be repeated) makes N mutants of the
 * ground-truth and sample PDFs with one to three of its operators each (byte flips, truncation,
 * chunk duplication, deleted or duplicated objects, a corrupted xref or /Length, an inflated
 * /Count, deep nesting); `pdfpipe extract` reads them, once per engine, in one run each; the
 * report counts inputs, outcomes by code, missing and duplicated outcomes, crashes (an exit other
 * than 0 or 1, a signal), hangs (a run past its deadline) and the process's peak memory.
 *
 *     npm run bench:fuzz -- [--n 500] [--seed 1] [--engine pdfium,pdfjs] [--jobs 2] [--timeout 20] [--keep DIR]
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mutants, seedPdfs, SOURCES } from './mutate.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const REPORT_PEAK = `--import=${new URL('./usage-report.js', import.meta.url).href}`;

interface EngineResult {
  engine: string;
  inputs: number;
  outcomes: Record<string, number>;
  missing: number;
  duplicated: number;
  crashed: boolean;
  hung: boolean;
  exit: number | null;
  signal: string | null;
  peakRssMiB: number;
  seconds: number;
}

async function runEngine(engine: string, dir: string, ids: readonly string[], jobs: number, timeout: number): Promise<EngineResult> {
  const started = Date.now();
  // A run may take a document's time limit per document a job, and some: past that it hangs.
  const deadline = (Math.ceil(ids.length / jobs) * timeout + 120) * 1000;
  const child = spawn(process.execPath, [REPORT_PEAK, CLI, 'extract', '--quiet', '--engine', engine, '--jobs', String(jobs), '--timeout', String(timeout), '--format', 'ndjson', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = new Map<string, number>();
  const outcomes: Record<string, number> = {};
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{"type":"end"') && !line.startsWith('{"type":"error"')) continue;
      const record = JSON.parse(line) as { type: string; doc: string; code?: string };
      seen.set(record.doc, (seen.get(record.doc) ?? 0) + 1);
      const key = record.type === 'end' ? 'end' : record.code!;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, deadline);
  const [exit, signal] = await new Promise<[number | null, string | null]>((done) => child.on('close', (code, sig) => done([code, sig])));
  clearTimeout(timer);
  const peak = Number(/peak-rss (\d+)/u.exec(stderr)?.[1] ?? 0) / 1024;
  return {
    engine,
    inputs: ids.length,
    outcomes,
    missing: ids.filter((id) => !seen.has(id)).length,
    duplicated: [...seen.values()].filter((n) => n > 1).length,
    crashed: !hung && (signal !== null || (exit !== 0 && exit !== 1)),
    hung,
    exit,
    signal,
    peakRssMiB: Math.round(peak),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '500' },
      seed: { type: 'string', default: '1' },
      engine: { type: 'string', default: 'pdfium,pdfjs' },
      jobs: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '20' },
      keep: { type: 'string' },
    },
  });
  const n = Number(values.n);
  const seeds = seedPdfs();
  if (seeds.length === 0) throw new Error(`No PDFs in ${SOURCES.join(' or ')}`);
  const dir = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'pdfpipe-fuzz-'));
  await mkdir(dir, { recursive: true });
  const ids: string[] = [];
  const used: Record<string, number> = {};
  for (const { index, bytes, operators } of mutants(seeds, n, Number(values.seed))) {
    for (const name of operators) used[name] = (used[name] ?? 0) + 1;
    const id = `mutant-${String(index).padStart(5, '0')}`;
    ids.push(id);
    await writeFile(join(dir, `${id}.pdf`), bytes);
  }
  const results: EngineResult[] = [];
  for (const engine of values.engine!.split(',')) {
    results.push(await runEngine(engine, dir, ids, Number(values.jobs), Number(values.timeout)));
  }
  process.stdout.write(JSON.stringify({ seed: Number(values.seed), mutants: n, seeds: seeds.length, operators: used, results }, null, 2) + '\n');
  if (!values.keep) await rm(dir, { recursive: true, force: true });
  const bad = results.some((r) => r.missing > 0 || r.duplicated > 0 || r.crashed || r.hung);
  process.exitCode = bad ? 1 : 0;
}

await main();
