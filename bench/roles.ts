/**
 * Roles benchmark: the role pdfpipe gives each block, against hand labels. bench/roles/NAME.roles.json
 * holds one label per paragraph of the page as a reader reads it — `{"role", "page", "text"}`, in
 * reading order, running heads, page numbers, footnotes, captions, table cells and display
 * formulas included — where `text` is only the paragraph's first characters, enough to find it.
 * The PDF is NAME.pdf in the first corpus folder that has it (../shared/corpus/arxiv, then
 * ../shared/corpus/gt, then the running-footer documents of bench/corpus/footers); a document
 * whose PDF is missing is skipped and said so.
 *
 *     npm run bench:roles -- [--labels DIR] [--corpus DIR]... [--docs NAME,...] [--verbose]
 *
 * Each document runs through `pdfpipe extract --format ndjson`; each label is matched to the
 * block holding its text (see `match`) and is right when that block's role is the label's role.
 * Prints per role: labelled, matched, correct, accuracy (correct / labelled: a label matched to
 * no block counts as wrong), then the confusions (label → ours, with the first example's page
 * and text) and the overall figures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const DEFAULT_LABELS = join(ROOT, 'bench/roles');
const DEFAULT_CORPORA = [resolve(ROOT, '../shared/corpus/arxiv'), resolve(ROOT, '../shared/corpus/gt'), join(ROOT, 'bench/corpus/footers')];
/** The roles whose accuracy the benchmark holds to TARGET. */
const CHECKED = new Set(['body', 'heading', 'caption', 'footnote', 'reference', 'header', 'footer', 'page-number']);
const TARGET = 0.95;
/**
 * A block shorter than the label's key is taken as the key's first piece (a title or heading that
 * pdfpipe split over two blocks) only when it has at least this many letters and digits, so that
 * a page number "2" is not the start of "2 Method".
 */
const MIN_PIECE = 8;

const USAGE = `usage: npm run bench:roles -- [--labels DIR] [--corpus DIR]... [--docs NAME,...] [--verbose]

  --labels DIR   folder of NAME.roles.json [default: bench/roles]
  --corpus DIR   folder holding NAME.pdf; repeatable, the first that has it wins
                 [default: ../shared/corpus/arxiv, ../shared/corpus/gt, bench/corpus/footers]
  --docs LIST    only these documents (comma-separated names)
  --verbose      also list every wrong or missed label
`;

export interface Label {
  role: string;
  text: string;
  page?: number;
}

export interface PlacedBlock {
  page: number;
  role: string;
  text: string;
}

/**
 * Text reduced to lower-case letters and digits without their accents (after NFKD, which also
 * unfolds ligatures and superscript digits), so that word spaces, hyphenation, quotes, line breaks
 * and a lost accent do not decide a match: the benchmark measures roles, not characters. Text
 * with no letter or digit at all (a formula piece "√", a combining arrow) keeps its non-space
 * characters as they are.
 */
export function squeeze(text: string): string {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const kept = folded.replace(/[^\p{L}\p{N}]+/gu, '');
  return kept !== '' ? kept : text.replace(/\s+/gu, '');
}

/**
 * The block each label belongs to (its index in `blocks`, or -1 when none holds its text). A
 * label is looked for among the blocks of its page (all blocks when it gives none) not yet taken,
 * best kind of match first: the block's text is the key; it starts with the key; it is the key's
 * first piece (at least MIN_PIECE characters). Among blocks of the best kind the first at or
 * after the previous match wins (reading order; "Article 1" before "Article 10"), else the first
 * before it. A label found in no block that way may lie inside a block that merged it with
 * others (a reference list run together, a heading joined to its paragraph): then the first block
 * containing the key, taken or not.
 */
export function match(labels: readonly Label[], blocks: readonly PlacedBlock[]): number[] {
  const texts = blocks.map((b) => squeeze(b.text));
  const taken = new Set<number>();
  let cursor = 0;
  return labels.map((label) => {
    const key = squeeze(label.text);
    if (key === '') return -1;
    const onPage = (i: number) => label.page === undefined || blocks[i]!.page === label.page;
    const kinds: ((t: string) => boolean)[] = [
      (t) => t === key,
      (t) => t.startsWith(key),
      (t) => t.length >= Math.min(MIN_PIECE, key.length) && key.startsWith(t),
    ];
    const inOrder = [...blocks.keys()].filter(onPage).sort((a, b) => (a >= cursor ? 0 : 1) - (b >= cursor ? 0 : 1) || a - b);
    for (const kind of kinds) {
      const found = inOrder.find((i) => !taken.has(i) && texts[i] !== '' && kind(texts[i]!));
      if (found !== undefined) {
        taken.add(found);
        cursor = found + 1;
        return found;
      }
    }
    const inside = inOrder.find((i) => texts[i]!.includes(key));
    if (inside === undefined) return -1;
    cursor = inside;
    return inside;
  });
}

/** The blocks of every page of an NDJSON output, in output order. */
function blocksOf(ndjson: string): PlacedBlock[] {
  const blocks: PlacedBlock[] = [];
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { type?: string; page?: number; blocks?: { role: string; text: string }[] };
    if (record.type !== 'page') continue;
    for (const block of record.blocks ?? []) blocks.push({ page: record.page!, role: block.role, text: block.text });
  }
  return blocks;
}

interface Tally {
  labelled: number;
  matched: number;
  correct: number;
}

interface Example {
  doc: string;
  page: number | undefined;
  text: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      labels: { type: 'string' },
      corpus: { type: 'string', multiple: true },
      docs: { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build)`);
  const labelsDir = values.labels ?? DEFAULT_LABELS;
  const corpora = values.corpus ?? DEFAULT_CORPORA;
  const only = values.docs === undefined ? null : new Set(values.docs.split(','));
  const names = readdirSync(labelsDir)
    .filter((f) => f.endsWith('.roles.json'))
    .map((f) => f.slice(0, -'.roles.json'.length))
    .filter((n) => only === null || only.has(n))
    .sort();

  const tallies = new Map<string, Tally>();
  const confusions = new Map<string, { count: number; example: Example }>();
  const perDoc: string[] = [];
  for (const name of names) {
    const pdf = corpora.map((dir) => join(dir, `${name}.pdf`)).find(existsSync);
    if (pdf === undefined) {
      process.stdout.write(`skipped ${name}: no ${name}.pdf in ${corpora.join(', ')}\n`);
      continue;
    }
    const labels = JSON.parse(readFileSync(join(labelsDir, `${name}.roles.json`), 'utf8')) as Label[];
    const run = spawnSync(process.execPath, [CLI, 'extract', '--quiet', '--format', 'ndjson', pdf], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (run.status !== 0) {
      process.stdout.write(`skipped ${name}: pdfpipe exited ${run.status}: ${run.stderr.trim().split('\n').pop() ?? ''}\n`);
      continue;
    }
    const blocks = blocksOf(run.stdout);
    const found = match(labels, blocks);
    let right = 0;
    labels.forEach((label, i) => {
      const tally = tallies.get(label.role) ?? { labelled: 0, matched: 0, correct: 0 };
      tallies.set(label.role, tally);
      tally.labelled++;
      const at = found[i]!;
      const ours = at < 0 ? '(missed)' : blocks[at]!.role;
      if (at >= 0) tally.matched++;
      if (ours === label.role) {
        tally.correct++;
        right++;
        return;
      }
      const key = `${label.role} → ${ours}`;
      const example = { doc: name, page: label.page ?? (at >= 0 ? blocks[at]!.page : undefined), text: label.text };
      const seen = confusions.get(key);
      if (seen === undefined) confusions.set(key, { count: 1, example });
      else seen.count++;
      if (values.verbose) perDoc.push(`  ${name} p${example.page ?? '?'} ${key}: ${JSON.stringify(label.text)}`);
    });
    process.stdout.write(`${name}: ${right}/${labels.length} labels right\n`);
  }

  const pad = (s: string | number, n: number) => String(s).padStart(n);
  const ratio = (a: number, b: number) => (b === 0 ? '  -  ' : (a / b).toFixed(3));
  process.stdout.write(`\n${'role'.padEnd(14)}${pad('labelled', 9)}${pad('matched', 9)}${pad('correct', 9)}${pad('accuracy', 10)}\n`);
  const total: Tally = { labelled: 0, matched: 0, correct: 0 };
  const roles = [...tallies.keys()].sort((a, b) => tallies.get(b)!.labelled - tallies.get(a)!.labelled);
  for (const role of roles) {
    const t = tallies.get(role)!;
    total.labelled += t.labelled;
    total.matched += t.matched;
    total.correct += t.correct;
    const mark = CHECKED.has(role) ? (t.correct / t.labelled >= TARGET ? '' : `  < ${TARGET}`) : '';
    process.stdout.write(`${role.padEnd(14)}${pad(t.labelled, 9)}${pad(t.matched, 9)}${pad(t.correct, 9)}${pad(ratio(t.correct, t.labelled), 10)}${mark}\n`);
  }
  process.stdout.write(`${'overall'.padEnd(14)}${pad(total.labelled, 9)}${pad(total.matched, 9)}${pad(total.correct, 9)}${pad(ratio(total.correct, total.labelled), 10)}\n`);
  process.stdout.write('\nconfusions (label → ours), most frequent first, with the first example:\n');
  for (const [key, { count, example }] of [...confusions].sort((a, b) => b[1].count - a[1].count)) {
    process.stdout.write(`${pad(count, 5)}  ${key.padEnd(28)} ${example.doc} p${example.page ?? '?'} ${JSON.stringify(example.text)}\n`);
  }
  if (values.verbose && perDoc.length > 0) process.stdout.write(`\nevery wrong label:\n${perDoc.join('\n')}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
