/**
 * roles, end to end on samples/paper.pdf against samples/paper.roles.json: the role of every
 * paragraph (accuracy per role), heading levels, the bibliography as one block per entry, the
 * running heads and page numbers of every page, and `pdfpipe roles` run as its own process after
 * `join` giving the roles that `extract` gives in one process.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLines, repoRoot, run, samplePdf, samplesDir, sharedRoot } from '../helpers.js';
import type { Block, PageRecord, PipeRecord, Role } from '../../lib/protocol/records.js';

/** One paragraph of samples/paper.txt with its true role. */
interface TruthEntry {
  role: Role;
  text: string;
  level?: number;
}

const truth = JSON.parse(readFileSync(join(samplesDir, 'paper.roles.json'), 'utf8')) as TruthEntry[];

/** The running head and the page number of each page of paper.pdf (paper.txt leaves them out). */
const FURNITURE: readonly { page: number; header: string | null; number: string }[] = [
  { page: 1, header: null, number: '1' },
  { page: 2, header: 'M. Lindqvist', number: '2' },
  { page: 3, header: 'Heat Retention of Tea in Three Mugs', number: '3' },
];

/** The roles whose accuracy must reach ACCURACY. */
const CHECKED: readonly Role[] = ['body', 'heading', 'caption', 'footnote', 'reference'];
const ACCURACY = 0.95;

/** Text without any whitespace: a word space found or missed is not the roles stage's business. */
const squeeze = (text: string): string => text.replace(/\s+/gu, '');

const pagesOf = (records: readonly PipeRecord[]): PageRecord[] => records.filter((r): r is PageRecord => r.type === 'page');

/** A block of the output, with its page. */
interface Placed {
  page: number;
  block: Block;
}

/** The blocks that cover each truth entry, and the blocks that belong to none. */
interface Alignment {
  covering: Placed[][];
  unmatched: Placed[];
}

/**
 * Which truth entries each block belongs to. The truth's texts, without whitespace, are laid end
 * to end in one string, and a block is found in it where its own text (without whitespace) starts
 * either where the previous block ended (the rest of a paragraph that `join` did not join, the
 * next cell of a table row) or at the start of an entry, looking forward first (the reading
 * order) and then from the beginning (a block read out of order). It belongs to every entry its
 * text overlaps there: a block that merges two paragraphs counts for both, and is right for
 * both only if they have the same role. Anchoring at entry starts keeps short blocks ("0", "°C")
 * from matching by chance inside a longer paragraph; a block found nowhere (figure labels, a
 * running head, a table column read as one block) belongs to no entry and is listed apart.
 * The page's own running head and page number (FURNITURE) are not looked for: they are not in
 * paper.txt, and a page number "2" would otherwise start the entry "2 Method".
 */
function align(pages: readonly PageRecord[], entries: readonly TruthEntry[]): Alignment {
  const starts: number[] = [];
  let stream = '';
  for (const entry of entries) {
    starts.push(stream.length);
    stream += squeeze(entry.text);
  }
  starts.push(stream.length);
  const covering: Placed[][] = entries.map(() => []);
  const unmatched: Placed[] = [];
  let cursor = 0;
  for (const page of pages) {
    const furniture = FURNITURE.find((f) => f.page === page.page);
    const own = new Set([furniture?.header, furniture?.number].filter((x): x is string => typeof x === 'string').map(squeeze));
    for (const block of page.blocks ?? []) {
      const text = squeeze(block.text);
      if (text === '' || own.has(text)) continue;
      let at = stream.startsWith(text, cursor) ? cursor : -1;
      if (at < 0) {
        const forward = starts.slice(0, -1).filter((s) => s >= cursor);
        const backward = starts.slice(0, -1).filter((s) => s < cursor);
        at = [...forward, ...backward].find((s) => stream.startsWith(text, s)) ?? -1;
      }
      if (at < 0) {
        unmatched.push({ page: page.page, block });
        continue;
      }
      const end = at + text.length;
      entries.forEach((_, i) => {
        if (starts[i]! < end && starts[i + 1]! > at) covering[i]!.push({ page: page.page, block });
      });
      cursor = end;
    }
  }
  return { covering, unmatched };
}

/** A block as the reports show it: role, size, font, box and text. */
function describe({ page, block }: Placed): string {
  const { x, y, w, h } = block.box;
  const text = block.text.length > 70 ? `${block.text.slice(0, 50)} … ${block.text.slice(-15)}` : block.text;
  const role = block.level === undefined ? block.role : `${block.role}/${block.level}`;
  return `p${page} ${role} ${block.size} ${block.font} [${x} ${y} ${w} ${h}] ${JSON.stringify(text)}`;
}

const extracted = run(['extract', '--format', 'ndjson', samplePdf('paper')]);

async function paperPages(): Promise<PageRecord[]> {
  const result = await extracted;
  if (result.code !== 0) throw new Error(`extract paper exited ${result.code}: ${result.stderr}`);
  return pagesOf(parseLines(result.stdout));
}

t.test('paper.roles.json is paper.txt, paragraph by paragraph', async (t) => {
  const paragraphs = readFileSync(join(samplesDir, 'paper.txt'), 'utf8').trimEnd().split('\n\n');
  t.same(truth.map((e) => e.text), paragraphs);
});

t.test('paper: every paragraph has its true role', async (t) => {
  const pages = await paperPages();
  const { covering, unmatched } = align(pages, truth);
  const right = (entry: TruthEntry, i: number): boolean => covering[i]!.length > 0 && covering[i]!.every(({ block }) => block.role === entry.role);
  const roles = [...new Set(truth.map((e) => e.role))];
  const accuracy = new Map<Role, number>();
  for (const role of roles) {
    const of = truth.map((entry, i) => ({ entry, i })).filter(({ entry }) => entry.role === role);
    const good = of.filter(({ entry, i }) => right(entry, i)).length;
    accuracy.set(role, good / of.length);
    t.comment(`${role}: ${good}/${of.length} = ${(good / of.length).toFixed(3)}`);
  }
  truth.forEach((entry, i) => {
    if (right(entry, i)) return;
    const blocks = covering[i]!.length === 0 ? ['(no block of its own)'] : covering[i]!.map(describe);
    t.comment(`wrong: ${entry.role} ${JSON.stringify(entry.text.slice(0, 50))}\n    ${blocks.join('\n    ')}`);
  });
  for (const placed of unmatched) t.comment(`in no paragraph of paper.txt: ${describe(placed)}`);
  for (const role of CHECKED) t.ok((accuracy.get(role) ?? 0) >= ACCURACY, `${role}: accuracy ${(accuracy.get(role) ?? 0).toFixed(3)} ≥ ${ACCURACY}`);
});

t.test('paper: numbered section headings have their level', async (t) => {
  const pages = await paperPages();
  const { covering } = align(pages, truth);
  truth.forEach((entry, i) => {
    if (entry.role !== 'heading' || !/^\d+(?:\.\d+)* /u.test(entry.text)) return;
    t.same(covering[i]!.map(({ block }) => block.level ?? null), [entry.level], `${entry.text}: one block, level ${entry.level}`);
  });
});

t.test('paper: the bibliography is five blocks, one per entry', async (t) => {
  const pages = await paperPages();
  const references = pages.flatMap((p) => (p.blocks ?? []).filter((b) => b.role === 'reference'));
  const expected = truth.filter((e) => e.role === 'reference').map((e) => squeeze(e.text));
  t.equal(expected.length, 5);
  t.same(references.map((b) => squeeze(b.text)), expected);
});

t.test('paper: running heads and page numbers on every page, and their text is nothing else', async (t) => {
  const pages = await paperPages();
  for (const { page, header, number } of FURNITURE) {
    const blocks = pages.find((p) => p.page === page)?.blocks ?? [];
    const placed = blocks.map((block) => describe({ page, block }));
    const numbers = blocks.filter((b) => b.text.trim() === number);
    t.ok(numbers.length > 0 && numbers.every((b) => b.role === 'page-number'), `page ${page}: "${number}" is a page number`, { found: placed.filter((_, i) => blocks[i]!.text.trim() === number) });
    if (header === null) continue;
    const heads = blocks.filter((b) => squeeze(b.text) === squeeze(header));
    t.ok(heads.length > 0 && heads.every((b) => b.role === 'header'), `page ${page}: "${header}" is a running head`, { found: placed.filter((_, i) => squeeze(blocks[i]!.text) === squeeze(header)) });
  }
});

t.test('paper: `pdfpipe roles` as its own process after join gives the roles extract gives', async (t) => {
  let records = (await run(['parse', samplePdf('paper')])).stdout;
  for (const stage of ['order', 'lines', 'bidi', 'repair', 'resegment', 'paragraphs', 'join', 'roles']) {
    const result = await run([stage], records);
    t.equal(result.code, 0, `${stage} exits 0`);
    records = result.stdout;
  }
  const summary = (pages: readonly PageRecord[]) => pages.flatMap((p) => (p.blocks ?? []).map((b) => [p.page, b.role, b.level ?? null, b.text]));
  t.same(summary(pagesOf(parseLines(records))), summary(await paperPages()));
});

const twoLineTitle = join(sharedRoot, 'corpus/gt/fr-lo-fodt-2col.pdf');
t.test('a title set on two centred lines is one paragraph, in the text and in the body-only selection', { skip: existsSync(twoLineTitle) ? false : `${twoLineTitle} is not available (no ../shared corpus)` }, async (t) => {
  const pdf = twoLineTitle;
  for (const extra of [[], ['--body-only']]) {
    const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', ...extra, pdf]);
    t.equal(code, 0);
    t.equal(stdout.split('\n\n')[0], 'Déclaration universelle des droits de l’homme', `the title whole ${extra.join(' ')}`);
  }
  const ndjson = await run(['extract', '--quiet', '--format', 'ndjson', pdf]);
  const titles = parseLines(ndjson.stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : [])).filter((b) => b.role === 'title');
  t.same(titles.map((b) => [b.continues, b.joinRule ?? null]), [[false, null], [true, 'title']], 'its second block runs on from the first');
});

t.test('the text after a display formula goes on with its paragraph when it starts in lower case', async (t) => {
  // A pdfLaTeX page (test/fixtures/tables/build.sh): "…leaves it through its far face: [formula]
  // where the constant of diffusion…" is one paragraph, as the reader reads it.
  const pdf = join(repoRoot, 'test/fixtures/tables/math-two-column.pdf');
  const { stdout } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  const paragraph = stdout.split('\n\n').find((p) => p.includes('where the constant of diffusion'));
  t.ok(paragraph?.includes('what leaves it through its far face'), 'the text before the formula, the formula and the text after it: one paragraph');
  t.ok(stdout.split('\n\n').some((p) => p.startsWith('Such a simple answer')), 'a capital after a formula still starts a paragraph');
  const body = await run(['extract', '--quiet', '--blank-lines', '--body-only', pdf]);
  t.ok(body.stdout.split('\n\n').some((p) => p.startsWith('where the constant of diffusion')), 'with the formula left out, the text after it stands alone');
});

const leftColumnNote = join(sharedRoot, 'corpus/gt/es-pdflatex-2col.pdf');
t.test('a note at the foot of a two-column page\'s left column is a footnote, after the page\'s body', { skip: existsSync(leftColumnNote) ? false : `${leftColumnNote} is not available (no ../shared corpus)` }, async (t) => {
  const ndjson = await run(['extract', '--quiet', '--format', 'ndjson', leftColumnNote]);
  const blocks = parseLines(ndjson.stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : []));
  // The note is the truth's paragraph that stands after the first page's body.
  const truth = readFileSync(leftColumnNote.replace(/\.pdf$/u, '.txt'), 'utf8').trim().split('\n\n');
  const note = blocks.find((b) => b.role === 'footnote');
  t.ok(note, 'a footnote on the first page');
  const { stdout } = await run(['extract', '--quiet', '--blank-lines', leftColumnNote]);
  const paragraphs = stdout.trim().split('\n\n');
  const at = paragraphs.indexOf(note!.text);
  t.ok(at > 0, 'the note is a paragraph of the text');
  t.equal(at, truth.indexOf(note!.text), 'where the truth has it: after the body of its page');
});

const twoParagraphAbstract = join(sharedRoot, 'corpus/arxiv/astro-ph0501540.pdf');
t.test('an abstract set apart from the body keeps its second paragraph; a classification line after it is no part of it', { skip: existsSync(twoParagraphAbstract) ? false : `${twoParagraphAbstract} is not available (no ../shared corpus)` }, async (t) => {
  const blocks = async (pdf: string) => parseLines((await run(['extract', '--quiet', '--format', 'ndjson', pdf])).stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : []));
  const astro = await blocks(twoParagraphAbstract);
  t.equal(astro.find((b) => b.text.startsWith('In this proceedings we will present'))?.role, 'abstract');
  const math = await blocks(join(sharedRoot, 'corpus/arxiv/math0001060.pdf'));
  t.not(math.find((b) => b.text.startsWith('MSC (1991)'))?.role, 'abstract');
});
