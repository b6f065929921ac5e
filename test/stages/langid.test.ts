/**
 * langid: ISO 639-1 codes from franc among the candidates, short blocks taking their script's
 * language in the document, Latin runs inside Arabic and Hebrew text, the distribution, --lang,
 * bad codes, and the primary language of every ground-truth document.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { francAll } from 'franc';
import { identify, rankLanguages, toFrancCode, toIso6391, DEFAULT_CANDIDATES } from '../../lib/lang/identify.js';
import { langidOfDocument, normalizeOptions } from '../../stages/langid.js';
import type { DocRecord, PipeRecord } from '../../lib/protocol/records.js';
import { block, group, pageRecord, parseLines, run, samplesDir, sharedRoot } from '../helpers.js';

const english = 'The fishing boats came back to the harbour before sunrise, and the market opened while the gulls were still circling.';
const german = 'Die Fischerboote kamen vor Sonnenaufgang in den Hafen zurück, und der Markt öffnete, während die Möwen noch kreisten.';
const arabic = 'عادت قوارب الصيد إلى الميناء قبل شروق الشمس، وافتتح السوق بينما كانت النوارس تحلق فوق الماء.';

t.test('identify: ISO 639-1 codes, candidates keep small languages from winning, too short is the fallback', async (t) => {
  const base = { candidates: DEFAULT_CANDIDATES, prior: null, priorRatio: 0.9, minLetters: 20, fallback: 'und' };
  t.equal(identify(english, base), 'en');
  t.equal(identify(german, base), 'de');
  t.equal(identify(arabic, base), 'ar');
  t.equal(identify('Hafen', base), 'und');
  t.equal(toIso6391('heb'), 'he');
  t.equal(toIso6391('cmn'), 'zh');
  t.equal(toIso6391('und'), 'und');
});

t.test("rankLanguages is franc's francAll, number for number, on every block of the samples", async (t) => {
  const result = await run(['extract', '--format', 'ndjson', samplesDir]);
  const texts = parseLines(result.stdout).flatMap((r) => (r.type === 'page' ? (r.blocks ?? []).map((b) => b.text) : []));
  t.ok(texts.length >= 30, `blocks from the samples (${texts.length})`);
  const candidates = DEFAULT_CANDIDATES.map(toFrancCode).filter((c): c is string => c !== null);
  // Whole blocks, their first words, and texts franc must call und or give to a one-language script.
  const cases = [...texts, ...texts.map((text) => text.slice(0, 25)), '', 'short', '12345 67890 !!', 'שלום עולם וכל יושביו', '𝐀𝐁𝐂 mathematical letters'];
  let same = 0;
  for (const text of cases) {
    for (const only of [candidates, [], ['deu', 'nld'], ['xxx']]) {
      const expected = francAll(text, { minLength: 10, ...(only.length > 0 ? { only } : {}) });
      if (JSON.stringify(rankLanguages(text, only)) === JSON.stringify(expected)) same++;
      else t.fail(`differs from franc on ${JSON.stringify(text.slice(0, 60))} (only ${only.length})`);
    }
  }
  t.equal(same, cases.length * 4);
});

t.test('garbled text (wrong 8-bit table, wrong glyph map) is und, not a confident guess', async (t) => {
  const base = { candidates: DEFAULT_CANDIDATES, prior: null, priorRatio: 0.9, minLetters: 20, fallback: 'und' };
  // Cyrillic bytes read as Latin-1, and Cyrillic glyphs mapped to Greek letters.
  const latin1 = Buffer.from('Рыбацкие лодки вернулись в гавань до рассвета, и рынок открылся.', 'utf8').toString('latin1');
  t.equal(identify(latin1, base), 'und');
  t.equal(identify('ΌέΛέηκ ΛΡΟζΤβΠΦΩΝ ΠΥΟΩΦΡ ΠΨΩΜΦΛΟΛ έηΝάΠΧΣ ΪΫΛΝΛΧ ΣΣΝάΠΧΣάΝ ΩΜΩΟΛΧΣ', base), 'und');
  t.equal(identify(english, base), 'en', 'real text is not garbled');
});

t.test('a document: short blocks take the language of their script; Latin runs in Arabic are spans', async (t) => {
  const page = pageRecord('l', 1, {
    blocks: [block(german), block('Kapitel 2', { role: 'heading' }), block(german.toUpperCase().slice(0, 8)), block(`${arabic} شركة Siemens في المدينة.`, { dir: 'rtl' })],
  });
  const { pages, doc } = langidOfDocument(group([page]));
  const blocks = pages[0]!.blocks!;
  t.equal(blocks[0]!.lang, 'de');
  t.equal(blocks[1]!.lang, 'de', 'a short Latin heading takes the Latin language of the document');
  t.equal(blocks[3]!.lang, 'ar');
  t.same(blocks[3]!.spans, [{ start: blocks[3]!.text.indexOf('Siemens'), end: blocks[3]!.text.indexOf('Siemens') + 7, lang: 'de' }], 'a Latin run takes the document\'s Latin language');
  t.equal(doc.lang, doc.languages![0]!.lang, 'the primary language is the most frequent');
  t.same(doc.languages!.map((l) => l.lang).sort(), ['ar', 'de']);
  t.ok(Math.abs(doc.languages!.reduce((s, l) => s + l.percent, 0) - 100) < 0.1);
});

t.test('Latin names in Arabic text with no other Latin text are English; und when told not to guess', async (t) => {
  const page = pageRecord('l', 1, { blocks: [block(`${arabic} يعمل نظام Linux على الخوادم.`, { dir: 'rtl' })] });
  t.equal(langidOfDocument(group([page])).pages[0]!.blocks![0]!.spans![0]!.lang, 'en');
  t.equal(langidOfDocument(group([page]), { embeddedLatin: '' }).pages[0]!.blocks![0]!.spans![0]!.lang, 'und');
});

t.test('--lang keeps or marks blocks; unknown codes are usage errors', async (t) => {
  const page = pageRecord('l', 1, { blocks: [block(english), block(german)] });
  t.same(langidOfDocument(group([page]), { lang: 'de' }).pages[0]!.blocks!.map((b) => b.lang), ['de']);
  t.same(langidOfDocument(group([page]), { lang: 'de', mark: true }).pages[0]!.blocks!.map((b) => b.selected), [false, true]);
  t.throws(() => normalizeOptions({ lang: 'xx' }), /Unknown language code "xx"/);
  t.throws(() => normalizeOptions({ mark: true }), /--mark needs --lang/);
  const result = await run(['langid', '--lang', 'qq'], '');
  t.equal(result.code, 2);
});

const gt = join(sharedRoot, 'corpus/gt');

t.test('ground truth: the primary language of every document; English in mixed Arabic/Hebrew documents', { skip: existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`, timeout: 600_000 }, async (t) => {
  const result = await run(['extract', '--format', 'ndjson', gt]);
  const docs = parseLines(result.stdout).filter((r: PipeRecord): r is DocRecord => r.type === 'doc');
  const pdfs = readdirSync(gt).filter((f) => f.endsWith('.pdf'));
  t.equal(docs.length, pdfs.length);
  let right = 0;
  for (const doc of docs) {
    const meta = JSON.parse(readFileSync(join(gt, `${doc.id}.json`), 'utf8')) as { primary_language: string; languages: string[] };
    t.equal(doc.lang, meta.primary_language, `${doc.id}: primary language`);
    if (doc.lang === meta.primary_language) right++;
    if (meta.languages.includes('en') && meta.primary_language !== 'en') {
      t.ok(doc.languages?.some((l) => l.lang === 'en' && l.percent > 1), `${doc.id}: English found`);
    }
  }
  const pages = parseLines(result.stdout).filter((r) => r.type === 'page');
  const mixed = pages.filter((p) => p.type === 'page' && /-mixed$/.test(p.doc));
  const spans = mixed.flatMap((p) => (p.type === 'page' ? p.blocks ?? [] : []).flatMap((b) => (b.spans ?? []).map((s) => [b.text.slice(s.start, s.end), s.lang])));
  t.ok(spans.length >= 20, `spans in the mixed documents (${spans.length})`);
  t.same(spans.filter(([, lang]) => lang !== 'en'), [], 'every Latin run in the mixed documents is English');
  t.equal(right, docs.length, 'every document');
});
