/**
 * Roles from a tagged PDF's structure tree (lib/regions/tags.ts). samples/tagged.pdf sets its
 * headings, its figure caption and its notes in the body's face and size, so that geometry alone
 * cannot tell them from paragraphs; its truth (samples/tagged.roles.json) gives the role of every
 * paragraph. The same records with every `tag` deleted before `roles` show what geometry alone
 * makes of them. An untagged PDF gets no `tag` anywhere.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLines, repoRoot, run, samplePdf, samplesDir, sharedRoot } from '../../helpers.js';
import type { Block, DocRecord, PageRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { rolesOfDocument } from '../../../lib/regions/roles.js';
import { majorityTag, roleOfTag } from '../../../lib/regions/tags.js';
import { tagBelow, pdfjsTags } from '../../../lib/engines/structure.js';
import { DEFAULTS } from '../../../stages/roles.js';

interface Truth {
  role: string;
  level?: number;
  text: string;
}
const truth = JSON.parse(readFileSync(join(samplesDir, 'tagged.roles.json'), 'utf8')) as Truth[];
const collapse = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** The records of a PDF after `join`, the stage before `roles`. */
async function beforeRoles(pdf: string, engine: string): Promise<{ doc: DocRecord; pages: PageRecord[] }> {
  let input = (await run(['parse', '--quiet', '--engine', engine, pdf])).stdout;
  for (const stage of ['order', 'lines', 'bidi', 'repair', 'resegment', 'paragraphs', 'join']) input = (await run([stage], input)).stdout;
  const records = parseLines(input);
  return { doc: records.find((r): r is DocRecord => r.type === 'doc')!, pages: records.filter((r): r is PageRecord => r.type === 'page') };
}

function roled(doc: DocRecord, pages: PageRecord[]): Block[] {
  const group = { doc, pages, diagnostics: [], outcome: { type: 'end' as const, doc: doc.id, stats: { pages: pages.length, items: 0, chars: 0, ms: 0 } } };
  return rolesOfDocument(group, DEFAULTS).pages.flatMap((p) => p.blocks ?? []);
}

/** Each truth paragraph's block: the one with its text, else the shortest holding it (a column of table cells the layout kept together). */
function blockOf(entry: Truth, blocks: readonly Block[]): Block | undefined {
  const holding = blocks.filter((b) => collapse(b.text).includes(entry.text)).sort((a, b) => a.text.length - b.text.length);
  return blocks.find((b) => collapse(b.text) === entry.text) ?? holding[0];
}

function accuracy(blocks: readonly Block[], roles: readonly string[]): { right: number; all: number; wrong: string[] } {
  const entries = truth.filter((e) => roles.includes(e.role));
  const wrong = entries.filter((e) => {
    const block = blockOf(e, blocks);
    return !block || block.role !== e.role || (e.level !== undefined && block.level !== e.level);
  });
  return { right: entries.length - wrong.length, all: entries.length, wrong: wrong.map((e) => `${e.role}: ${e.text}`) };
}

for (const engine of ['pdfium', 'pdfjs']) {
  t.test(`tagged.pdf (${engine}): the tags decide what geometry could not`, async (t) => {
    const { doc, pages } = await beforeRoles(samplePdf('tagged'), engine);
    t.ok(pages.every((p) => (p.items ?? []).every((i) => i.tag !== undefined)), 'every run has a tag');
    const tagged = roled(doc, structuredClone(pages));
    const every = accuracy(tagged, ['title', 'heading', 'body', 'caption', 'table', 'list-item', 'footnote']);
    t.same(every.wrong, [], `all ${every.all} paragraphs take their role from the tags`);

    const stripped = structuredClone(pages);
    for (const page of stripped) for (const block of page.blocks ?? []) delete block.tag;
    const geometry = roled(doc, stripped);
    for (const role of ['heading', 'caption', 'footnote']) {
      const withTags = accuracy(tagged, [role]);
      const without = accuracy(geometry, [role]);
      t.equal(withTags.right / withTags.all, 1, `${role}: accuracy 1.0 from the tags`);
      t.ok(without.right < without.all, `${role}: geometry alone gets ${without.right} of ${without.all}`);
    }
  });
}

t.test('an untagged PDF has no tag anywhere in its records', async (t) => {
  const gt = join(sharedRoot, 'corpus/gt/de-groff-pdf.pdf');
  if (!existsSync(gt)) {
    t.comment(`${gt} is not available (no ../shared corpus)`);
    return;
  }
  for (const engine of ['pdfium', 'pdfjs']) {
    const { stdout } = await run(['extract', '--quiet', '--engine', engine, '--format', 'ndjson', gt]);
    const records: PipeRecord[] = parseLines(stdout);
    t.ok(records.some((r) => r.type === 'page'), `${engine}: pages were read`);
    t.notOk(stdout.includes('"tag"'), `${engine}: no tag field`);
  }
});

t.test('the tag chosen down a structure path', async (t) => {
  const down = (...types: string[]): string | undefined => types.reduce<string | undefined>((above, type) => tagBelow(above, type), undefined);
  t.equal(down('Document', 'Table', 'TR', 'TD', 'P', 'Span'), 'TD', 'a paragraph in a cell is the cell');
  t.equal(down('Document', 'L', 'LI', 'LBody', 'P'), 'LI', 'a paragraph in a list item is the item');
  t.equal(down('Document', 'Sect', 'P', 'Link'), 'P', 'a link in a paragraph is the paragraph');
  t.equal(down('Document', 'H1', 'NonStruct'), 'H1', "Chromium's wrapper inside a heading");
  t.equal(down('Document', 'Div', 'NonStruct'), 'NonStruct', 'only wrappers: the innermost');
  t.equal(down('Document', 'Figure', 'Caption', 'NonStruct'), 'Caption', 'the innermost deciding element');
  const tree = { role: 'Root', children: [{ role: 'Document', children: [{ role: 'H2', children: [{ role: 'NonStruct', children: [{ type: 'content', id: 'p2R_mc3' }] }] }] }] };
  t.same([...pdfjsTags(tree)], [['p2R_mc3', 'H2']], "pdf.js's tree: marked-content id → tag");
});

t.test('what a tag says', async (t) => {
  t.same(roleOfTag('H3'), { role: 'heading', level: 3 });
  t.same(roleOfTag('H'), { role: 'heading' });
  t.same(roleOfTag('Caption'), { role: 'caption' });
  t.same(roleOfTag('TD'), { role: 'table' });
  t.same(roleOfTag('Note'), { role: 'footnote' });
  t.same(roleOfTag('BibEntry'), { role: 'reference' });
  t.equal(roleOfTag('Reference'), null, 'a citation in the text decides nothing');
  t.equal(roleOfTag('NonStruct'), null);
  t.equal(roleOfTag(undefined), null);
  t.equal(majorityTag([{ tag: 'Lbl', text: '1.' }, { tag: 'LI', text: 'Mark the squares' }, { text: 'untagged text here, longer' }]), 'LI', 'by characters, among the tagged');
  t.equal(majorityTag([{ text: 'x' }]), undefined);
});

/** The blocks of a PDF, with their roles, levels and tags. */
async function blocksOf(pdf: string): Promise<Block[]> {
  const { stdout } = await run(['extract', '--quiet', '--format', 'ndjson', pdf]);
  return parseLines(stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : [])) as Block[];
}

t.test("Writer's tagged export: headings and a note in the body's face and size, told by their tags", async (t) => {
  // test/fixtures/tagged/build.sh: LibreOffice Writer, UseTaggedPDF; Heading 1 and 2 and the
  // footnote set like the body text.
  const blocks = await blocksOf(join(repoRoot, 'test/fixtures/tagged/writer.pdf'));
  const said = (text: string): unknown => {
    const b = blocks.find((x) => x.text.includes(text));
    return b && [b.role, b.level ?? null, b.tag];
  };
  t.same(said('The orchard in spring'), ['title', null, 'H1'], 'the lone H1 that opens the document is its title');
  t.same(said('Pruning'), ['heading', 1, 'H2']);
  t.same(said('Grafting'), ['heading', 1, 'H2']);
  t.same(said('Counted on three mornings'), ['footnote', null, 'Note']);
  t.ok(blocks.every((b) => b.tag !== undefined), 'every block carries its tag');
});

t.test("LaTeX's tagging (LuaLaTeX) tags section headings as P: a paragraph tag does not outweigh a numbered heading", async (t) => {
  // test/fixtures/tagged/build.sh: \DocumentMetadata{testphase=phase-II} as TeX Live 2022 has it.
  const blocks = await blocksOf(join(repoRoot, 'test/fixtures/tagged/lualatex.pdf'));
  const said = (text: string): unknown => {
    const b = blocks.find((x) => x.text.includes(text));
    return b && [b.role, b.level ?? null, b.tag];
  };
  t.same(said('1.1 Pruning'), ['heading', 2, 'P'], 'the heading that geometry finds, though tagged P');
  t.same(said('1.2 Grafting'), ['heading', 2, 'P']);
  t.same(said('Counted on three mornings'), ['footnote', null, 'Note'], 'the note from its tag');
  t.same(said('Pruning waits'), ['body', null, 'P']);
});
