/**
 * The fuzz benchmark's mutator (bench/fuzz.ts): a seeded PRNG, so that a run can be repeated, and
 * its operators, each a kind of damage a PDF meets in a crawl. A mutant is one of the seed PDFs
 * with one to three operators applied; the same seeds, count and seed give the same mutants on
 * every machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The folders of the PDFs mutated: the ground truth's and the samples. */
export const SOURCES = [resolve(ROOT, '../shared/corpus/gt'), resolve(ROOT, 'samples')];

/** The seed PDFs, in the order `mutants` draws from (the folders that exist, each sorted). */
export function seedPdfs(): string[] {
  return SOURCES.filter(existsSync).flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(dir, f)));
}

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
export const OPERATORS: Record<string, (b: Buffer, r: Random) => Buffer> = {
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

/** A mutant: its number in the run, its bytes, and the operators applied, in order. */
export interface Mutant {
  index: number;
  bytes: Buffer;
  operators: string[];
}

/** The first `n` mutants of the seed PDFs (paths, in order) for a PRNG seed. */
export function* mutants(seeds: readonly string[], n: number, seed: number): Generator<Mutant> {
  const random = prng(seed);
  const names = Object.keys(OPERATORS);
  for (let index = 0; index < n; index++) {
    let bytes: Buffer = readFileSync(seeds[pick(random, seeds.length)]!);
    const operators: string[] = [];
    for (let k = 0, ops = 1 + pick(random, 3); k < ops; k++) {
      const name = names[pick(random, names.length)]!;
      operators.push(name);
      bytes = OPERATORS[name]!(bytes, random);
    }
    yield { index, bytes, operators };
  }
}
