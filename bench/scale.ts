/**
 * Scaling benchmark: `pdfpipe extract --jobs N` for N = 1 … the machine's cores, over the same
 * PDFs: pages per second, CPU per page, and CPU per page relative to one job. On a machine with
 * free cores, pages/s should grow with N while the CPU per page stays near one job's (extra jobs
 * cost only their own start-up and memory).
 *
 *     npm run bench:scale -- [DIR] [--min-pages N] [--max-jobs N]
 *
 * DIR defaults to ../shared/corpus/wild, whose PDFs of 100+ pages are taken (every PDF for
 * another folder, unless --min-pages says otherwise); pages come from DIR/MANIFEST.tsv's `pages`
 * column when there is one, else from `pdfinfo`. CPU (user + system, worker threads included)
 * and peak RSS are the process's own at exit, reported by a preloaded module
 * (bench/usage-report.ts), so nothing beyond Node is needed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { UsageReport } from './usage-report.js';

/** The repository root (this file runs as dist/bench/scale.js). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_DIR = resolve(ROOT, '../shared/corpus/wild');
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
/** The default corpus is mostly small test files; its long documents are what throughput is about. */
const DEFAULT_MIN_PAGES = 100;

const USAGE = `usage: npm run bench:scale -- [DIR] [--min-pages N] [--max-jobs N]

  DIR            folder of PDFs [default: ../shared/corpus/wild]
  --min-pages N  leave out files with fewer pages [default: ${DEFAULT_MIN_PAGES} for the default folder, else 0]
  --max-jobs N   the largest --jobs to run [default: the number of cores, ${availableParallelism()} here]
`;

/** Makes a Node command report its CPU and peak RSS as it exits. */
const USAGE_PRELOAD = new URL('./usage-report.js', import.meta.url).href;

/** Page counts from MANIFEST.tsv (columns `file` and `pages`), else from pdfinfo; null when unknown. */
async function pageCounter(dir: string): Promise<(name: string) => number | null> {
  const text = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8').catch(() => '');
  const [header = '', ...rows] = text.split('\n');
  const columns = header.split('\t');
  const manifest = new Map<string, number>();
  for (const row of rows) {
    const cells = row.split('\t');
    const pages = Number.parseInt(cells[columns.indexOf('pages')] ?? '', 10);
    const file = cells[columns.indexOf('file')];
    if (file && Number.isFinite(pages)) manifest.set(file, pages);
  }
  return (name) => {
    const known = manifest.get(name);
    if (known !== undefined) return known;
    const match = /^Pages:\s+(\d+)/m.exec(spawnSync('pdfinfo', [join(dir, name)], { encoding: 'utf8' }).stdout ?? '');
    return match ? Number(match[1]) : null;
  };
}

interface Run {
  jobs: number;
  seconds: number;
  cpuSeconds: number;
  rssMiB: number;
  code: number;
}

async function extract(jobs: number, paths: readonly string[], tmp: string): Promise<Run> {
  const usageFile = join(tmp, `usage-${jobs}.json`);
  const out = join(tmp, `out-${jobs}`);
  const started = process.hrtime.bigint();
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, ['--import', USAGE_PRELOAD, CLI, 'extract', '--quiet', '--jobs', String(jobs), '--out-dir', out, ...paths], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PDFPIPE_USAGE_FILE: usageFile },
    });
    child.on('error', fail);
    child.on('close', (status) => done(status ?? 1));
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as UsageReport;
  await rm(out, { recursive: true, force: true });
  return { jobs, seconds, cpuSeconds: usage.cpuSeconds, rssMiB: usage.peakRssKiB / 1024, code };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { 'min-pages': { type: 'string' }, 'max-jobs': { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = positionals[0] ? resolve(base, positionals[0]) : DEFAULT_DIR;
  const minPages = values['min-pages'] !== undefined ? Number(values['min-pages']) : dir === DEFAULT_DIR ? DEFAULT_MIN_PAGES : 0;
  const maxJobs = values['max-jobs'] !== undefined ? Number(values['max-jobs']) : availableParallelism();
  if (positionals.length > 1 || !Number.isFinite(minPages) || !Number.isInteger(maxJobs) || maxJobs < 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (!existsSync(dir) || !existsSync(CLI)) {
    process.stderr.write(`bench:scale: ${existsSync(dir) ? `${CLI} is missing; build first (npx tsc -p .)` : `no such folder: ${dir}`}\n`);
    return 2;
  }
  const pagesOf = await pageCounter(dir);
  const files: { path: string; pages: number }[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.pdf')).sort()) {
    const pages = pagesOf(name);
    if (pages !== null && pages >= minPages) files.push({ path: join(dir, name), pages });
  }
  if (files.length === 0) {
    process.stderr.write(`bench:scale: no PDFs with ${minPages}+ known pages in ${dir}\n`);
    return 2;
  }
  const pages = files.reduce((sum, f) => sum + f.pages, 0);
  process.stdout.write(`${files.length} PDFs, ${pages} pages, from ${dir}; ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}\n\n`);
  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-scale-'));
  try {
    process.stdout.write(`${'jobs'.padStart(4)} ${'seconds'.padStart(8)} ${'pages/s'.padStart(8)} ${'CPU s'.padStart(8)} ${'CPU ms/page'.padStart(11)} ${'× jobs 1'.padStart(8)} ${'peak RSS MiB'.padStart(12)}\n`);
    let first: Run | null = null;
    for (let jobs = 1; jobs <= maxJobs; jobs++) {
      const run = await extract(jobs, files.map((f) => f.path), tmp);
      first ??= run;
      process.stdout.write(
        `${String(jobs).padStart(4)} ${run.seconds.toFixed(2).padStart(8)} ${(pages / run.seconds).toFixed(1).padStart(8)} ${run.cpuSeconds.toFixed(2).padStart(8)} ${((run.cpuSeconds * 1000) / pages).toFixed(2).padStart(11)} ${(run.cpuSeconds / first.cpuSeconds).toFixed(2).padStart(8)} ${run.rssMiB.toFixed(0).padStart(12)}${run.code === 0 ? '' : `  (exit ${run.code})`}\n`,
      );
    }
    process.stdout.write('\n(CPU is user + system of the whole process, worker threads included; on a machine other work shares, wall time and pages/s swing with the load, CPU much less)\n');
    return 0;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
