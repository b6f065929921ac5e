/**
 * serialize on hand-built blocks: --out-dir writing one file per document (empty for a failure).
 * The text itself is tested in test/lib/formats/text.test.ts. Choosing blocks by role (--roles,
 * --body-only) on hand-built blocks and on samples, checked against their NDJSON's roles.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block, PageRecord } from '../../lib/protocol/records.js';
import { block, collapse, docRecord, endRecord, pageRecord, parseLines, run, samplePdf, surveyPages, toNdjson } from '../helpers.js';

t.test('--out-dir writes NAME.txt per document, and an empty file for a failed one', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'pdfpipe-out-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const out = join(parent, 'out');
  const input = toNdjson([
    docRecord('good'),
    ...surveyPages().map((p) => ({ ...p, doc: 'good' })),
    endRecord('good', 2),
    docRecord('nested/inner'),
    pageRecord('nested/inner', 1, { blocks: [block('Inside a folder.')] }),
    endRecord('nested/inner'),
    docRecord('broken'),
    { type: 'error', doc: 'broken', code: 'corrupt', message: 'The PDF structure is invalid', stage: 'parse' },
    docRecord('../escape'),
    pageRecord('../escape', 1, { blocks: [block('Stays inside.')] }),
    endRecord('../escape'),
  ]);
  const result = await run(['serialize', '--out-dir', out], input);
  t.equal(result.code, 0, 'completed: exit 0, the failure is in its outcome record');
  t.equal(result.stdout, '', 'nothing on stdout');
  t.match(result.stderr, /broken: corrupt/, 'the failure is reported on stderr');
  t.equal(readFileSync(join(out, 'good.txt'), 'utf8'), 'Spring Survey\nThe first paragraph.\nThe second paragraph, with odd whitespace.\n1 Counted twice.\n');
  t.equal(readFileSync(join(out, 'nested/inner.txt'), 'utf8'), 'Inside a folder.\n');
  t.equal(readFileSync(join(out, 'broken.txt'), 'utf8'), '', 'an empty file for the failed document');
  t.notOk(existsSync(join(parent, 'escape.txt')), 'an id with ../ does not escape the folder');
  t.same(readdirSync(parent), ['out']);
});

/** A body paragraph cut by a caption, running on across it and a page break. */
function interrupted(): string {
  return toNdjson([
    docRecord('c', 2),
    pageRecord('c', 1, {
      blocks: [
        block('Counting at Dusk', { role: 'heading' }),
        block('The cranes came in low over the reeds. Most of the flock'),
        block('Figure 2. The roost at dusk.', { role: 'caption' }),
      ],
    }),
    pageRecord('c', 2, { blocks: [block('settled before dark. Counting began.', { continues: true, joinRule: 'pdf2xml' })] }),
    endRecord('c', 2),
  ]);
}

t.test('--body-only joins the halves of a paragraph across the caption left out, in text and HTML', async (t) => {
  const text = await run(['serialize', '--body-only'], interrupted());
  t.equal(text.code, 0, text.stderr);
  t.equal(text.stdout, 'Counting at Dusk\nThe cranes came in low over the reeds. Most of the flock settled before dark. Counting began.\n');
  const all = await run(['serialize'], interrupted());
  t.equal(all.stdout, 'Counting at Dusk\nThe cranes came in low over the reeds. Most of the flock settled before dark. Counting began.\nFigure 2. The roost at dusk.\n', 'by default the caption is written after the paragraph it interrupts');
  const html = await run(['serialize', '--format', 'html', '--body-only'], interrupted());
  t.equal(html.code, 0, html.stderr);
  t.notMatch(html.stdout, /Figure 2/);
  t.match(html.stdout, /data-role="body">\nThe cranes came in low over the reeds\.\nMost of the flock settled before dark\.\n<\/p>\n<\/div>/, 'the sentence cut by the caption and the page is whole');
  t.match(html.stdout, /<div id="page2" class="page">\n<p id="page2p1" lang="und" fontname="F1" data-role="body">\nCounting began\.\n<\/p>/);
});

t.test('an unknown role is a usage error (exit 2) that lists the valid names', async (t) => {
  for (const args of [['serialize', '--roles', 'heading,bogus'], ['extract', '--roles', 'bogus', samplePdf('one-column')]]) {
    const result = await run(args, interrupted());
    t.equal(result.code, 2, args.join(' '));
    t.equal(result.stdout, '');
    t.match(result.stderr, /Unknown role "bogus" in --roles; roles: title, front-matter, .*, other; sets: body-only, all/);
  }
});

/** A sample's records as `extract --format ndjson` writes them, and its pages. */
async function records(name: string): Promise<{ ndjson: string; pages: PageRecord[] }> {
  const result = await run(['extract', '--quiet', '--format', 'ndjson', samplePdf(name)]);
  if (result.code !== 0) throw new Error(result.stderr);
  return { ndjson: result.stdout, pages: parseLines(result.stdout).filter((r): r is PageRecord => r.type === 'page') };
}

/** The non-empty blocks of pages whose role passes `keep`, texts collapsed. */
const blockTexts = (pages: readonly PageRecord[], keep: (block: Block) => boolean): string[] =>
  pages.flatMap((p) => p.blocks ?? []).filter((b) => keep(b) && collapse(b.text) !== '').map((b) => collapse(b.text));

t.test('samples/running-header: --roles title,heading writes exactly the title and headings; --body-only no furniture; base64 the same text', async (t) => {
  const { ndjson, pages } = await records('running-header');
  const headings = blockTexts(pages, (b) => b.role === 'heading' || b.role === 'title');
  t.ok(headings.length >= 2, `${headings.length} title and headings`);
  const heading = await run(['serialize', '--roles', 'title,heading'], ndjson);
  t.equal(heading.code, 0, heading.stderr);
  t.equal(heading.stdout, headings.join('\n') + '\n');
  const base64 = await run(['serialize', '--format', 'base64', '--roles', 'title,heading'], ndjson);
  t.equal(base64.stdout.split('\n').length, 2, 'one line for the document');
  t.equal(Buffer.from(base64.stdout.trim(), 'base64').toString('utf8'), heading.stdout);

  const furniture = blockTexts(pages, (b) => ['header', 'footer', 'page-number'].includes(b.role));
  t.ok(furniture.length >= 3, `${furniture.length} furniture blocks`);
  const body = await run(['serialize', '--body-only'], ndjson);
  for (const text of furniture) t.notOk(body.stdout.includes(text), `no "${text}"`);
  t.equal(body.stdout, (await run(['serialize'], ndjson)).stdout, 'here the default text is the body text');
  t.equal(collapse(body.stdout), collapse(blockTexts(pages, (b) => b.role !== 'header' && b.role !== 'page-number').join(' ')), 'every body word, a paragraph run on across the page joined');
  const headerOnly = await run(['serialize', '--roles', 'title,heading', '--keep-furniture'], ndjson);
  t.equal(headerOnly.stdout, blockTexts(pages, (b) => ['title', 'heading', 'header', 'footer', 'page-number'].includes(b.role)).join('\n') + '\n', '--keep-furniture adds the furniture to --roles');
  t.equal((await run(['serialize', '--roles', 'all'], ndjson)).stdout, (await run(['serialize', '--keep-furniture'], ndjson)).stdout, '--roles all is the default with the furniture');
});

t.test('samples/running-header: HTML has data-role on every paragraph, the role of its block', async (t) => {
  const { ndjson, pages } = await records('running-header');
  const result = await run(['serialize', '--format', 'html', '--roles', 'all'], ndjson);
  t.equal(result.code, 0, result.stderr);
  const divs = [...result.stdout.matchAll(/<div id="page(\d+)" class="page">\n([^]*?)<\/div>/gu)];
  t.equal(divs.length, pages.length);
  const seen = new Set<string>();
  for (const [, number, body] of divs) {
    const blocks = (pages[Number(number) - 1]?.blocks ?? []).filter((b) => b.text.trim() !== '');
    const paragraphs = [...body!.matchAll(/<p ([^>]*)>\n([^\n]*)/gu)];
    // A block that continues a paragraph has its own element only when a sentence starts in it.
    t.ok(paragraphs.length >= blocks.filter((b) => !b.continues).length, `page ${number}: a paragraph per block`);
    for (const [, attrs, first] of paragraphs) {
      const role = /^id="[^"]+" lang="[^"]+" fontname="[^"]+" data-role="([^"]+)"/u.exec(attrs!)?.[1];
      const head = first!.replace(/<[^>]+>/gu, '').replace(/&amp;/gu, '&').slice(0, 20);
      const block = blocks.find((b) => collapse(b.text).includes(head));
      t.equal(role, block?.role, `page ${number}: "${head}" is ${block?.role}`);
      seen.add(role ?? '');
    }
  }
  t.same([...seen].sort(), ['body', 'header', 'heading', 'page-number', 'title']);
  const body = await run(['serialize', '--format', 'html', '--body-only'], ndjson);
  t.same([...new Set([...body.stdout.matchAll(/data-role="([^"]+)"/gu)].map((m) => m[1]))].sort(), ['body', 'heading', 'title']);
});

t.test('samples/two-columns through extract: --body-only leaves the footnote out', async (t) => {
  const { pages } = await records('two-columns');
  const footnotes = blockTexts(pages, (b) => b.role === 'footnote');
  t.equal(footnotes.length, 1);
  const all = await run(['extract', '--quiet', samplePdf('two-columns')]);
  t.ok(all.stdout.endsWith(footnotes[0]! + '\n'), 'by default the footnote comes last');
  const body = await run(['extract', '--quiet', '--body-only', samplePdf('two-columns')]);
  t.equal(body.code, 0, body.stderr);
  t.equal(body.stdout, all.stdout.slice(0, -(footnotes[0]!.length + 1)), 'the same text without it');
});
