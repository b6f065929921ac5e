/**
 * Speed benchmark: pages per second of `pdfpipe extract` (--jobs 1 and --jobs 2) and of the raw
 * `pdfpipe parse`, against `pdftotext` run the way people run it (one process per file), on the
 * same PDFs in the same run; with PDFium, also PDFium's own floor (bench/pdfium-floor.ts): its page
 * loading and text analysis alone.
 *
 *     npm run bench:speed -- [DIR] [--min-pages N] [--engine auto,pdfium,pdfjs] [--ocr never|auto] [--repeats N] [--against BUILD]
 *
 * DIR defaults to ../shared/corpus/wild. Pages come from DIR/MANIFEST.tsv's `pages` column when
 * there is one, else from `pdfinfo`. Files with fewer than --min-pages pages are left out (default
 * 100 for the default folder, 0 for any other). Peak RSS comes from `/usr/bin/time -v`; without it,
 * Node commands report their own through a preloaded module (bench/usage-report.ts).
 * --engine names the parse engines to measure (comma-separated), each in the same run. --ocr is
 * passed to every pdfpipe command; its default, `never`, measures the text pipeline: Tesseract's
 * time has its own benchmark (bench/ocr.ts), and under `auto` a page's reading may stop at the
 * document's OCR budget, which is time, so outputs would differ from run to run. --repeats runs
 * every measurement N times, taking turns, and keeps each one's run of least CPU. --against adds
 * the pdfpipe rows of another build (a checkout with its dist/ built), measured in the same rounds:
 * a before and after that shares the machine's load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { UsageReport } from './usage-report.js';

/** The repository root (this file runs as dist/bench/speed.js). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_DIR = resolve(ROOT, '../shared/corpus/wild');
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
/** The default corpus is mostly small test files; its long documents are what speed is about. */
const DEFAULT_MIN_PAGES = 100;
const GNU_TIME = '/usr/bin/time';

const USAGE = `usage: npm run bench:speed -- [DIR] [--min-pages N] [--engine auto,pdfium,pdfjs] [--ocr never|auto] [--repeats N] [--against BUILD]

  DIR            folder of PDFs [default: ../shared/corpus/wild]
  --min-pages N  leave out files with fewer pages [default: ${DEFAULT_MIN_PAGES} for the default folder, else 0]
  --engine LIST  parse engines to measure, comma-separated (auto, pdfium, pdfjs) [default: auto]
  --ocr MODE     pdfpipe's --ocr for every run (never, auto, always) [default: never: the text
                 pipeline alone; npm run bench:ocr measures OCR]
  --repeats N    run every measurement N times, in turn, and keep each one's least CPU [default: 1]
  --against BUILD  also measure the pdfpipe commands of another build (a checkout whose dist/ is
                 built), in the same rounds, its rows marked [BUILD's folder name]

Needs pdftotext and pdfinfo (Debian: apt-get install poppler-utils).
`;

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

interface Measured {
  code: number;
  seconds: number;
  /** Peak resident set size in KiB, or null when it could not be measured. */
  rssKiB: number | null;
  /** User + system CPU seconds (GNU time only): steadier than wall time on a busy machine. */
  cpuSeconds: number | null;
  stderr: string;
}

/** Makes a Node command report its CPU and peak RSS as it exits. */
const USAGE_PRELOAD = new URL('./usage-report.js', import.meta.url).href;

class Timer {
  private count = 0;
  constructor(
    private readonly tmp: string,
    private readonly gnuTime: boolean,
  ) {}

  /** Runs one command with stdout to `stdoutPath` (or discarded), timing it and measuring its peak RSS. */
  async run(command: string, args: readonly string[], stdoutPath: string | null = null): Promise<Measured> {
    const rssFile = join(this.tmp, `rss-${this.count++}.txt`);
    let argv: string[];
    const env = { ...process.env };
    if (this.gnuTime) {
      argv = [GNU_TIME, '-v', '-o', rssFile, command, ...args];
    } else if (command === process.execPath) {
      argv = [command, '--import', USAGE_PRELOAD, ...args];
      env.PDFPIPE_USAGE_FILE = rssFile;
    } else {
      argv = [command, ...args];
    }
    const out = stdoutPath ? await open(stdoutPath, 'w') : null;
    const started = process.hrtime.bigint();
    const result = await new Promise<{ code: number; stderr: string }>((done, fail) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', out ? out.fd : 'ignore', 'pipe'], env });
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', fail);
      child.on('close', (code) => done({ code: code ?? 1, stderr }));
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await out?.close();
    const report = await readFile(rssFile, 'utf8').catch(() => '');
    const rss = this.gnuTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1] : report && (JSON.parse(report) as UsageReport).peakRssKiB;
    const user = /User time \(seconds\): ([\d.]+)/.exec(report)?.[1];
    const system = /System time \(seconds\): ([\d.]+)/.exec(report)?.[1];
    const cpuSeconds = this.gnuTime && user && system ? Number(user) + Number(system) : null;
    return { code: result.code, seconds, rssKiB: rss ? Number(rss) : null, cpuSeconds, stderr: result.stderr };
  }
}

/** Page counts from MANIFEST.tsv (columns `file` and `pages`), when the folder has one. */
async function manifestPages(dir: string): Promise<Map<string, number> | null> {
  const text = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8').catch(() => null);
  if (text === null) return null;
  const [header = '', ...rows] = text.split('\n');
  const columns = header.split('\t');
  const fileColumn = columns.indexOf('file');
  const pagesColumn = columns.indexOf('pages');
  if (fileColumn === -1 || pagesColumn === -1) return null;
  const pages = new Map<string, number>();
  for (const row of rows) {
    const cells = row.split('\t');
    const n = Number.parseInt(cells[pagesColumn] ?? '', 10);
    if (cells[fileColumn] && Number.isFinite(n)) pages.set(cells[fileColumn], n);
  }
  return pages;
}

/** Page count from pdfinfo, or null when pdfinfo cannot read the file. */
function pdfinfoPages(path: string): number | null {
  const result = spawnSync('pdfinfo', [path], { encoding: 'utf8' });
  const match = /^Pages:\s+(\d+)/m.exec(result.stdout ?? '');
  return match ? Number(match[1]) : null;
}

interface Row {
  tool: string;
  files: number;
  pages: number;
  failed: number;
  seconds: number;
  rssKiB: number | null;
  cpuSeconds?: number | null;
}

/** Documents that ended with an error, from pdfpipe's stderr ("pdfpipe: ID: CODE: message"). */
const failedDocuments = (stderr: string): number => stderr.split('\n').filter((l) => /^pdfpipe: .+: [a-z-]+: /.test(l)).length;

/** Documents that ended with an `error` record in parse's NDJSON output. */
async function parseFailures(path: string): Promise<number> {
  const text = await readFile(path, 'utf8');
  let failed = 0;
  for (const line of text.split('\n')) if (line.startsWith('{"type":"error"')) failed += 1;
  return failed;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      'min-pages': { type: 'string' },
      engine: { type: 'string', default: 'auto' },
      ocr: { type: 'string', default: 'never' },
      repeats: { type: 'string', default: '1' },
      against: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = positionals[0] ? resolve(base, positionals[0]) : DEFAULT_DIR;
  const minPages = values['min-pages'] !== undefined ? Number(values['min-pages']) : dir === DEFAULT_DIR ? DEFAULT_MIN_PAGES : 0;
  if (!Number.isFinite(minPages)) {
    process.stderr.write(`bench:speed: --min-pages expects a number, got "${values['min-pages']}"\n`);
    return 2;
  }
  const engines = String(values.engine).split(',').map((e) => e.trim()).filter((e) => e !== '');
  const unknownEngine = engines.find((e) => e !== 'pdfjs' && e !== 'pdfium' && e !== 'auto');
  if (unknownEngine !== undefined || engines.length === 0) {
    process.stderr.write(`bench:speed: --engine expects auto, pdfium and/or pdfjs, got "${values.engine}"\n`);
    return 2;
  }
  const ocr = String(values.ocr);
  if (!['never', 'auto', 'always'].includes(ocr)) {
    process.stderr.write(`bench:speed: --ocr expects never, auto or always, got "${ocr}"\n`);
    return 2;
  }
  if (!existsSync(dir)) {
    process.stderr.write(`bench:speed: no such folder: ${dir}\n`);
    return 2;
  }
  const repeats = Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 1) {
    process.stderr.write(`bench:speed: --repeats expects a whole number ≥ 1, got "${values.repeats}"\n`);
    return 2;
  }
  const against = values.against !== undefined ? resolve(base, values.against) : null;
  if (against !== null && !existsSync(join(against, 'dist/bin/pdfpipe.js'))) {
    process.stderr.write(`bench:speed: --against expects a built pdfpipe (DIR/dist/bin/pdfpipe.js), not found in ${against}\n`);
    return 2;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`bench:speed: ${CLI} is missing; build first (npx tsc -p .)\n`);
    return 2;
  }
  const pdftotext = has('pdftotext');
  if (!pdftotext) process.stdout.write('pdftotext not found (Debian: apt-get install poppler-utils): no baseline, no ratios.\n');

  // Choose the files and count their pages.
  const manifest = await manifestPages(dir);
  const pdfinfo = has('pdfinfo');
  const files: { path: string; pages: number }[] = [];
  let unknown = 0;
  for (const name of (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.pdf')).sort()) {
    const path = join(dir, name);
    const pages = manifest?.get(name) ?? (pdfinfo ? pdfinfoPages(path) : null);
    if (pages === null || pages === undefined) {
      unknown += 1;
      continue;
    }
    if (pages >= minPages) files.push({ path, pages });
  }
  if (files.length === 0) {
    process.stderr.write(`bench:speed: no PDFs with ${minPages}+ known pages in ${dir}\n`);
    return 2;
  }
  const totalPages = files.reduce((sum, f) => sum + f.pages, 0);
  const source = manifest ? 'MANIFEST.tsv' : 'pdfinfo';
  process.stdout.write(`${files.length} PDFs with ${minPages}+ pages (${totalPages} pages, counted by ${source}) in ${dir}; pdfpipe runs with --ocr ${ocr}\n`);
  if (unknown > 0) process.stdout.write(`(${unknown} PDFs left out: no page count in MANIFEST.tsv and pdfinfo could not read them)\n`);
  for (const f of files) process.stdout.write(`  ${String(f.pages).padStart(5)}  ${basename(f.path)}\n`);

  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-speed-'));
  try {
    const gnuTime = existsSync(GNU_TIME);
    const timer = new Timer(tmp, gnuTime);
    const paths = files.map((f) => f.path);
    const node = process.execPath;
    process.stdout.write(`peak RSS from ${gnuTime ? '/usr/bin/time -v' : 'bench/usage-report.ts (Node commands only)'}\n\nrunning…\n`);

    // Each measurement, run once per round; with --repeats, the rounds take turns through all of
    // them and each keeps its run of least CPU (least wall time without GNU time): on a machine that
    // other work shares, the least of a few runs is the steadiest.
    const measures: { tool: string; measure: () => Promise<Row> }[] = [];
    if (pdftotext) {
      // One process per file, as people run it.
      measures.push({
        tool: 'pdftotext (per file)',
        measure: async () => {
          const out = await mkdtemp(join(tmp, 'pdftotext-'));
          let seconds = 0;
          let rss: number | null = null;
          let cpu: number | null = 0;
          let failed = 0;
          for (const f of files) {
            const m = await timer.run('pdftotext', ['-q', '-enc', 'UTF-8', f.path, join(out, `${basename(f.path, '.pdf')}.txt`)]);
            seconds += m.seconds;
            if (m.rssKiB !== null) rss = Math.max(rss ?? 0, m.rssKiB);
            cpu = cpu !== null && m.cpuSeconds !== null ? cpu + m.cpuSeconds : null;
            if (m.code !== 0) failed += 1;
          }
          await rm(out, { recursive: true, force: true });
          return { tool: 'pdftotext (per file)', files: files.length, pages: totalPages, failed, seconds, rssKiB: rss, cpuSeconds: cpu };
        },
      });
    }
    // This build, and the one --against names (its rows marked with its folder's name).
    const builds = [{ cli: CLI, mark: '' }, ...(against ? [{ cli: join(against, 'dist/bin/pdfpipe.js'), mark: ` [${basename(against)}]` }] : [])];
    for (const engine of engines) {
      const label = engines.length > 1 || engine !== 'auto' ? ` (${engine})` : '';
      for (const { cli, mark } of builds) {
        for (const jobs of [1, 2]) {
          const tool = `pdfpipe extract --jobs ${jobs}${label}${mark}`;
          measures.push({
            tool,
            measure: async () => {
              const out = await mkdtemp(join(tmp, 'extract-'));
              const m = await timer.run(node, [cli, 'extract', '--engine', engine, '--ocr', ocr, '--jobs', String(jobs), '--out-dir', out, ...paths]);
              await rm(out, { recursive: true, force: true });
              return { tool, files: files.length, pages: totalPages, failed: failedDocuments(m.stderr), seconds: m.seconds, rssKiB: m.rssKiB, cpuSeconds: m.cpuSeconds };
            },
          });
        }
        const tool = `pdfpipe parse --jobs 1${label}${mark}`;
        measures.push({
          tool,
          measure: async () => {
            const parsed = join(tmp, 'parse.ndjson');
            const m = await timer.run(node, [cli, 'parse', '--engine', engine, '--ocr', ocr, '--jobs', '1', ...paths], parsed);
            const failed = await parseFailures(parsed);
            await rm(parsed, { force: true });
            return { tool, files: files.length, pages: totalPages, failed, seconds: m.seconds, rssKiB: m.rssKiB, cpuSeconds: m.cpuSeconds };
          },
        });
      }
    }
    if (engines.some((e) => e !== 'pdfjs')) {
      // What PDFium itself costs: each page loaded and its text analysed, nothing else.
      const tool = 'PDFium page + text page only';
      measures.push({
        tool,
        measure: async () => {
          const m = await timer.run(node, [join(ROOT, 'dist/bench/pdfium-floor.js'), ...paths]);
          return { tool, files: files.length, pages: totalPages, failed: m.code === 0 ? 0 : files.length, seconds: m.seconds, rssKiB: m.rssKiB, cpuSeconds: m.cpuSeconds };
        },
      });
    }
    const best = new Map<string, Row>();
    const cost = (r: Row): number => r.cpuSeconds ?? r.seconds;
    for (let round = 1; round <= repeats; round++) {
      if (repeats > 1) process.stdout.write(`round ${round} of ${repeats}\n`);
      for (const { tool, measure } of measures) {
        const row = await measure();
        const kept = best.get(tool);
        if (!kept || cost(row) < cost(kept)) best.set(tool, row);
      }
    }
    const rows = measures.map(({ tool }) => best.get(tool)!);
    const parseSeconds = new Map<string, number>();
    for (const engine of engines) {
      const label = engines.length > 1 || engine !== 'auto' ? ` (${engine})` : '';
      parseSeconds.set(label, best.get(`pdfpipe parse --jobs 1${label}`)!.seconds);
    }
    const baseline = rows.find((r) => r.tool.startsWith('pdftotext'))?.seconds ?? null;
    const cpuBaseline = rows.find((r) => r.tool.startsWith('pdftotext'))?.cpuSeconds ?? null;
    process.stdout.write(`\n${'tool'.padEnd(34)} ${'files'.padStart(5)} ${'pages'.padStart(6)} ${'failed'.padStart(6)} ${'seconds'.padStart(8)} ${'pages/s'.padStart(8)} ${'× pdftotext'.padStart(11)} ${'speed ratio'.padStart(11)} ${'peak RSS MiB'.padStart(12)} ${'cpu s'.padStart(8)} ${'cpu ratio'.padStart(9)}\n`);
    for (const r of rows) {
      const ratio = baseline ? (r.seconds / baseline).toFixed(2) : '-';
      const speed = baseline ? (baseline / r.seconds).toFixed(2) : '-';
      const cpu = r.cpuSeconds != null ? r.cpuSeconds.toFixed(2) : '-';
      const cpuRatio = cpuBaseline != null && r.cpuSeconds ? (cpuBaseline / r.cpuSeconds).toFixed(2) : '-';
      const rss = r.rssKiB === null ? '-' : (r.rssKiB / 1024).toFixed(0);
      process.stdout.write(
        `${r.tool.padEnd(34)} ${String(r.files).padStart(5)} ${String(r.pages).padStart(6)} ${String(r.failed).padStart(6)} ${r.seconds.toFixed(2).padStart(8)} ${(r.pages / r.seconds).toFixed(1).padStart(8)} ${ratio.padStart(11)} ${speed.padStart(11)} ${rss.padStart(12)} ${cpu.padStart(8)} ${cpuRatio.padStart(9)}\n`,
      );
    }
    for (const [label, seconds] of parseSeconds) {
      const extract1 = rows.find((r) => r.tool === `pdfpipe extract --jobs 1${label}`);
      const parse1 = rows.find((r) => r.tool === `pdfpipe parse --jobs 1${label}`);
      if (!extract1) continue;
      const share = ((extract1.seconds - seconds) / extract1.seconds) * 100;
      process.stdout.write(`\npipeline after parse${label}: ${(extract1.seconds - seconds).toFixed(2)} s wall, ${share.toFixed(0)}% of extract --jobs 1`);
      if (extract1.cpuSeconds != null && parse1?.cpuSeconds != null) {
        const cpuShare = ((extract1.cpuSeconds - parse1.cpuSeconds) / extract1.cpuSeconds) * 100;
        process.stdout.write(`; ${(extract1.cpuSeconds - parse1.cpuSeconds).toFixed(2)} CPU s, ${cpuShare.toFixed(0)}% of its CPU`);
      }
      process.stdout.write('\n');
    }
    process.stdout.write('(× pdftotext: wall time relative to pdftotext; speed ratio: pages/s relative to pdftotext, ≥ 1 is as fast or faster; cpu ratio: the same for user + system CPU seconds, steadier on a busy machine; pages/s counts every page of every file, failed ones included)\n');
    const [j1, j2] = [1, 2].map((jobs) => rows.find((r) => r.tool.startsWith(`pdfpipe extract --jobs ${jobs}`)));
    if (j1 && j2) {
      process.stdout.write(`scaling 1 → 2 jobs: wall ${(j1.seconds / j2.seconds).toFixed(2)}×`);
      if (j1.cpuSeconds != null && j2.cpuSeconds != null) process.stdout.write(`, CPU ${(j2.cpuSeconds / j1.cpuSeconds).toFixed(2)}× as much (wall can halve only if the CPU stays the same and a second core is free)`);
      process.stdout.write('\n');
    }
    return 0;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
