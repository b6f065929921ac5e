/**
 * The repair stage: each rule on hand-built lines, the config and its errors, the CLI, real PDFs of
 * the shared corpus (broken encodings, Thai private-use glyphs), and no edit at all to text that is
 * already right (the ground-truth texts).
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findCyrillicShift,
  loadContext,
  looksLatin1Mojibake,
  normalizeOptions,
  parseConfig,
  reattachMarks,
  redecode,
  repair,
  repairDocument,
  type RepairContext,
} from '../../stages/repair.js';
import { Rewriter, Tally } from '../../lib/repair/rewrite.js';
import { thaiLexical, thaiOrthography } from '../../lib/scripts/thai.js';
import { DEBIAN_THAI_TRIE, loadLexicon } from '../../lib/repair/lexicon.js';
import type { DiagnosticRecord, DocRecord, Item, Line, PageRecord, PipeRecord } from '../../lib/protocol/records.js';
import { SCHEMA_VERSION } from '../../lib/protocol/records.js';
import type { DocumentGroup } from '../../lib/protocol/stage.js';
import { charAccuracy, parseLines, repoRoot, run, sharedRoot, through, toNdjson } from '../helpers.js';

const gtDir = join(sharedRoot, 'corpus/gt');
const noGt = existsSync(gtDir) ? false : `${gtDir} is not available (no ../shared corpus)`;
const noThaiLexicon = existsSync(DEBIAN_THAI_TRIE) ? false : `${DEBIAN_THAI_TRIE} is not installed (Debian package libthai-data)`;
const thai = noThaiLexicon ? new Set<string>() : loadLexicon(DEBIAN_THAI_TRIE);

function line(text: string, extra: Partial<Line> = {}): Line {
  return { text, box: { x: 0, y: 0, w: 200, h: 12 }, base: 10, font: 'F1', size: 10, dir: 'ltr', block: 0, inferred: [], ...extra };
}

function doc(id = 'd', lang: string | null = null): DocRecord {
  return {
    type: 'doc', id, source: `${id}.pdf`, schema: SCHEMA_VERSION,
    meta: { pages: 1, info: {}, lang, outline: [], encrypted: false, engine: 'test', normalization: 'none' },
  };
}

function group(lines: Line[], lang: string | null = null, items?: Item[]): DocumentGroup {
  const page: PageRecord = { type: 'page', doc: 'd', page: 1, width: 600, height: 800, lines };
  if (items) page.items = items;
  return { doc: doc('d', lang), pages: [page], diagnostics: [], outcome: { type: 'end', doc: 'd', stats: { pages: 1, items: 0, chars: 0, ms: 0 } } };
}

const context = (extra: Partial<RepairContext> = {}): RepairContext => ({
  ...parseConfig({ language: [] }),
  ...loadContext(normalizeOptions({ words: '', thaiLexicon: '' })),
  thai: noThaiLexicon ? null : thai,
  words: new Set(['efficient', 'effects', 'definition', 'office', 'staff', 'finalized', 'of', 'fifty', 'an', 'for', 'the', 'clear', 'word', 'side', 'is', 'ok', 'affidavits', 'officers', 'in', 'to', 'into']),
  ...extra,
});

/** Repairs lines with the default rules; returns the texts and the diagnostics. */
function repairLines(texts: string[], options: Parameters<typeof normalizeOptions>[0] = {}, ctx = context()) {
  const result = repairDocument(group(texts.map((x) => line(x))), normalizeOptions(options), ctx);
  return { texts: result.pages[0]!.lines!.map((l) => l.text), diagnostics: result.diagnostics };
}

function rewrite(text: string, fn: (rw: Rewriter) => void): string {
  const rw = new Rewriter(text, [], new Tally(false));
  fn(rw);
  return rw.text;
}

t.test('ligatures and compatibility characters are expanded, spaces made plain, soft hyphens inside words removed', async (t) => {
  const { texts, diagnostics } = repairLines(['the ﬁrst ﬂoor, ﬀ ﬃ ﬄ ﬅ ﬆ', 'Ĳssel and ĳs', 'a\u00a0b\u2009c', 'Ver\u00adwaltung']);
  t.same(texts, ['the first floor, ff ffi ffl st st', 'IJssel and ijs', 'a b c', 'Verwaltung']);
  const counts = Object.fromEntries(diagnostics.map((d) => [d.code, d.count]));
  t.equal(counts['rule:ligature'], 9, 'one count per ligature expanded');
  t.equal(counts['rule:space'], 2);
  t.equal(counts['rule:soft-hyphen'], 1);
});

t.test('a space after a ligature goes when the joined word is known and the parts are not', async (t) => {
  const { texts } = repairLines(['an ef ficient office for the staff', 'the staff finalized fifty', 'a clear de fi nition of the word']);
  t.same(texts, ['an efficient office for the staff', 'the staff finalized fifty', 'a clear definition of the word']);
});

t.test('a word broken across lines whose soft hyphen was dropped gets it back', async (t) => {
  const { texts } = repairLines(['the affidavits for the staff. Ef', 'ficient officers for the staff went in', 'to the office']);
  t.same(texts, ['the affidavits for the staff. Ef\u00ad', 'ficient officers for the staff went in', 'to the office'], 'two words ("in" | "to") stay two');
});

t.test('letters swallowed by a ligature are put back when exactly one ligature makes a known word', async (t) => {
  // A document long enough to show that its ff/fi/fl are gone.
  const body = Array.from({ length: 30 }, () => 'the side of the word is ok');
  const { texts } = repairLines(['side eects of the oce', ...body]);
  t.equal(texts[0], 'side effects of the office');
  const short = repairLines(['side eects of the oce']);
  t.equal(short.texts[0], 'side eects of the oce', 'not in a short document, which shows nothing');
  const intact = repairLines(['side eects of the oce', 'an efficient office', ...body]);
  t.equal(intact.texts[0], 'side eects of the oce', 'not in a document that has its ligature letters');
});

t.test('inferred marks move with the text they belong to', async (t) => {
  const result = repairDocument(
    group([line('the de fi nition of the word is ok', { inferred: [{ at: 6, kind: 'space', rule: 'gap' }, { at: 16, kind: 'space', rule: 'gap' }] })]),
    normalizeOptions(),
    context(),
  );
  const out = result.pages[0]!.lines![0]!;
  t.equal(out.text, 'the definition of the word is ok');
  t.same(out.inferred, [{ at: 14, kind: 'space', rule: 'gap' }], 'the removed space loses its mark; the later one shifts back');
});

t.test('Arabic presentation forms, lam-alef, the Allah ligature, tatweel; ZWNJ kept', async (t) => {
  // "سلام" in presentation forms; lam-alef isolated; "بالله" written ba + alef + U+FDF2.
  const { texts } = repairLines(['\ufeb3\ufefc\ufee1', '\ufefb', '\ufe91\ufe8e\ufdf2', 'ﷲ', 'كـــتاب', 'می\u200cخواهم']);
  t.same(texts, ['سلام', 'لا', 'بالله', 'الله', 'كتاب', 'می\u200cخواهم']);
  t.same(repairLines(['كـــتاب'], { tatweel: 'keep' }).texts, ['كـــتاب'], '--tatweel keep');
  t.same(repairLines(['بااللہ', 'باالله']).texts, ['بااللہ', 'بالله'], 'a doubled alef from an engine-expanded ligature');
  t.same(repairLines(['\u0628\ufe76 \u0628\ufe77']).texts, ['\u0628\u064e \u0628\u064e'], 'harakat forms become the mark, without a space or tatweel');
});

t.test('Hebrew presentation forms become letters and points', async (t) => {
  const { texts } = repairLines(['\ufb2a\ufb31\ufb4f']);
  t.same(texts, ['\u05e9\u05c1\u05d1\u05bc\u05d0\u05dc']);
});

t.test('Thai rules that need no lexicon, each named', async (t) => {
  const cases: [string, string, string][] = [
    ['thai-pua', 'ท\uf70aาน ก\uf712', 'ท่าน ก็'],
    ['thai-space-before-aa', 'น า', 'นา'],
    ['thai-nikhahit-aa', 'ท\u0e4d\u0e32 ต\u0e4d\u0e48\u0e32 ต\u0e48\u0e4d\u0e32', 'ทำ ต่ำ ต่ำ'],
    ['thai-sara-e-e', '\u0e40\u0e40ม่', 'แม่'],
    ['thai-am-aa', 'น้ำา ต\u0e33\u0e48\u0e32', 'น้ำ ต่ำ'],
    ['thai-mark-order', 'น\u0e48\u0e34ง ต\u0e33\u0e48', 'นิ่ง ต่ำ'],
  ];
  for (const [rule, input, expected] of cases) {
    const tally = new Tally(true);
    const rw = new Rewriter(input, [], tally);
    thaiOrthography(rw);
    t.equal(rw.text, expected, rule);
    t.ok(tally.counts.get(rule), `${rule} is the rule that fired`);
    const off = new Rewriter(input, [], new Tally(false));
    thaiOrthography(off, new Set([rule]));
    t.not(off.text, expected, `${rule} can be switched off`);
  }
});

t.test('Thai rules that decide with the lexicon', { skip: noThaiLexicon }, async (t) => {
  const lexical = (text: string): string => rewrite(text, (rw) => thaiLexical(rw, thai));
  t.equal(lexical('การดาเนินงาน'), 'การดำเนินงาน', 'I: SARA AA that should be SARA AM');
  t.equal(lexical('กินข้าว กับ แม่'), 'กินข้าว กับ แม่', 'I/III: correct phrases stay');
  t.equal(lexical('โรงพยา บาล'), 'โรงพยาบาล', 'III: a space inside a word');
  t.equal(lexical('สนาม บิน'), 'สนาม บิน', 'III: a space between words stays');
  t.equal(lexical('ทรัพยุสิน'), 'ทรัพย์สิน', 'a mark the font maps wrong');
  t.equal(lexical('โดยท\u0e35\u0000'), 'โดยที่', 'a lost mark (NUL) is the one that makes a word');
  t.equal(lexical('กระท\u0e48\u4833\u0e32'), 'กระทำ', 'a stray glyph for NIKHAHIT with a stray tone mark');
});

t.test('Thai type VIII: a mark drawn as its own run goes to the consonant under it', async (t) => {
  // "กน" drawn as one run 10pt wide (5pt a glyph); the SARA II run sits over the first glyph.
  const items: Item[] = [
    { text: 'กน', x: 0, y: 10, w: 10, size: 10, font: 'F1', dir: 'ltr', block: 0 },
    { text: '\u0e35', x: 1, y: 10, w: 3, size: 10, font: 'F1', dir: 'ltr', block: 0 },
  ];
  const rw = new Rewriter('กน\u0e35', [], new Tally(false));
  reattachMarks(rw, items);
  t.equal(rw.text, 'ก\u0e35น');
  const over = new Rewriter('กน\u0e35', [], new Tally(false));
  reattachMarks(over, [items[0]!, { ...items[1]!, x: 6 }]);
  t.equal(over.text, 'กน\u0e35', 'a mark over the last consonant stays');
  const result = repairDocument(group([line('กน\u0e35', { box: { x: 0, y: 0, w: 10, h: 12 } })], null, items), normalizeOptions(), context());
  t.equal(result.pages[0]!.lines![0]!.text, 'ก\u0e35น', 'the stage finds the items of the line');
});

t.test('Devanagari in glyph order: short-i after its consonants, reph before them, two-part vowels joined', async (t) => {
  // As XeTeX writes them: िकताब (किताब), िदल्ली (दिल्ली), पवर्त (पर्वत), सूयर् (सूर्य), काेयल (कोयल),
  // माैसम (मौसम), आेस (ओस), िवज्ञान (विज्ञान).
  const drawn = ['िकताब िदल्ली पवर्त', 'सूयर् काेयल माैसम आेस िवज्ञान'];
  const { texts, diagnostics } = repairLines(drawn);
  t.same(texts, ['किताब दिल्ली पर्वत', 'सूर्य कोयल मौसम ओस विज्ञान']);
  t.match(diagnostics.map((d) => d.code).sort(), ['rule:devanagari-reph', 'rule:devanagari-short-i', 'rule:devanagari-two-part-vowel']);
  // The same words in Unicode order are no sign of glyph order and stay as they are, even where
  // a rewrite's pattern would match ("र्" after a syllable, as in पर्वत's logical form).
  const logical = ['किताब दिल्ली पर्वत', 'सूर्य कोयल मौसम ओस विज्ञान'];
  t.same(repairLines(logical).texts, logical);
  t.same(repairLines(drawn, {}, context({ disabled: new Set(['devanagari-short-i', 'devanagari-reph', 'devanagari-two-part-vowel']) })).texts, drawn, 'each rule can be switched off');
});

t.test('broken 8-bit encodings are re-decoded, per document code page', async (t) => {
  const mojibake = 'Общая часть договора';
  const cp1251 = (s: string): string => String.fromCharCode(...[...s].map((c) => {
    const code = c.codePointAt(0)!;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    return code;
  }));
  const garbled = cp1251(mojibake);
  t.ok(looksLatin1Mojibake(garbled), 'detected');
  t.equal(redecode(garbled, 'windows-1251'), mojibake);
  t.notOk(looksLatin1Mojibake('Déjà été à Zürich'), 'Latin-1 text with ASCII letters is left alone');
  t.equal(redecode('àÀâÂäÄçÇéÉèÈêÊ', 'windows-1251'), null, 'a table of accented letters is not a code page mix-up');
  const { texts } = repairLines([garbled, 'Ñòàòüÿ 4', 'Plain ASCII line']);
  t.same(texts, [mojibake, 'Статья 4', 'Plain ASCII line']);
});

t.test('glyph-id text shifted from Cyrillic is shifted back', async (t) => {
  const shift = 0x95;
  const text = 'Каждый человек должен обладать всеми правами и свободами без какого бы то ни было различия';
  const garbled = [...text].map((c) => (/\p{L}/u.test(c) ? String.fromCodePoint(c.codePointAt(0)! - shift) : c === ' ' ? '\u0003' : c)).join('');
  t.equal(findCyrillicShift([garbled]), shift);
  t.equal(findCyrillicShift(['Ο Παγκόσμιος οργανισμός υγείας είναι ένας οργανισμός']), null, 'real Greek is not shifted');
  t.equal(findCyrillicShift(['test missing FontName in FontDescriptor dict '.repeat(3)]), null, 'Latin text in CamelCase is not shifted');
  t.same(repairLines([garbled]).texts, [text]);
});

t.test('rules from a config file: common and per-language sets, rule switches', async (t) => {
  const config = parseConfig({
    rules: { 'ligature-space': false },
    language: [
      { name: 'common', config: { normalize: [['[“”]', '"']], repair: [['\\s(,|\\))', '$1']] } },
      { name: 'fr', config: { normalize: [['’', "'"]] } },
    ],
  });
  const ctx = context({ ...config });
  t.same(repairLines(['“l’eau” , de fi nition'], {}, ctx).texts, ['"l’eau", de fi nition'], 'common rules; ligature-space off');
  t.same(repairLines(['“l’eau”'], { ruleLang: 'fr' }, ctx).texts, ['"l\'eau"'], 'per-language rules');
  const fromLang = repairDocument(group([line('l’eau')], 'fr-FR'), normalizeOptions(), ctx);
  t.equal(fromLang.pages[0]!.lines![0]!.text, "l'eau", "the PDF's /Lang picks the set");
  t.throws(() => parseConfig({ rules: { 'no-such-rule': false } }), /unknown rule "no-such-rule"/);
  t.throws(() => parseConfig({ language: [{ name: 'common', config: { normalize: [['(unclosed', 'x', 'my-rule']] } }] }), /rule my-rule has an invalid regex/);
  t.throws(() => parseConfig({ language: [{ name: 'en', config: { repair: [[1, 2]] } }] }), /rule en\.repair\[0\] must be \[search, replace\]/);
  t.throws(() => loadContext(normalizeOptions({ thaiLexicon: '/nonexistent/th.tri' })), /cannot read lexicon \/nonexistent\/th\.tri/);
});

t.test('the shipped PDFExtract rules file loads and folds quotes and dashes', async (t) => {
  const ctx = context(loadContext(normalizeOptions({ config: join(repoRoot, 'config/pdfextract.json'), thaiLexicon: '', words: '' })));
  t.same(repairLines(['“quoted” – text…\u00a0here'], {}, { ...ctx, words: null }).texts, ['"quoted" - text... here'], 'NBSP becomes a space, not nothing');
});

t.test('--explain reports each change before/after; a document whose repair throws gets an error record', async (t) => {
  const { diagnostics } = repairLines(['ﬁ'], { explain: true });
  t.match(diagnostics.find((d) => d.code === 'change')?.message, /ligature: "ﬁ" → "fi"/);
  const throwing = context({ thai: { has: () => { throw new Error('lexicon exploded'); } } as unknown as ReadonlySet<string> });
  const good = group([line('ok')]);
  const input: PipeRecord[] = [
    doc('bad'), { type: 'page', doc: 'bad', page: 1, width: 1, height: 1, lines: [line('ประ เทศ')] }, { type: 'end', doc: 'bad', stats: { pages: 1, items: 0, chars: 0, ms: 0 } },
    good.doc, ...good.pages, good.outcome,
  ];
  const out = (await through(repair({}, throwing), input)) as PipeRecord[];
  t.match(out.find((r) => r.type === 'error'), { doc: 'bad', code: 'stage-failed', message: /lexicon exploded/ });
  t.ok(out.some((r) => r.type === 'end' && r.doc === 'd'), 'the next document ends normally');
});

t.test('CLI: bad config and missing lexicon exit 2 naming the file or rule', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-repair-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ language: [{ name: 'common', config: { normalize: [['[', 'x']] } }] }));
  const unknown = join(dir, 'unknown.json');
  writeFileSync(unknown, JSON.stringify({ rules: { 'thai-magic': false } }));
  const [a, b, c, ok] = await Promise.all([
    run(['repair', '--config', bad], ''),
    run(['repair', '--config', unknown], ''),
    run(['repair', '--thai-lexicon', join(dir, 'none.tri')], ''),
    run(['repair'], toNdjson([doc('x'), { type: 'page', doc: 'x', page: 1, width: 1, height: 1, lines: [line('ﬁne')] }, { type: 'end', doc: 'x', stats: { pages: 1, items: 0, chars: 0, ms: 0 } }])),
  ]);
  t.equal(a.code, 2);
  t.match(a.stderr, /common\.normalize\[0\] has an invalid regex/);
  t.equal(b.code, 2);
  t.match(b.stderr, /unknown rule "thai-magic"/);
  t.equal(c.code, 2);
  t.match(c.stderr, /none\.tri/);
  t.equal(ok.code, 0, ok.stderr);
  const records = parseLines(ok.stdout);
  t.equal((records.find((r) => r.type === 'page') as PageRecord).lines![0]!.text, 'fine');
  t.match(records.find((r) => r.type === 'diagnostic') as DiagnosticRecord, { code: 'rule:ligature', count: 1 });
});

t.test('text that is already right is not changed: zero edits over every ground-truth text', { skip: noGt }, async (t) => {
  const ctx = loadContext(normalizeOptions());
  const names = readdirSync(gtDir).filter((f) => f.endsWith('.txt') && f !== 'README.txt');
  t.ok(names.length > 20, 'the ground truth is there');
  for (const name of names) {
    const paragraphs = readFileSync(join(gtDir, name), 'utf8').split('\n').filter((p) => p.trim() !== '');
    const result = repairDocument(group(paragraphs.map((p) => line(p))), normalizeOptions({ explain: true }), ctx);
    const changes = result.diagnostics.filter((d) => d.code === 'change').map((d) => d.message);
    t.same(changes, [], `${name}: no edits`);
  }
});

t.test('real PDFs: an 8-bit Cyrillic text layer, Thai private-use glyphs and Devanagari in glyph order read right after repair', { skip: noGt }, async (t) => {
  for (const [name, before, after] of [['ru-pdflatex-8bit', 0.5, 0.99], ['th-raw-pua', 0.96, 0.995], ['hi-xelatex', 0.9, 0.99]] as const) {
    const truth = readFileSync(join(gtDir, `${name}.txt`), 'utf8');
    const pdf = join(gtDir, `${name}.pdf`);
    const lines = await run(['lines'], (await run(['order'], (await run(['parse', pdf])).stdout)).stdout);
    const [plain, repaired] = await Promise.all([
      run(['serialize', '--blank-lines'], (await run(['paragraphs'], lines.stdout)).stdout),
      run(['paragraphs'], (await run(['repair'], lines.stdout)).stdout).then((r) => run(['serialize', '--blank-lines'], r.stdout)),
    ]);
    t.ok(charAccuracy(truth, plain.stdout) < before, `${name}: broken without repair`);
    t.ok(charAccuracy(truth, repaired.stdout) >= after, `${name}: character accuracy ≥ ${after} with repair (${charAccuracy(truth, repaired.stdout).toFixed(4)})`);
  }
});
