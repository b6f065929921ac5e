/**
 * lib/formats/structure.ts on hand-built records: metadata from the Info dictionary or the first page,
 * sections from the outline or from headings, nesting, roles, each paragraph's language and the bad
 * inputs the structure must survive.
 */
import t from 'tap';
import { documentStructure, type Section } from '../../../lib/formats/structure.js';
import type { Block, DocRecord, OutlineEntry, PageRecord } from '../../../lib/protocol/records.js';
import { block, docRecord, pageRecord } from '../../helpers.js';

/** A block at a vertical position, in a size (the helpers' block is always at y 72). */
function at(text: string, y: number, size: number, extra: Partial<Block> = {}): Block {
  return block(text, { box: { x: 72, y, w: 400, h: size * 1.2 * (extra.lines ?? 1) }, size, ...extra });
}

const LONG =
  'Ferries leave the northern pier every hour, and the timetable changes twice a year when the tides shift. Passengers who miss the last boat wait in the shelter by the ticket office until morning.';

/** A small article: title, two authors, an affiliation, an abstract, numbered sections. */
function article(): PageRecord[] {
  return [
    pageRecord('a', 1, {
      blocks: [
        at('Tidal Schedules of Island Ferries', 80, 18, { role: 'heading' }),
        at('Maria Lind and Otto Berg', 110, 11),
        at('Department of Harbours, University of Nowhere', 125, 9),
        at('maria.lind@example.org', 138, 9),
        at('Abstract', 160, 10),
        at('We study when ferries leave and why the timetable moves with the tides of the season.', 175, 9, { lines: 2 }),
        at('1 Introduction', 220, 13, { role: 'heading' }),
        at(LONG, 240, 10, { lines: 5 }),
        at('1.1 Earlier timetables', 320, 11),
        at('Before the pier was rebuilt, boats left from the harbour steps at low water only.', 340, 10, { lines: 2 }),
        at('3', 800, 9, { role: 'page-number' }),
      ],
    }),
    pageRecord('a', 2, {
      blocks: [
        at('and the pier was closed for three winters while divers checked the pillars.', 72, 10, { continues: true, lines: 2 }),
        at('2 Tides', 120, 13, { role: 'heading' }),
        at('Spring tides lift the boats above the quay at noon, so loading waits for the ebb.', 140, 10, { lines: 2 }),
        at('References', 300, 13, { role: 'heading' }),
        at('[1] A. Author, Harbour Notes, 1999.', 320, 9),
      ],
    }),
  ];
}

const titles = (sections: readonly Section[]): unknown[] =>
  sections.map((s) => (s.sections.length > 0 ? [s.title, titles(s.sections)] : s.title));

t.test('metadata from the first page when the Info dictionary has no title', async (t) => {
  const s = documentStructure(docRecord('a', 2), article());
  t.equal(s.metaFrom, 'layout');
  t.equal(s.meta.title, 'Tidal Schedules of Island Ferries');
  t.same(s.meta.authors, ['Maria Lind', 'Otto Berg']);
  t.same(s.meta.affiliations, ['Department of Harbours, University of Nowhere']);
  t.same(s.meta.emails, ['maria.lind@example.org']);
  t.equal(s.meta.abstract, 'We study when ferries leave and why the timetable moves with the tides of the season.');
  t.equal(s.info.title, null, 'the Info source is kept, empty');
  t.ok(s.diagnostics.some((d) => d.code === 'title-from-layout'), 'says the title was guessed from the layout');
  t.same(
    s.front.map((p) => p.role),
    ['title', 'author', 'affiliation', 'email', 'abstract', 'abstract'],
    'the front matter blocks carry what they were taken for',
  );
});

t.test('a plausible Info title is used, and both sources are kept', async (t) => {
  const doc: DocRecord = { ...docRecord('a', 2), meta: { ...docRecord('a', 2).meta, info: { Title: 'Island Ferries: Tidal Schedules', Author: 'M. Lind; O. Berg' } } };
  const s = documentStructure(doc, article());
  t.equal(s.metaFrom, 'info');
  t.equal(s.meta.title, 'Island Ferries: Tidal Schedules');
  t.same(s.meta.authors, ['M. Lind', 'O. Berg']);
  t.equal(s.layout.title, 'Tidal Schedules of Island Ferries');
  t.same(s.meta.affiliations, ['Department of Harbours, University of Nowhere'], 'the page fills what Info lacks');
});

t.test('a junk Info title gives way to the title on the page', async (t) => {
  const doc: DocRecord = { ...docRecord('a', 2), meta: { ...docRecord('a', 2).meta, info: { Title: 'Microsoft Word - doc1.docx' } } };
  const s = documentStructure(doc, article());
  t.equal(s.metaFrom, 'layout');
  t.equal(s.meta.title, 'Tidal Schedules of Island Ferries');
  t.match(s.diagnostics.find((d) => d.code === 'title-from-layout')?.message, /Info dictionary's was not used because it looks like a file or program name, the XMP metadata's because it has no title/);
});

t.test('the XMP title is used when the Info title is junk', async (t) => {
  const base = docRecord('a', 2);
  const doc: DocRecord = {
    ...base,
    meta: { ...base.meta, info: { Title: 'untitled' }, xmp: { 'dc:title': 'Island Ferries', 'dc:creator': 'Maria Lind; Otto Berg', 'pdf:keywords': 'ferries, tides' } },
  };
  const s = documentStructure(doc, article());
  t.equal(s.metaFrom, 'xmp');
  t.equal(s.meta.title, 'Island Ferries');
  t.same(s.meta.authors, ['Maria Lind', 'Otto Berg']);
  t.same(s.meta.keywords, ['ferries', 'tides']);
  t.equal(s.info.title, null);
  t.equal(s.layout.title, 'Tidal Schedules of Island Ferries', 'all three sources are kept');
});

t.test('sections from headings: numbering gives depth, paragraphs nest, page furniture keeps its role', async (t) => {
  const s = documentStructure(docRecord('a', 2), article());
  t.equal(s.sectionsFrom, 'layout');
  t.same(titles(s.sections), [['1 Introduction', ['1.1 Earlier timetables']], '2 Tides', 'References']);
  const intro = s.sections[0]!;
  t.equal(intro.number, '1');
  t.equal(intro.heading?.id, 'page1p7', 'the heading keeps its block id');
  t.same(intro.paragraphs.map((p) => p.id), ['page1p8']);
  const earlier = intro.sections[0]!;
  t.equal(earlier.level, 2);
  t.same(earlier.paragraphs.map((p) => [p.id, p.role, p.continues]), [
    ['page1p10', 'body', false],
    ['page1p11', 'page-number', false],
    ['page2p1', 'body', true],
  ]);
  t.same(s.sections[1]!.paragraphs.map((p) => p.id), ['page2p3']);
});

t.test('sections from the outline: depth is nesting, titles find their blocks, missing pages are reported', async (t) => {
  const outline: OutlineEntry[] = [
    {
      title: 'Introduction',
      page: 1,
      children: [{ title: 'Earlier timetables', page: 1, children: [] }],
    },
    { title: 'Nowhere', page: 9, children: [] },
    { title: 'Tides', page: 2, children: [] },
    { title: 'Appendix without a heading', page: 2, children: [] },
  ];
  const doc: DocRecord = { ...docRecord('a', 2), meta: { ...docRecord('a', 2).meta, outline } };
  const s = documentStructure(doc, article());
  t.equal(s.sectionsFrom, 'outline');
  t.same(titles(s.sections), [['Introduction', ['Earlier timetables']], 'Tides', 'Appendix without a heading']);
  t.equal(s.sections[0]!.heading?.id, 'page1p7', '"Introduction" matched "1 Introduction"');
  t.equal(s.sections[0]!.sections[0]!.heading?.id, 'page1p9');
  t.equal(s.sections[1]!.heading?.id, 'page2p2');
  t.equal(s.sections[2]!.heading, null, 'no block matches: the section starts without a heading block');
  t.ok(s.diagnostics.some((d) => d.code === 'outline-bad-entry' && d.count === 1));
});

t.test('an outline that loops or points backwards does not hang or lose blocks', async (t) => {
  const loop: OutlineEntry = { title: 'Tides', page: 2, children: [] };
  loop.children.push(loop);
  const outline: OutlineEntry[] = [loop, { title: 'Introduction', page: 1, children: [] }];
  const doc: DocRecord = { ...docRecord('a', 2), meta: { ...docRecord('a', 2).meta, outline } };
  const s = documentStructure(doc, article());
  const count = (sections: readonly Section[]): number =>
    sections.reduce((n, x) => n + x.paragraphs.length + (x.heading ? 1 : 0) + count(x.sections), 0);
  t.equal(s.front.length + count(s.sections), article().reduce((n, p) => n + (p.blocks?.length ?? 0), 0), 'every block is somewhere');
  t.ok(s.diagnostics.some((d) => d.code === 'outline-out-of-order'));
});

t.test('a first page without text and a document without blocks', async (t) => {
  const pages = [pageRecord('e', 1, { blocks: [] }), ...article().map((p) => ({ ...p, page: p.page + 1 }))];
  const s = documentStructure(docRecord('e', 3), pages);
  t.equal(s.meta.title, 'Tidal Schedules of Island Ferries');
  t.ok(s.diagnostics.some((d) => d.code === 'no-text-on-first-page'));
  const empty = documentStructure(docRecord('n', 1), [pageRecord('n', 1, { blocks: [] })]);
  t.equal(empty.meta.title, null);
  t.equal(empty.sectionsFrom, 'none');
  t.ok(empty.diagnostics.some((d) => d.code === 'no-title'));
});

t.test('a heading broken over two blocks, and headings run into their paragraph', async (t) => {
  const pages = [
    pageRecord('h', 1, {
      blocks: [
        at('A Title', 60, 18),
        at('2 Characterization of special Lagrangian sub-', 100, 14, { font: 'B' }),
        at('manifolds', 117, 14, { font: 'B' }),
        at(LONG, 140, 10, { lines: 5 }),
        at('2.2. Adams operations. There are some useful operations inside a ring, the so-called Adams operations.', 240, 10, { lines: 2 }),
        at('IV. GROUND STATE We now minimize the energy with respect to the magnetization of the sample.', 300, 10, { lines: 2 }),
      ],
    }),
  ];
  const s = documentStructure(docRecord('h', 1), pages);
  t.same(titles(s.sections), [['2 Characterization of special Lagrangian submanifolds', ['2.2. Adams operations']], 'IV. GROUND STATE']);
  t.same(s.sections[0]!.more, ['page1p3'], 'the second block of the heading is named');
  const adams = s.sections[0]!.sections[0]!;
  t.equal(adams.heading, null);
  t.same(adams.paragraphs.map((p) => [p.id, p.text.slice(0, 15)]), [['page1p5', 'There are some ']], 'the paragraph keeps its id, without the heading');
});

t.test('lang per paragraph: the block\'s own, else the document\'s, else none', async (t) => {
  const doc: DocRecord = { ...docRecord('l', 1), meta: { ...docRecord('l', 1).meta, lang: 'de-DE' } };
  const pages = [pageRecord('l', 1, { blocks: [at('Titel des Textes', 60, 18), { ...at(LONG, 100, 10, { lines: 5 }), lang: 'en' } as Block, at('Ein Absatz auf Deutsch.', 200, 10)] })];
  const s = documentStructure(doc, pages);
  t.same(s.front.map((p) => p.lang), ['de-DE', 'en', 'de-DE']);
  const none = documentStructure(docRecord('l', 1), pages);
  t.same(none.front.map((p) => p.lang), [null, 'en', null]);
});

t.test('an outline title set over two blocks takes both as its heading', async (t) => {
  const outline: OutlineEntry[] = [{ title: 'Island Ferries and Their Tides', page: 1, children: [] }];
  const doc: DocRecord = { ...docRecord('o', 1), meta: { ...docRecord('o', 1).meta, outline } };
  const pages = [pageRecord('o', 1, { blocks: [at('Island Ferries and', 60, 18), at('Their Tides', 80, 18), at(LONG, 120, 10, { lines: 5 })] })];
  const s = documentStructure(doc, pages);
  t.equal(s.sections[0]!.heading?.id, 'page1p1');
  t.same(s.sections[0]!.more, ['page1p2']);
  t.same(s.sections[0]!.paragraphs.map((p) => p.id), ['page1p3']);
});

t.test('a two-character CJK heading, also when a glyph maps to a Kangxi radical', async (t) => {
  const pages = [pageRecord('z', 1, { blocks: [at('世界宣言', 60, 18), at('序⾔', 100, 13), at('这只是少数退休老人打发时间的爱好，如今却吸引了许多年轻人。', 130, 10, { lines: 3 })] })];
  const s = documentStructure(docRecord('z', 1), pages);
  t.same(titles(s.sections), ['序⾔']);
});

t.test('headings in the body size, set in a font of their own', async (t) => {
  const para = (y: number): Block => at(LONG, y, 10, { lines: 5, font: 'Regular' });
  const pages = [
    pageRecord('f', 1, {
      blocks: [at('Harbour Rules', 60, 16), at('Mooring', 100, 10, { font: 'Bold' }), para(120), at('Loading', 200, 10, { font: 'Bold' }), para(220), at('Italic aside here', 300, 10, { font: 'Italic' }), para(320)],
    }),
  ];
  const s = documentStructure(docRecord('f', 1), pages);
  t.same(titles(s.sections), ['Mooring', 'Loading'], 'one short line in another font is not enough');
});
