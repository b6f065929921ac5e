/**
 * serialize --format html: PDFExtract's alignment HTML. Structure compared field by field with
 * the example in PDFExtract's README, escaping, runs across pages cut at sentence boundaries,
 * the error form, `dir` on right-to-left paragraphs, and every ground-truth document well-formed
 * under a real XML parser.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { documentHtml, firstStrong } from '../../../lib/formats/html.js';
import { sentences } from '../../../lib/lang/sentences.js';
import { documentText } from '../../../lib/formats/text.js';
import type { DocRecord, Role } from '../../../lib/protocol/records.js';
import { block, docRecord, endRecord, pageRecord, run, samplePdf, sharedRoot } from '../../helpers.js';

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
  t.same(p.map((x: Record<string, string>) => x['@data-role']), ['heading', 'body'], 'each paragraph carries its role after PDFExtract\'s attributes');
  t.equal(p[0]['#text'], 'Harbour <Notes> & "Tides"', 'text is escaped and comes back intact');
  t.match(html, /<p id="page1p2" lang="en" fontname="F1" data-role="body">\nDr\. Reed counted the boats\.\nThe tide turned at noon and the market closed\.\n<\/p>/, 'one sentence per line; the sentence cut by the page break is whole, in the paragraph it starts in');
  t.same(divs[1].p.map((x: Record<string, string>) => [x['@id'], x['#text']]), [['page2p1', 'Gulls stayed.'], ['page2p2', 'Le port dort.']]);
  t.match(documentHtml(doc(), pages, endRecord('h', 2), { ...options, keepbrtags: true }), /Dr\. Reed counted the boats\.<br \/>\n/);
  const perms = documentHtml(doc(), pages, endRecord('h', 2), { ...options, getperms: true });
  t.match(perms, /<permission isencrypted="false">\n<canassemply>true<\/canassemply>\n<cancopy>true<\/cancopy>/);
});

t.test('data-role is escaped like every attribute', async (t) => {
  const odd = 'x"<&>' as Role;
  const html = documentHtml(doc(), [pageRecord('h', 1, { blocks: [block('Odd role.', { role: odd, lang: 'en' })] })], endRecord('h'), options);
  t.equal(XMLValidator.validate(html), true);
  t.match(html, /data-role="x&quot;&lt;&amp;&gt;"/);
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

t.test('direction: dir="rtl" on right-to-left paragraphs only, and on spans that run the other way', async (t) => {
  const hebrew = 'את המסלול תכננו בעזרת Google Maps אתמול.';
  const start = hebrew.indexOf('Google');
  const english = 'The word שלום means peace.';
  const at = english.indexOf('שלום');
  const html = documentHtml(doc(), [
    pageRecord('h', 1, {
      blocks: [
        block(hebrew, { lang: 'he', dir: 'rtl', spans: [{ start, end: start + 11, lang: 'en' }] }),
        block(english, { lang: 'en', spans: [{ start: at, end: at + 4, lang: 'he' }] }),
      ],
    }),
  ], endRecord('h'), options);
  t.equal(XMLValidator.validate(html), true);
  t.match(html, /<p id="page1p1" lang="he" fontname="F1" data-role="body" dir="rtl">\n/, 'dir after PDFExtract\'s attributes and the role');
  t.match(html, /<span lang="en" dir="ltr">Google Maps<\/span>/, 'an English name inside Hebrew is isolated left to right');
  t.match(html, /<p id="page1p2" lang="en" fontname="F1" data-role="body">\n/, 'a left-to-right paragraph has no dir');
  t.match(html, /<span lang="he" dir="rtl">שלום<\/span>/, 'a Hebrew word inside English runs right to left');
  t.equal(firstStrong('12, (Intel)'), 'ltr');
  t.equal(firstStrong('2019 שלום'), 'rtl');
  t.equal(firstStrong('12 – 13'), null);
});

t.test('samples/rtl-mixed through extract --format html: Hebrew paragraphs right to left, the English one not', async (t) => {
  const result = await run(['extract', '--quiet', '--format', 'html', samplePdf('rtl-mixed')]);
  t.equal(result.code, 0, result.stderr);
  t.equal(XMLValidator.validate(result.stdout), true);
  const paragraphs = [...result.stdout.matchAll(/<p ([^>]*)>\n([^]*?)<\/p>/gu)].map((m) => ({ attrs: m[1]!, text: m[2]! }));
  const hebrew = paragraphs.filter((p) => /^[\u0590-\u05ff]/u.test(p.text));
  const english = paragraphs.filter((p) => /^[A-Za-z]/u.test(p.text));
  t.ok(hebrew.length >= 4, `${hebrew.length} Hebrew paragraphs`);
  t.ok(hebrew.every((p) => / dir="rtl"$/u.test(p.attrs)), 'each has dir="rtl"');
  t.equal(english.length, 1);
  t.notMatch(english[0]?.attrs ?? '', /dir=/u, 'the English paragraph has none');
  t.match(english[0]?.text ?? '', /<span lang="he" dir="rtl">שלום<\/span>/u);
});

t.test('sentences: abbreviations and initials do not end a sentence', async (t) => {
  t.same(sentences('Dr. Reed met J. Smith at noon. They sailed e.g. to the cape. Done!', 'en'), ['Dr. Reed met J. Smith at noon.', 'They sailed e.g. to the cape.', 'Done!']);
  t.same(sentences('Es gibt z. B. Fisch. Dann Brot.', 'de'), ['Es gibt z. B. Fisch.', 'Dann Brot.']);
  t.equal(documentText(pages, { blankLines: false, keepFurniture: false, sentences: true }), 'Harbour <Notes> & "Tides"\nDr. Reed counted the boats.\nThe tide turned at noon and the market closed.\nGulls stayed.\nLe port dort.\n');
});

t.test('a real PDF through extract --format html', async (t) => {
  const result = await run(['extract', '--format', 'html', samplePdf('one-column')]);
  t.equal(result.code, 0, result.stderr);
  t.equal(XMLValidator.validate(result.stdout), true);
  t.match(result.stdout, /<defaultLang abbr="en" \/>/);
  t.match(result.stdout, /<p id="page1p1" lang="en" fontname="[^"]+" data-role="title">/);
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
    // Direction: documents with the rtl feature have right-to-left paragraphs, the others none,
    // and every paragraph marked so has more right-to-left letters than others.
    const features = (JSON.parse(readFileSync(join(gt, pdf.replace(/\.pdf$/, '.json')), 'utf8')) as { features?: string[] }).features ?? [];
    const marked = [...html.matchAll(/<p [^>]* dir="rtl">\n([^]*?)<\/p>/gu)].map((m) => m[1]!.replace(/<[^>]+>/gu, ''));
    if (features.includes('rtl')) t.ok(marked.length > 0, `${pdf}: ${marked.length} paragraphs with dir="rtl"`);
    else t.equal(marked.length, 0, `${pdf}: no paragraph with dir="rtl"`);
    const rightToLeft = (text: string): boolean => (text.match(/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]/gu) ?? []).length > (text.match(/[^\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\P{L}]/gu) ?? []).length;
    t.same(marked.filter((text) => !rightToLeft(text)), [], `${pdf}: each marked paragraph is mostly right-to-left letters`);
  }
});

t.test("the permissions block reads the flags as PDFExtract does: canprint is full-quality printing", async (t) => {
  const head = (permissions: number[] | null): Record<string, string> => {
    const doc: DocRecord = { ...docRecord('d'), meta: { ...docRecord('d').meta, encrypted: permissions !== null, permissions } };
    const html = documentHtml(doc, [], endRecord('d'), { getperms: true, keepbrtags: false, roles: '', keepFurniture: false, bodyOnly: false });
    return Object.fromEntries([...html.matchAll(/<(can\w+)>(\w+)</g)].map((m) => [m[1]!, m[2]!]));
  };
  t.match(head([4, 512]), { canprint: 'false', canprintdegraded: 'true', cancopy: 'false', canscreenreader: 'true', canmodified: 'false' });
  t.match(head([4, 2048, 16]), { canprint: 'true', canprintdegraded: 'true', cancopy: 'true' });
  t.ok(Object.values(head(null)).every((v) => v === 'true'), 'an unencrypted PDF restricts nothing');
});

t.test('the error form quotes a message as it is: a literal &lt; stays &lt;', async (t) => {
  const failed = documentHtml(null, [], { type: 'error', doc: 'h', code: 'corrupt', message: 'a literal &lt; and a real < and ]]> end', stage: 'parse' }, options);
  t.match(failed, /a literal &lt; and a real < and \]\]\]\]><!\[CDATA\[> end/u);
});
