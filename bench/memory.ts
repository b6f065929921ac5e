/**
 * Memory over a long stream: one `pdfpipe extract` fed N `pdf` records on its standard input
 * (default 10,000), cycling over a folder's PDFs, with the process's resident set (worker threads
 * included) read from /proc every second. A run that keeps nothing of a document after its end
 * has a flat curve: the last samples near the middle ones, after the first documents have grown
 * the heaps and PDFium's WebAssembly memory to their working size.
 *
 *     npm run bench:memory -- [DIR] [--docs N] [--jobs N] [--ocr MODE]
 *
 * DIR defaults to the repository's samples/ and ../shared/corpus/gt beside it (when there), every
 * PDF of them. Output goes to an NDJSON stream that is counted and dropped: the documents that
 * ended, and those that ended in an error. Prints the curve's first, middle and last sample, its
 * peak and the spread of its second half, and the run's pages/s. Linux only (/proc).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const DEFAULT_DIRS = [join(ROOT, 'samples'), resolve(ROOT, '../shared/corpus/gt')];
/** Seconds between two readings of the resident set. */
const SAMPLE_SECONDS = 1;

const USAGE = `usage: npm run bench:memory -- [DIR ...] [--docs N] [--jobs N] [--ocr MODE]

  DIR          folders whose PDFs are cycled over [default: samples/ and ../shared/corpus/gt]
  --docs N     pdf records to feed [default: 10000]
  --jobs N     extract's --jobs [default: 1]
  --ocr MODE   extract's --ocr [default: never]
`;

/** The resident set of a process in MiB, from /proc (null once it has gone). */
async function rssMiB(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const match = status ? /^VmRSS:\s+(\d+) kB/m.exec(status) : null;
  return match ? Number(match[1]) / 1024 : null;
}

async function pdfsIn(dirs: readonly string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of (await readdir(dir)).sort()) if (name.toLowerCase().endsWith('.pdf')) paths.push(join(dir, name));
  }
  return paths;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      docs: { type: 'string', default: '10000' },
      jobs: { type: 'string', default: '1' },
      ocr: { type: 'string', default: 'never' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const docs = Number(values.docs);
  const jobs = Number(values.jobs);
  if (!Number.isInteger(docs) || docs < 1 || !Number.isInteger(jobs) || jobs < 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (!existsSync('/proc/self/status')) {
    process.stderr.write('bench:memory: reads the resident set from /proc, which this system has not\n');
    return 2;
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const dirs = positionals.length > 0 ? positionals.map((p) => resolve(base, p)) : DEFAULT_DIRS;
  const pdfs = await pdfsIn(dirs);
  if (pdfs.length === 0) {
    process.stderr.write(`bench:memory: no PDFs in ${dirs.join(', ')}\n`);
    return 2;
  }
  process.stdout.write(`${docs} pdf records over ${pdfs.length} PDFs (${dirs.filter((d) => existsSync(d)).join(', ')}); extract --jobs ${jobs} --ocr ${values.ocr}\n`);

  const child = spawn(process.execPath, [CLI, 'extract', '--quiet', '--jobs', String(jobs), '--ocr', String(values.ocr), '--format', 'ndjson'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const started = Date.now();
  const samples: number[] = [];
  const sampler = setInterval(() => {
    void rssMiB(child.pid!).then((mib) => {
      if (mib !== null) samples.push(mib);
    });
  }, SAMPLE_SECONDS * 1000);

  // Records are written as the child takes them, so the input is never held whole.
  const feed = async (): Promise<void> => {
    for (let i = 0; i < docs; i++) {
      const line = `${JSON.stringify({ type: 'pdf', id: `doc-${i}`, path: pdfs[i % pdfs.length] })}\n`;
      if (!child.stdin.write(line)) await new Promise((r) => child.stdin.once('drain', r));
    }
    child.stdin.end();
  };
  let ended = 0;
  let failed = 0;
  let pages = 0;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (line.startsWith('{"type":"end"')) {
      ended += 1;
      pages += (JSON.parse(line) as { stats?: { pages?: number } }).stats?.pages ?? 0;
    } else if (line.startsWith('{"type":"error"')) failed += 1;
  });
  const [code] = await Promise.all([new Promise<number | null>((r) => child.on('close', r)), feed()]);
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1000;

  const at = (share: number): string => (samples.length ? samples[Math.min(samples.length - 1, Math.floor(share * samples.length))]!.toFixed(0) : '-');
  const second = samples.slice(Math.floor(samples.length / 2));
  const spread = second.length ? Math.max(...second) - Math.min(...second) : 0;
  process.stdout.write(
    [
      `exit ${code}; ${ended} ended, ${failed} errors (${ended + failed} outcomes for ${docs} records), ${pages} pages in ${seconds.toFixed(0)} s, ${(pages / seconds).toFixed(1)} pages/s`,
      `RSS MiB, ${samples.length} samples a second apart: first ${at(0)}, middle ${at(0.5)}, last ${at(1)}; peak ${samples.length ? Math.max(...samples).toFixed(0) : '-'}; second half spread ${spread.toFixed(0)}`,
      '',
    ].join('\n'),
  );
  return code === 0 && ended + failed === docs ? 0 : 1;
}

process.exitCode = await main();
