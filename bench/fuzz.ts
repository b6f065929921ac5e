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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = [resolve(ROOT, '../shared/corpus/gt'), resolve(ROOT, 'samples')];
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const REPORT_PEAK = "--import=data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss '+process.resourceUsage().maxRSS+'\\n'))";

/** mulberry32: a small seeded PRNG, the same sequence for the same seed on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = (r: Random, n: number): number => Math.floor(r() * n);

/** Byte ranges of the `N G obj … endobj` objects in a file. */
function objects(bytes: Buffer): [number, number][] {
  const text = bytes.toString('latin1');
  const found: [number, number][] = [];
  for (const m of text.matchAll(/\d+ \d+ obj\b[\s\S]*?endobj/gu)) found.push([m.index, m.index + m[0].length]);
  return found;
}

/** The mutation operators: each takes a file and returns a damaged copy. */
const OPERATORS: Record<string, (b: Buffer, r: Random) => Buffer> = {
  flip(b, r) {
    const out = Buffer.from(b);
    for (let i = 0, n = 1 + pick(r, 32); i < n; i++) out[pick(r, out.length)] = pick(r, 256);
    return out;
  },
  truncate: (b, r) => b.subarray(0, Math.max(16, pick(r, b.length))),
  duplicateChunk(b, r) {
    const start = pick(r, b.length);
    const chunk = b.subarray(start, start + 1 + pick(r, 4096));
    const at = pick(r, b.length);
    return Buffer.concat([b.subarray(0, at), chunk, chunk, b.subarray(at)]);
  },
  deleteObject(b, r) {
    const list = objects(b);
    if (list.length === 0) return b;
    const [s, e] = list[pick(r, list.length)]!;
    return Buffer.concat([b.subarray(0, s), b.subarray(e)]);
  },
  duplicateObject(b, r) {
    const list = objects(b);
    if (list.length === 0) return b;
    const [s, e] = list[pick(r, list.length)]!;
    return Buffer.concat([b.subarray(0, e), Buffer.from('\n'), b.subarray(s, e), b.subarray(e)]);
  },
  corruptXref(b, r) {
    const text = b.toString('latin1');
    const at = text.lastIndexOf('xref');
    if (at === -1) return OPERATORS.flip!(b, r);
    const out = Buffer.from(b);
    for (let i = 0; i < 64; i++) {
      const p = at + pick(r, Math.min(4000, out.length - at));
      if (out[p]! >= 0x30 && out[p]! <= 0x39) out[p] = 0x30 + pick(r, 10);
    }
    return out;
  },
  corruptLength(b, r) {
    const text = b.toString('latin1');
    const lengths = [...text.matchAll(/\/Length (\d+)/gu)];
    if (lengths.length === 0) return b;
    const m = lengths[pick(r, lengths.length)]!;
    const value = [0, 1, Number(m[1]) * 1000, 2 ** 31, Number(m[1]) - 7][pick(r, 5)]!;
    return Buffer.concat([b.subarray(0, m.index), Buffer.from(`/Length ${value}`, 'latin1'), b.subarray(m.index + m[0].length)]);
  },
  inflateCount(b, r) {
    const text = b.toString('latin1');
    const counts = [...text.matchAll(/\/Count (\d+)/gu)];
    if (counts.length === 0) return b;
    const m = counts[pick(r, counts.length)]!;
    return Buffer.concat([b.subarray(0, m.index), Buffer.from(`/Count ${[1_000_000, 2 ** 31 - 1, -1][pick(r, 3)]}`, 'latin1'), b.subarray(m.index + m[0].length)]);
  },
  nesting(b, r) {
    const depth = 1000 + pick(r, 100_000);
    const at = objects(b)[0]?.[0] ?? pick(r, b.length);
    const open = pick(r, 2) === 0 ? '[' : '<<';
    return Buffer.concat([b.subarray(0, at), Buffer.from(`99999 0 obj\n${open.repeat(depth)}\nendobj\n`, 'latin1'), b.subarray(at)]);
  },
};

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
  const random = prng(Number(values.seed));
  const seeds = SOURCES.filter(existsSync).flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(dir, f)));
  if (seeds.length === 0) throw new Error(`No PDFs in ${SOURCES.join(' or ')}`);
  const dir = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'pdfpipe-fuzz-'));
  await mkdir(dir, { recursive: true });
  const names = Object.keys(OPERATORS);
  const ids: string[] = [];
  const used: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    let bytes: Buffer = readFileSync(seeds[pick(random, seeds.length)]!);
    for (let k = 0, ops = 1 + pick(random, 3); k < ops; k++) {
      const name = names[pick(random, names.length)]!;
      used[name] = (used[name] ?? 0) + 1;
      bytes = OPERATORS[name]!(bytes, random);
    }
    const id = `mutant-${String(i).padStart(5, '0')}`;
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
