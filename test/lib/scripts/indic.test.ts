/**
 * Devanagari and Bengali in glyph order put back into Unicode order, only in a document that shows it.
 */
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { context, repairLines } from '../repair/repair-fixtures.js';
import { collapse, repoRoot, run } from '../../helpers.js';

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

t.test('Bengali in glyph order: pre-base signs after their consonants, two-part vowels joined, reph and candrabindu in place', async (t) => {
  // As XeTeX writes them: েজেলরা (জেলেরা), েনৗকা (নৌকা), েছাট (ছোট), িফির (ফিরি), সূযর্ (সূর্য), হঁাটেত (হাঁটতে).
  const drawn = ['েজেলরা েনৗকা েছাট', 'িফির সূযর্ হঁাটেত'];
  const { texts, diagnostics } = repairLines(drawn);
  t.same(texts, ['জেলেরা নৌকা ছোট', 'ফিরি সূর্য হাঁটতে']);
  t.match(diagnostics.map((d) => d.code).sort(), ['rule:bengali-pre-base-vowel', 'rule:bengali-reph', 'rule:bengali-two-part-vowel', 'rule:indic-nasal-order']);
  const logical = ['জেলেরা নৌকা ছোট', 'ফিরি সূর্য হাঁটতে'];
  t.same(repairLines(logical).texts, logical, 'Unicode order is no sign of glyph order');
});

t.test('Bengali in glyph order: the ya-phala, mapped ya then virama, follows its consonant as virama then ya', async (t) => {
  // As XeTeX writes them: বয্স্ত (ব্যস্ত), সন্ধয্ায় (সন্ধ্যায়), েবয্ (ব্যে), িফির (ফিরি: the document's pre-base signs show glyph order).
  const { texts, diagnostics } = repairLines(['বয্স্ত সন্ধয্ায় েবয্ িফির েছাট']);
  t.same(texts, ['ব্যস্ত সন্ধ্যায় ব্যে ফিরি ছোট']);
  t.ok(diagnostics.some((d) => d.code === 'rule:bengali-ya-phala'));
  t.same(repairLines(['শয্যা ব্যস্ত িফির েছাট েজেলরা']).texts, ['শয্যা ব্যস্ত ফিরি ছোট জেলেরা'], 'before another ya it is a ya with its virama');
});

t.test('a Bengali XeLaTeX document (bench/corpus/fonts) reads in Unicode order', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/fonts');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'bn-xelatex-notoserif.pdf')]);
  t.equal(code, 0);
  t.equal(collapse(stdout), collapse(readFileSync(join(dir, 'bn-xelatex-notoserif.txt'), 'utf8')));
});

t.test('a nasal sign written before its vowel sign goes after it, in any document', async (t) => {
  // As Writer writes Noto Serif Devanagari: सर्दियंो (सर्दियों), दीयंो (दीयों); Bengali হঁাটতে (হাঁটতে).
  const { texts, diagnostics } = repairLines(['सर्दियंो में दीयंो की', 'হঁাটতে']);
  t.same(texts, ['सर्दियों में दीयों की', 'হাঁটতে']);
  t.match(diagnostics.map((d) => d.code), ['rule:indic-nasal-order']);
  t.same(repairLines(['सर्दियों में']).texts, ['सर्दियों में'], 'Unicode order stays');
  // Writer's PDF in Noto Serif Devanagari (test/fixtures/fontsweep, from the font sweep).
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'devanagari-lo-notoserifdevanagari.pdf')]);
  t.equal(code, 0);
  t.notMatch(stdout, /\u0902[\u093e-\u094c]/u, 'no anusvara before a vowel sign');
  t.match(stdout, /सर्दियों में/u);
  t.match(stdout, /दीयों की/u);
});

t.test('a reph drawn at its syllable\'s start, before a pre-base sign\'s consonant, stays on that syllable', async (t) => {
  // Lohit under XeTeX draws सर्दियों as "सिर्दयों" (ि, reph, द); FreeSerif as "सिदर्यों" (reph after द).
  // With filler lines in glyph order so that the document shows it.
  const filler = 'िकताब िदल्ली पवर्त';
  t.same(repairLines([filler, 'सिर्दयों में', 'सिदर्यों में']).texts, ['किताब दिल्ली पर्वत', 'सर्दियों में', 'सर्दियों में']);
});

t.test('signs written after a danda go back onto the syllable before it, in any document', async (t) => {
  const { texts, diagnostics } = repairLines(['पेड़ पुराना ह।ै हम वहाँ बैठते ह।ैं']);
  t.same(texts, ['पेड़ पुराना है। हम वहाँ बैठते हैं।']);
  t.match(diagnostics.map((d) => d.code), ['rule:indic-sign-after-danda']);
});

t.test('XeLaTeX Devanagari whose fonts draw ै and ू as glyphs of their own reads in Unicode order', async (t) => {
  // Lohit draws ै back over its syllable after the word (बठकर + ै), FreeSerif ू (झले + ू); both
  // from the font sweep (test/fixtures/fontsweep).
  const dir = join(repoRoot, 'test/fixtures/fontsweep');
  for (const name of ['devanagari-xelatex-lohitdevanagari', 'devanagari-xelatex-freeserif']) {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    t.notMatch(stdout, /[\u0964\u0965][\u0900-\u0903\u093E-\u094C]/u, `${name}: no sign after a danda`);
    for (const word of ['सर्दियों', 'बैठकर', 'झूले', 'बूढ़े', 'पूरा', 'है।']) t.match(stdout, word, `${name}: ${word}`);
  }
});

t.test('XeLaTeX Devanagari in FreeSerif: word spaces of 0.07 em under an overhanging sign are kept', async (t) => {
  const doc = join(repoRoot, 'test/fixtures/fontsweep/devanagari-xelatex-freeserif');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', `${doc}.pdf`]);
  t.equal(code, 0);
  // The font's ToUnicode writes its half forms with a zero-width joiner ("च्‍"): the PDF's text, not this test's.
  const words = (text: string): string[] => text.replace(/\u200d/gu, '').split(/\s+/u).filter(Boolean);
  t.same(words(stdout), words(readFileSync(`${doc}.txt`, 'utf8')), '"चिल्लाते हैं", "पेड़ के", not "चिल्लातेहैं", "पेड़के"');
});
