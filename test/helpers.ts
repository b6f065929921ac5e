/**
 * Shared test helpers: where things are, how to run the real CLI, how to build records by hand,
 * and the character-accuracy measure the end-to-end tests use.
 *
 * Tests are compiled to dist/test/ and run from there, so every repository path is resolved from
 * `repoRoot`, never from the test file's own folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  SCHEMA_VERSION,
  type Block,
  type DocRecord,
  type EndRecord,
  type Item,
  type Line,
  type PageRecord,
  type PipeRecord,
  type Role,
} from '../lib/protocol/records.js';
import type { DocumentGroup } from '../lib/protocol/stage.js';

/** The repository root (this file runs from dist/test/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built command-line program. */
export const cli = join(repoRoot, 'dist/bin/pdfpipe.js');
export const samplesDir = join(repoRoot, 'samples');
/** The shared folder beside the repository; optional. */
export const sharedRoot = resolve(repoRoot, '../shared');
export const wildCorpus = join(sharedRoot, 'corpus/wild');

/** A file of the shared wild corpus; `skip` is the reason to skip (for tap's `{ skip }`) when it is not there. */
export function wildFile(name: string): { path: string; skip: string | false } {
  const path = join(wildCorpus, name);
  return { path, skip: existsSync(path) ? false : `${path} is not available (no ../shared corpus)` };
}

/** Sample names: every samples/NAME.pdf that has its expected samples/NAME.txt. */
export const sampleNames: string[] = readdirSync(samplesDir)
  .filter((f) => f.endsWith('.pdf') && existsSync(join(samplesDir, f.replace(/\.pdf$/, '.txt'))))
  .map((f) => f.slice(0, -4))
  .sort();

export const samplePdf = (name: string): string => join(samplesDir, `${name}.pdf`);
export const sampleTxt = (name: string): string => join(samplesDir, `${name}.txt`);

/** The environment for the program under test: the runner's own NODE_OPTIONS left out. */
export const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };

/**
 * spawn's command and arguments for COMMAND ARGS run without the test runner's import hooks, so
 * the program runs as a user runs it. An env without them is not enough: tap wraps
 * child_process and puts its hooks back into the NODE_OPTIONS of every process a test starts,
 * which made each pdfpipe start 0.5 s slower and take 100 MiB more. `env -u` takes them out
 * after that wrapper has run, and execs COMMAND in its own place (the same process id).
 */
export const untapped = (command: string, args: readonly string[]): [string, string[]] => ['/usr/bin/env', ['-u', 'NODE_OPTIONS', command, ...args]];

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node [NODE_ARGS] dist/bin/pdfpipe.js ARGS` from the repository root, feeding `input` on stdin. */
export function run(args: readonly string[], input?: string | Buffer, nodeArgs: readonly string[] = []): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(...untapped(process.execPath, [...nodeArgs, cli, ...args]), { cwd: repoRoot, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolvePromise({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** Parses NDJSON text into records (every non-empty line must be JSON). */
export function parseLines(text: string): PipeRecord[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as PipeRecord);
}

/** Records as NDJSON text. */
export const toNdjson = (records: readonly unknown[]): string => records.map((r) => JSON.stringify(r) + '\n').join('');

/** Pushes objects through an object-mode Transform and collects what comes out. */
export async function through(transform: Transform, input: readonly unknown[]): Promise<unknown[]> {
  const out: unknown[] = [];
  const done = new Promise<void>((res, rej) => {
    transform.on('data', (r: unknown) => out.push(r));
    transform.on('end', () => res());
    transform.on('error', rej);
  });
  Readable.from(input as unknown[], { objectMode: true }).pipe(transform);
  await done;
  return out;
}

/** Whitespace runs collapsed to one space, ends trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** Levenshtein distance over code points, in O(n·m) time and O(m) memory. */
export function levenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let previous = new Int32Array(t.length + 1);
  let current = new Int32Array(t.length + 1);
  for (let j = 0; j <= t.length; j++) previous[j] = j;
  for (let i = 1; i <= s.length; i++) {
    current[0] = i;
    const si = s[i - 1];
    for (let j = 1; j <= t.length; j++) {
      const cost = si === t[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[t.length]!;
}

/**
 * Character accuracy of `actual` against `expected`: 1 − levenshtein / length of expected, both
 * whitespace-collapsed (so paragraph breaks do not count, word spaces do). Can go below 0.
 */
export function charAccuracy(expected: string, actual: string): number {
  const e = collapse(expected);
  const a = collapse(actual);
  if (e.length === 0) return a.length === 0 ? 1 : 0;
  return 1 - levenshtein(e, a) / [...e].length;
}

// ---------------------------------------------------------------------------------------------
// Hand-built records

/** Average advance of a glyph in the hand-built fonts, × font size. */
export const GLYPH_WIDTH = 0.5;

/** A glyph run at (x, baseline y); its width is GLYPH_WIDTH em per character unless given. */
export function item(text: string, x: number, y: number, size = 10, extra: Partial<Item> = {}): Item {
  return { text, x, y, w: extra.w ?? [...text].length * GLYPH_WIDTH * size, size, font: extra.font ?? 'F1', dir: extra.dir ?? 'ltr', ...extra };
}

/**
 * Items for a line of words starting at x, separated by `gap` em (word spaces as gaps, not characters,
 * the way pdf.js reports text once runs are split at gaps).
 */
export function wordItems(words: readonly string[], x: number, y: number, size = 10, gap = 0.3, extra: Partial<Item> = {}): Item[] {
  const out: Item[] = [];
  let at = x;
  for (const word of words) {
    const it = item(word, at, y, size, extra);
    out.push(it);
    at += it.w + gap * size;
  }
  return out;
}

export function docRecord(id: string, pages = 1): DocRecord {
  return {
    type: 'doc',
    id,
    source: `${id}.pdf`,
    schema: SCHEMA_VERSION,
    meta: { pages, info: {}, lang: null, outline: [], encrypted: false, engine: 'hand-built', normalization: 'none' },
  };
}

export function endRecord(doc: string, pages = 1): EndRecord {
  return { type: 'end', doc, stats: { pages, items: 0, chars: 0, ms: 0 } };
}

export function pageRecord(doc: string, page: number, content: Partial<Pick<PageRecord, 'items' | 'lines' | 'blocks'>>, width = 595, height = 842): PageRecord {
  return { type: 'page', doc, page, width, height, ...content };
}

/** A whole document as the cores that work per document take it. */
export function group(pages: PageRecord[], id = pages[0]?.doc ?? 'doc'): DocumentGroup {
  return { doc: docRecord(id, pages.length), pages, diagnostics: [], outcome: endRecord(id, pages.length) };
}

/** A line record with its box derived from baseline and size (ink from 0.8 em above to 0.25 em below). */
export function line(text: string, base: number, extra: { x?: number; w?: number; size?: number; block?: number; role?: Role; font?: string } = {}): Line {
  const size = extra.size ?? 10;
  const x = extra.x ?? 72;
  const w = extra.w ?? [...text].length * GLYPH_WIDTH * size;
  const out: Line = {
    text,
    box: { x, y: base - 0.8 * size, w, h: 1.05 * size },
    base,
    font: extra.font ?? 'F1',
    size,
    dir: 'ltr',
    block: extra.block ?? 0,
    inferred: [],
  };
  if (extra.role) out.role = extra.role;
  return out;
}

/** A paragraph block as `paragraphs` writes it. */
export function block(text: string, extra: Partial<Block> = {}): Block {
  return {
    text,
    box: { x: 72, y: 72, w: 400, h: 12 },
    role: 'body',
    font: 'F1',
    size: 10,
    dir: 'ltr',
    continues: false,
    lines: 1,
    inferred: [],
    ...extra,
  };
}

/** Two pages (document `s`) with a header, page numbers and a footnote around the body. */
export function surveyPages(): PageRecord[] {
  return [
    pageRecord('s', 1, {
      blocks: [
        block('Field Notes — Spring Survey', { role: 'header' }),
        block('Spring Survey', { role: 'heading' }),
        block('The first paragraph.'),
        block('1 Counted twice.', { role: 'footnote' }),
        block('1', { role: 'page-number' }),
      ],
    }),
    pageRecord('s', 2, {
      blocks: [
        block('Field Notes — Spring Survey', { role: 'header' }),
        block('The second   paragraph,\nwith odd whitespace.'),
        block('Page 2 of 2', { role: 'footer' }),
      ],
    }),
  ];
}

/** Two pages (document `r`): a caption, a footnote and a page number between the halves of a body paragraph, then a table. */
export function interruptedPages(): PageRecord[] {
  return [
    pageRecord('r', 1, {
      blocks: [
        block('Results', { role: 'heading' }),
        block('The counts rose in every pond but the'),
        block('Figure 1. Counts by pond.', { role: 'caption' }),
        block('1 Two ponds were dry.', { role: 'footnote' }),
        block('3', { role: 'page-number' }),
      ],
    }),
    pageRecord('r', 2, { blocks: [block('last one.', { continues: true }), block('Table 2', { role: 'table' })] }),
  ];
}

/** Items of a page in output order, with their text. */
export const texts = (items: readonly Item[]): string[] => items.map((i) => i.text);
