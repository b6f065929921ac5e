/**
 * Glyphs a font's Unicode map leaves out, read from the font program (lib/engines/font-program.ts,
 * installed-fonts.ts, pdfium/font-texts.ts): XeTeX's Devanagari in Noto Sans Devanagari maps its
 * short-i and long-i signs of other widths and some conjuncts to nothing, which PDFium reported by
 * glyph id ("ɡलए" for "लिए"). The installed program's cmap and GSUB say what they are, once its
 * glyphs' widths agree with the page's. Needs the installed font (Debian fonts-noto-core).
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { advancesAgree, fontTables, glyphTexts } from '../../../lib/engines/font-program.js';
import { mainScript, misreadCode, programScripts } from '../../../lib/engines/pdfium/font-texts.js';
import { charAccuracy, collapse, parseLines, repoRoot, run } from '../../helpers.js';

const FONT = '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf';
const skip = existsSync(FONT) ? false : `${FONT} is not installed (Debian package fonts-noto-core)`;

t.test('glyph texts from cmap and GSUB; a program checked by its glyph widths', { skip }, async (t) => {
  const tables = fontTables(readFileSync(FONT));
  const texts = glyphTexts(tables);
  const gid = (ch: string) => [...texts].find(([, text]) => text === ch)?.[0];
  t.ok(gid('ि') !== undefined, 'the short-i sign is mapped by the cmap');
  // Glyphs no character maps to: the short-i sign in its other widths, a conjunct.
  t.equal(texts.get(609), 'ि');
  t.equal(texts.get(653), 'ी');
  t.equal(texts.get(500), 'च्च');
  t.ok(advancesAgree(tables, [{ glyph: 609, advance: 0.809 }, { glyph: 500, advance: 1.013 }]), 'ink widths as PDFium measures them');
  t.notOk(advancesAgree(tables, [{ glyph: 609, advance: 0.5 }, { glyph: 500, advance: 1.013 }]), 'one width off: another program');
  t.notOk(advancesAgree(tables, [{ glyph: 609, advance: 0.809 }]), 'one glyph is too little to tell');
  t.same(glyphTexts(fontTables(new Uint8Array(8))), new Map(), 'no font program, no texts');
});

t.test('XeLaTeX Devanagari in Noto Sans Devanagari', { skip }, async (t) => {
  const dir = join(repoRoot, 'bench/corpus/fonts');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'hi-xelatex-notosans.pdf')]);
  t.equal(code, 0);
  const text = collapse(stdout);
  for (const word of ['नदी किनारे', 'लिए', 'बच्चों', 'कहानियाँ', 'मिट्टी']) t.ok(text.includes(word), word);
  t.notMatch(text, /[\u0080-\u08ff]/u, 'no Latin, IPA or other letters for glyph ids');
  t.equal(charAccuracy(collapse(readFileSync(join(dir, 'hi-xelatex-notosans.txt'), 'utf8')), text), 1);
});

const LOHIT_BENGALI = '/usr/share/fonts/truetype/lohit-bengali/Lohit-Bengali.ttf';
const noLohit = existsSync(LOHIT_BENGALI) ? false : `${LOHIT_BENGALI} is not installed (Debian package fonts-lohit-beng-bengali)`;

t.test('XeLaTeX Bengali in Lohit: a single unmapped conjunct, told by its script', { skip: noLohit }, async (t) => {
  // The font's Unicode map leaves out only the conjunct ল্প (glyph 364), which PDFium reads as
  // "Ŭ" U+016C: one glyph is too little to tell the program by its advances, but its text in the
  // program is Bengali, the script of the font's other glyphs, where U+016C is not.
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'bengali-xelatex-lohitbengali.pdf')]);
  t.equal(code, 0);
  t.match(stdout, /গল্প/u);
  t.notMatch(stdout, /\u016c/u, 'no Latin letter for the glyph id');
  t.equal(mainScript('গল্প বলা Ŭ'), 'Bengali');
});

const NASTALIQ = '/usr/share/fonts/truetype/noto/NotoNastaliqUrdu-Regular.ttf';
const noNastaliq = existsSync(NASTALIQ) ? false : `${NASTALIQ} is not installed (Debian package fonts-noto-core)`;

t.test('XeLaTeX Urdu in Noto Nastaliq Urdu: glyph numbers its program cannot draw are no text', { skip: noNastaliq }, async (t) => {
  // XeTeX's Unicode map of the Nastaliq font leaves out most glyphs (its shaping makes them by
  // contextual substitutions), and PDFium reports them by glyph id: "êí çόī" for "بارش کا دن".
  // The installed program draws Arabic letters and no Latin or Greek one, so those are no text.
  const program = programScripts('BZIVMZ+NotoNastaliqUrdu-Regular');
  t.equal(program?.main, 'Arabic');
  t.ok(misreadCode(0xea, program), '"ê" is no letter of the program');
  t.ok(misreadCode(0x3cc, program), '"ό" neither');
  t.notOk(misreadCode(0x628, program), 'an Arabic letter may be one');
  t.notOk(misreadCode(0x20, program), 'a space is no letter');
  const serif = programScripts('NotoSerif-Regular');
  t.ok(serif?.scripts.has('Latin'), 'Noto Serif is installed and draws Latin letters');
  t.notOk(misreadCode(0xea, serif), 'a Latin font draws "ê"');
  t.equal(programScripts('NoSuchFont-Regular'), null);

  const pdf = join(repoRoot, 'test/fixtures/fontsweep/urdu-xelatex-notonastaliqurdu.pdf');
  const records = parseLines((await run(['parse', '--ocr', 'never', pdf])).stdout);
  const text = records.flatMap((r) => (r.type === 'page' ? (r.items ?? []).map((i) => i.text) : [])).join('');
  t.notMatch(text, /[\p{Script=Latin}\p{Script=Greek}]/u, 'no Latin or Greek letters for glyph ids');
  t.ok([...text].filter((c) => c === '\ufffd').length > 200, 'the glyphs without text are U+FFFD');
});
