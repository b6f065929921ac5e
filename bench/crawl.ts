/**
 * Crawl benchmark: accounting on a folder of PDFs and on a WARC.gz made from it, against pdftotext;
 * and, with --stream N, memory over a long stream of documents.
 *
 *     npm run bench:crawl -- [DIR] [--jobs N] [--timeout S]
 *     npm run bench:crawl -- [DIR] --stream 10000 [--jobs 2]
 *
 * DIR defaults to ../shared/corpus/wild. The folder run and the WARC run each check that the
 * number of outcomes equals the number of inputs, and count the documents with text (any
 * non-space character), beside pdftotext's count on the same files (one process per file, with
 * the same time limit). The WARC (one gzip member per `response` record, Content-Type
 * application/pdf) is written to a temporary folder and removed at the end.
 *
 * --stream N feeds the folder's PDFs, repeated, as N paths to `extract --from-list --format base64`
 * and prints the peak RSS of the process and the peak heap of a parse worker per 1,000 documents,
 * from `--report`, and the first 1,000 against the last 1,000.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { RunReport } from '../lib/run/batch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const DEFAULT_DIR = resolve(ROOT, '../shared/corpus/wild');

/** Runs pdfpipe with stdin from a file (or nothing), stdout to a file (or discarded); resolves with the exit code. */
function pdfpipe(args: readonly string[], stdinPath: string | null = null, stdoutPath: string | null = null): Promise<number> {
  return new Promise((done, fail) => {
    const input = stdinPath ? openSync(stdinPath, 'r') : 'ignore';
    const output = stdoutPath ? openSync(stdoutPath, 'w') : 'ignore';
    const child = spawn(process.execPath, [CLI, ...args], { stdio: [input, output, 'inherit'] });
    if (typeof input === 'number') closeSync(input);
    if (typeof output === 'number') closeSync(output);
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Writes every PDF as a WARC `response` record, gzip per record, as crawlers write them. */
async function writeWarc(paths: readonly string[], out: string): Promise<void> {
  const parts: Uint8Array[] = [];
  for (const path of paths) {
    const bytes = new Uint8Array(await readFile(path));
    const record = WARCRecord.create(
      {
        url: `https://example.org/${encodeURIComponent(basename(path))}`,
        type: 'response',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'application/pdf', 'Content-Length': String(bytes.byteLength) },
      },
      once(bytes),
    );
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  await writeFile(out, Buffer.concat(parts));
}

/** Files in `dir` with any non-space character. */
async function withText(dir: string): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir)) if (/\S/u.test(await readFile(join(dir, name), 'utf8'))) n += 1;
  return n;
}

const outcomes = (r: RunReport): string => Object.entries(r.outcomes).map(([k, v]) => `${k} ${v}`).join(', ');

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { jobs: { type: 'string', default: '2' }, timeout: { type: 'string', default: '60' }, stream: { type: 'string' } },
    allowPositionals: true,
  });
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = positionals[0] ? resolve(base, positionals[0]) : DEFAULT_DIR;
  if (!existsSync(dir)) {
    process.stderr.write(`bench:crawl: no such folder: ${dir}\n`);
    return 2;
  }
  const paths = (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.pdf')).sort().map((n) => join(dir, n));
  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-crawl-'));
  const common = ['--jobs', values.jobs, '--timeout', values.timeout, '--quiet'];
  try {
    if (values.stream !== undefined) {
      const n = Number(values.stream);
      const list = join(tmp, 'list.txt');
      await writeFile(list, Array.from({ length: n }, (_, i) => paths[i % paths.length]).join('\n') + '\n');
      const report = join(tmp, 'report.json');
      const started = Date.now();
      await pdfpipe(['extract', ...common, '--from-list', '--format', 'base64', '--report', report], list);
      const r = JSON.parse(await readFile(report, 'utf8')) as RunReport;
      process.stdout.write(`${n} documents (${paths.length} PDFs of ${dir} repeated), extract --jobs ${values.jobs}: ${r.documents} outcomes (${outcomes(r)}), ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      process.stdout.write('documents  process RSS peak MiB  worker heap peak MiB\n');
      for (const w of r.memory.windows) process.stdout.write(`${String(w.documents).padStart(9)}  ${w.rssPeakMiB.toFixed(1).padStart(20)}  ${w.workerPeakMiB.toFixed(1).padStart(20)}\n`);
      const first = r.memory.windows[0];
      const last = r.memory.windows[r.memory.windows.length - 1];
      if (first && last) {
        const change = (a: number, b: number): string => `${(((b - a) / a) * 100).toFixed(1)} %`;
        process.stdout.write(`first → last 1,000: RSS ${change(first.rssPeakMiB, last.rssPeakMiB)}, worker heap ${change(first.workerPeakMiB, last.workerPeakMiB)}\n`);
      }
      return 0;
    }
    process.stdout.write(`${paths.length} PDFs in ${dir}\n`);
    const warc = join(tmp, 'corpus.warc.gz');
    await writeWarc(paths, warc);
    for (const [name, input] of [['folder', dir], ['WARC.gz', warc]] as const) {
      const out = join(tmp, `out-${name}`);
      const report = join(tmp, `report-${name}.json`);
      await pdfpipe(['extract', ...common, '--out-dir', out, '--report', report, input]);
      const r = JSON.parse(await readFile(report, 'utf8')) as RunReport;
      const ok = r.documents === paths.length ? 'outcomes = inputs' : `OUTCOMES ${r.documents} ≠ INPUTS ${paths.length}`;
      process.stdout.write(`pdfpipe extract on the ${name}: ${r.documents} outcomes (${outcomes(r)}), ${ok}; with text ${await withText(out)}; ${r.seconds} s\n`);
    }
    if (spawnSync('sh', ['-c', 'command -v pdftotext']).status === 0) {
      const out = join(tmp, 'pdftotext');
      await rm(out, { recursive: true, force: true });
      spawnSync('mkdir', [out]);
      let failed = 0;
      for (const path of paths) {
        const result = spawnSync('timeout', [values.timeout, 'pdftotext', '-q', '-enc', 'UTF-8', path, join(out, `${basename(path, '.pdf')}.txt`)]);
        if (result.status !== 0) failed += 1;
      }
      process.stdout.write(`pdftotext (per file): ${failed} failed; with text ${await withText(out)}\n`);
    } else {
      process.stdout.write('pdftotext not found (Debian: apt-get install poppler-utils): no baseline.\n');
    }
    return 0;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
