/**
 * serialize --format html: PDFExtract's alignment HTML. Structure compared field by field with
 * the example in PDFExtract's README, escaping, runs across pages cut at sentence boundaries,
 * the error form, and every ground-truth document well-formed under a real XML parser.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { documentHtml } from '../lib/formats/html.js';
import { sentences } from '../lib/sentences.js';
import { documentText } from '../stages/serialize.js';
import type { DocRecord } from '../lib/records.js';
import { block, docRecord, endRecord, pageRecord, run, samplePdf, sharedRoot } from './helpers.js';

const options = { keepbrtags: false, getperms: false, keepFurniture: false };

function doc(): DocRecord {
  return { ...docRecord('h', 2), lang: 'en', languages: [{ lang: 'en', percent: 97.5, blocks: 3 }, { lang: 'fr', percent: 2.5, blocks: 1 }] };
}

const pages = [
  pageRecord('h', 1, {
    blocks: [block('Harbour <Notes> & "Tides"', { role: 'heading', font: 'Serif&Bold', lang: 'en' }), block('Dr. Reed counted the boats. The tide turned at noon and the', { lang: 'en' })],
  }),
  pageRecord('h', 2, { blocks: [block('market closed. Gulls stayed.', { lang: 'en', continues: true }), block('Le port dort.', { lang: 'fr' })] }),
];

t.test('the structure of PDFExtract\'s README example, field by field', async (t) => {
  const html = documentHtml(doc(), pages, endRecord('h', 2), options);
  t.equal(XMLValidator.validate(html), true);
  const tree = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['div', 'p', 'language'].includes(name) }).parse(html);
  const head = tree.html.head;
  t.equal(head.defaultLang['@abbr'], 'en');
  t.same(head.languages.language.map((l: Record<string, string>) => [l['@abbr'], l['@percent']]), [['en', '97.5'], ['fr', '2.5']]);
  const divs = tree.html.body.div;
  t.same(divs.map((d: Record<string, string>) => [d['@id'], d['@class']]), [['page1', 'page'], ['page2', 'page']]);
  const p = divs[0].p;
  t.same(p.map((x: Record<string, string>) => [x['@id'], x['@lang'], x['@fontname']]), [['page1p1', 'en', 'Serif&Bold'], ['page1p2', 'en', 'F1']]);
  t.equal(p[0]['#text'], 'Harbour <Notes> & "Tides"', 'text is escaped and comes back intact');
  t.match(html, /<p id="page1p2" lang="en" fontname="F1">\nDr\. Reed counted the boats\.\nThe tide turned at noon and the market closed\.\n<\/p>/, 'one sentence per line; the sentence cut by the page break is whole, in the paragraph it starts in');
  t.same(divs[1].p.map((x: Record<string, string>) => [x['@id'], x['#text']]), [['page2p1', 'Gulls stayed.'], ['page2p2', 'Le port dort.']]);
  t.match(documentHtml(doc(), pages, endRecord('h', 2), { ...options, keepbrtags: true }), /Dr\. Reed counted the boats\.<br \/>\n/);
  const perms = documentHtml(doc(), pages, endRecord('h', 2), { ...options, getperms: true });
  t.match(perms, /<permission isencrypted="false">\n<canassemply>true<\/canassemply>\n<cancopy>true<\/cancopy>/);
});

t.test('language spans and the error form', async (t) => {
  const text = 'يعمل نظام Linux على الخوادم.';
  const start = text.indexOf('Linux');
  const html = documentHtml(doc(), [pageRecord('h', 1, { blocks: [block(text, { lang: 'ar', spans: [{ start, end: start + 5, lang: 'en' }] })] })], endRecord('h'), options);
  t.match(html, /نظام <span lang="en">Linux<\/span> على/);
  const failed = documentHtml(null, [], { type: 'error', doc: 'h', code: 'corrupt', message: 'bad xref ]]> <here>', stage: 'parse' }, options);
  t.equal(XMLValidator.validate(failed), true);
  t.match(failed, /^<html>\n<error>\n<code>corrupt<\/code>\n<message>\n<!\[CDATA\[/);
});

t.test('sentences: abbreviations and initials do not end a sentence', async (t) => {
  t.same(sentences('Dr. Reed met J. Smith at noon. They sailed e.g. to the cape. Done!', 'en'), ['Dr. Reed met J. Smith at noon.', 'They sailed e.g. to the cape.', 'Done!']);
  t.same(sentences('Es gibt z. B. Fisch. Dann Brot.', 'de'), ['Es gibt z. B. Fisch.', 'Dann Brot.']);
  t.equal(documentText(pages, { sentences: true }), 'Harbour <Notes> & "Tides"\nDr. Reed counted the boats.\nThe tide turned at noon and the market closed.\nGulls stayed.\nLe port dort.\n');
});

t.test('a real PDF through extract --format html', async (t) => {
  const result = await run(['extract', '--format', 'html', samplePdf('one-column')]);
  t.equal(result.code, 0, result.stderr);
  t.equal(XMLValidator.validate(result.stdout), true);
  t.match(result.stdout, /<defaultLang abbr="en" \/>/);
  t.match(result.stdout, /<p id="page1p1" lang="en" fontname="[^"]+">/);
});

const gt = join(sharedRoot, 'corpus/gt');

t.test('ground truth: the HTML of every document parses as XML', { skip: existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`, timeout: 600_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-html-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--format', 'html', '--out-dir', dir, gt]);
  t.equal(result.code, 0, result.stderr);
  const pdfs = readdirSync(gt).filter((f) => f.endsWith('.pdf'));
  for (const pdf of pdfs) {
    const html = readFileSync(join(dir, pdf.replace(/\.pdf$/, '.html')), 'utf8');
    t.equal(XMLValidator.validate(html), true, `${pdf}: well-formed`);
    t.match(html, /<div id="page1" class="page">\n<p id="page1p1" lang="[a-z]{2,3}" fontname="/, `${pdf}: page and paragraph structure`);
  }
});
