/**
 * OCR benchmark: what a page read by OCR costs, in CPU time and in wall time, and where it goes.
 *
 *     npm run bench:ocr -- [FILE|DIR ...] [--out-dir DIR] [-- EXTRACT OPTIONS]
 *
 * FILE|DIR default to bench/corpus/scans. Each document is extracted alone, one process at a time
 * (`extract --jobs 1 --format ndjson`), under GNU time, so that its CPU time counts Tesseract's too.
 * Tesseract runs through a wrapper that times each of its calls: the language list, the script
 * detection (`--psm 0`, once per document when nothing names a language), each reading. The table
 * gives per document the pages read by OCR, wall and CPU seconds, and Tesseract's share; the totals
 * give both per page read, with the load average before and after (CPU time is the steadier
 * figure on a busy machine: wall time grows with the load). --out-dir writes each document's text
 * (`--blank-lines`, as `../shared/eval/score.py` reads it). Options after `--` go to extract
 * (`-- --ocr-dpi 200`).
 *
 * The wild corpus's image-only files:
 *
 *     npm run bench:ocr -- $(awk -F'\t' '/image-only/ {print "../shared/corpus/wild/" $1}' ../shared/corpus/wild/MANIFEST.tsv)
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The repository root (this file runs as dist/bench/ocr.js). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const DEFAULT_INPUT = join(ROOT, 'bench/corpus/scans');
const GNU_TIME = '/usr/bin/time';

const USAGE = `usage: npm run bench:ocr -- [FILE|DIR ...] [--out-dir DIR] [-- EXTRACT OPTIONS]

  FILE|DIR       PDFs, or folders of them [default: bench/corpus/scans]
  --out-dir DIR  write each document's text there (--blank-lines), for score.py
  --tesseract P  the Tesseract program [default: tesseract on PATH]

Needs GNU time (/usr/bin/time) and Tesseract.
`;

/** One Tesseract call, as the wrapper timed it. */
interface Call {
  kind: 'list' | 'osd' | 'read';
  cpu: number;
  wall: number;
}

/** One document's run. */
interface Run {
  name: string;
  /** Pages read by OCR, and the milliseconds each `ocr` diagnostic gives (language choice and reading). */
  pages: number;
  ocrMs: number;
  wall: number;
  cpu: number;
  calls: Call[];
}

/** A shell script that runs Tesseract under GNU time, appending `user system wall args` to $PDFPIPE_BENCH_TESSERACT_LOG. */
function wrapper(tesseract: string): string {
  return `#!/bin/sh\nexec ${GNU_TIME} -a -o "$PDFPIPE_BENCH_TESSERACT_LOG" -f "%U %S %e $(echo "$*" | tr -d %)" ${JSON.stringify(tesseract)} "$@"\n`;
}

/** The calls a wrapper's log holds. */
function parseCalls(log: string): Call[] {
  const calls: Call[] = [];
  for (const line of log.split('\n')) {
    const match = /^([\d.]+) ([\d.]+) ([\d.]+) (.*)$/u.exec(line);
    if (!match) continue;
    const args = match[4]!;
    const kind = args.includes('--list-langs') ? 'list' : /--psm 0\b/u.test(args) ? 'osd' : 'read';
    calls.push({ kind, cpu: Number(match[1]) + Number(match[2]), wall: Number(match[3]) });
  }
  return calls;
}

/** The PDFs named by `inputs`: files as given, folders' PDFs in name order. */
async function pdfsOf(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    if (statSync(input).isDirectory()) files.push(...(await readdir(input)).filter((f) => f.toLowerCase().endsWith('.pdf')).sort().map((f) => join(input, f)));
    else files.push(input);
  }
  return files;
}

/** Runs `command args`, stdin from `input` and stdout to `output` when given; resolves to its exit code. */
function runCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv, output: string | null, input: string | null = null): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env, stdio: [input ? 'pipe' : 'ignore', output ? 'pipe' : 'ignore', 'inherit'] });
    if (input) createReadStream(input).pipe(child.stdin!);
    if (output) child.stdout!.pipe(createWriteStream(output));
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

/** Extracts one document under GNU time and reads what it cost. */
async function measure(file: string, tmp: string, tesseract: string, extra: readonly string[], outDir: string | null): Promise<Run> {
  const name = basename(file).replace(/\.pdf$/iu, '');
  const ndjson = join(tmp, `${name}.ndjson`);
  const times = join(tmp, `${name}.time`);
  const log = join(tmp, `${name}.tesseract`);
  await writeFile(log, '');
  const env = { ...process.env, PDFPIPE_BENCH_TESSERACT_LOG: log };
  const args = ['-f', '%U %S %e', '-o', times, process.execPath, CLI, 'extract', '--jobs', '1', '--quiet', '--format', 'ndjson', '--tesseract', tesseract, ...extra, file];
  const code = await runCommand(GNU_TIME, args, env, ndjson);
  if (code !== 0) process.stderr.write(`${name}: extract exited with code ${code}\n`);
  const [user = 0, system = 0, wall = 0] = (await readFile(times, 'utf8')).trim().split('\n').pop()!.split(' ').map(Number);
  let pages = 0;
  let ocrMs = 0;
  for (const line of (await readFile(ndjson, 'utf8')).split('\n')) {
    if (!line.includes('"code":"ocr"')) continue;
    const record = JSON.parse(line) as { type: string; code?: string; message?: string };
    if (record.type !== 'diagnostic' || record.code !== 'ocr') continue;
    pages += 1;
    ocrMs += Number(/ (\d+) ms\)/u.exec(record.message ?? '')?.[1] ?? 0);
  }
  if (outDir) await runCommand(process.execPath, [CLI, 'serialize', '--blank-lines'], process.env, join(outDir, `${name}.txt`), ndjson);
  return { name, pages, ocrMs, wall, cpu: user + system, calls: parseCalls(await readFile(log, 'utf8')) };
}

const seconds = (s: number): string => s.toFixed(2);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  // Options after `--` are extract's.
  const argv = process.argv.slice(2);
  const split = argv.indexOf('--');
  const extra = split >= 0 ? argv.slice(split + 1) : [];
  const { values, positionals: inputs } = parseArgs({
    args: split >= 0 ? argv.slice(0, split) : argv,
    options: { 'out-dir': { type: 'string' }, tesseract: { type: 'string', default: 'tesseract' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing (Debian: apt-get install time)`);
  const tesseract = spawnSync('sh', ['-c', `command -v ${values.tesseract}`], { encoding: 'utf8' }).stdout.trim();
  if (!tesseract) throw new Error(`${values.tesseract} is not on PATH`);
  const files = await pdfsOf(inputs.length > 0 ? inputs.map((p) => resolve(p)) : [DEFAULT_INPUT]);
  const outDir = values['out-dir'] ? resolve(values['out-dir']) : null;
  if (outDir) await mkdir(outDir, { recursive: true });
  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-bench-ocr-'));
  const program = join(tmp, 'tesseract');
  await writeFile(program, wrapper(tesseract));
  await chmod(program, 0o755);
  const loadBefore = load();
  const started = Date.now();
  const runs: Run[] = [];
  try {
    process.stdout.write(`| document | pages read | wall s | CPU s | Tesseract CPU s (osd, readings) | calls |\n| --- | --- | --- | --- | --- | --- |\n`);
    for (const file of files) {
      const run = await measure(file, tmp, program, extra, outDir);
      runs.push(run);
      const tess = run.calls.filter((c) => c.kind !== 'list');
      const osd = tess.filter((c) => c.kind === 'osd');
      const reads = tess.filter((c) => c.kind === 'read');
      const cpuOf = (calls: Call[]): number => calls.reduce((sum, c) => sum + c.cpu, 0);
      process.stdout.write(`| ${run.name} | ${run.pages} | ${seconds(run.wall)} | ${seconds(run.cpu)} | ${seconds(cpuOf(tess))} (${seconds(cpuOf(osd))}, ${seconds(cpuOf(reads))}) | ${osd.length} osd, ${reads.length} readings |\n`);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const pages = runs.reduce((sum, r) => sum + r.pages, 0);
  const read = runs.filter((r) => r.pages > 0);
  const sum = (f: (r: Run) => number, of: readonly Run[] = read): number => of.reduce((total, r) => total + f(r), 0);
  const calls = read.flatMap((r) => r.calls);
  const cpuOf = (kind: Call['kind']): number => calls.filter((c) => c.kind === kind).reduce((total, c) => total + c.cpu, 0);
  const perPage = (s: number): string => (pages > 0 ? seconds(s / pages) : '-');
  process.stdout.write(`
${runs.length} documents, ${pages} pages read by OCR in ${read.length} of them; ${((Date.now() - started) / 1000).toFixed(1)} s in all
load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}
per page read, over the documents with one: wall ${perPage(sum((r) => r.wall))} s, CPU ${perPage(sum((r) => r.cpu))} s
  of the CPU: Tesseract reading ${perPage(cpuOf('read'))} s (${calls.filter((c) => c.kind === 'read').length} readings), osd ${perPage(cpuOf('osd'))} s, language list ${perPage(cpuOf('list'))} s, the rest (Node: parse, render, stages) ${perPage(sum((r) => r.cpu) - cpuOf('read') - cpuOf('osd') - cpuOf('list'))} s
  the ocr diagnostics' time (language choice and readings, wall): ${perPage(sum((r) => r.ocrMs / 1000))} s
`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exitCode = 1;
});
