/**
 * Accents drawn apart (lib/layout/accents.ts, with the PDFium engine's runs): a spacing accent
 * drawn as its own glyph goes onto the letter it sits over, by position — TeX's OT1 `\accent`
 * draws it before its letter, groff's ms accent strings after it, and over a capital it is raised.
 */
import t from 'tap';
import { join } from 'node:path';
import { accentOver } from '../../../lib/engines/pdfium/runs.js';
import { attachAccents } from '../../../lib/layout/accents.js';
import { collapse, item, repoRoot, run, texts } from '../../helpers.js';

t.test('attachAccents: by the accent\'s place, before or after the letter, raised over a capital', async (t) => {
  // "dualit" "´" "e," as TeX draws it: the accent first, centred over the "e" of the next run.
  t.same(texts(attachAccents([item('dualit', 100, 700), item('\u00b4', 129.8, 700, 10, { w: 5 }), item('e,', 130, 700)])), ['dualit', 'é,']);
  // "Élève": the accent raised over the capital stands a quarter em higher.
  t.same(texts(attachAccents([item('\u00b4', 101, 697.5, 10, { w: 5 }), item('El', 100, 700, 10, { w: 9 }), item('`', 108.8, 700, 10, { w: 5 }), item('eve', 109, 700)])), ['Él', 'ève']);
  // A dotless i under a diaeresis is "ï"; a cedilla below the "c" of "Ça".
  t.same(texts(attachAccents([item('na', 100, 700), item('\u00a8', 109.5, 700, 10, { w: 5 }), item('\u0131ve', 110, 700)])), ['na', 'ïve']);
  t.same(texts(attachAccents([item('\u00b8', 101.5, 700, 10, { w: 4 }), item('Ca', 100, 700)])), ['Ça']);
  // An accent a line above or below is not this line's.
  t.same(texts(attachAccents([item('\u00b4', 101, 688, 10, { w: 5 }), item('ete', 100, 700)])), ['\u00b4', 'ete']);
});

t.test('accentOver: an accent over its letter overlaps it; a neighbour in running text does not', async (t) => {
  const glyph = (ch: string, left: number, right: number, oy = 100) => ({ ch, left, right, ox: left, oy, size: 10, font: 'F', horizontal: true, dx: 1, dy: 0 });
  t.ok(accentOver(glyph('\u00b4', 29.7, 34.7), glyph('e', 30, 34.4)), 'TeX: the accent, then its letter under it');
  t.ok(accentOver(glyph('C', 30, 36.7), glyph('\u02c7', 31.7, 35)), 'groff: the letter, then the accent over it');
  t.notOk(accentOver(glyph('x', 30, 35), glyph('^', 35, 40)), 'x^ side by side');
  t.notOk(accentOver(glyph('\u00b4', 29.7, 34.7), glyph('e', 30, 34.4, 88)), 'a line apart');
});

t.test('real documents: pdfLaTeX in OT1 (Czech, French) and groff ms accent strings (Czech)', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/accents');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'cs-pdflatex-ot1.pdf'), join(dir, 'fr-pdflatex-ot1.pdf'), join(dir, 'cs-groff-am.pdf')]);
  t.equal(code, 0);
  const text = collapse(stdout);
  for (const word of ['Českých Budějovic', 'Úterní večeře u Šťastných', 'Ďábelsky', 'Ťukání', 'Příchod', 'À l’aube', 'Élodie', 'Ève,', 'Ôter', 'Ça sent', 'Noël', 'košíkem', 'nejkrásnější.', 'Štěpán']) {
    t.ok(text.includes(word), word);
  }
  t.notMatch(text, /[\u00b4`\u02c6\u02dc\u00a8\u02c7\u02d8\u02d9\u00b8\u02db\u02dd\u02da]/u, 'no accent left apart');
});

t.test('attachAccents: a mark drawn alone at its own baseline takes the baseline of the letters under it', async (t) => {
  // A sukun drawn by itself a third of an em above the baseline of "لا" (Writer draws some marks so).
  const sukun = item('\u0652', 172.4, 132.8, 14, { dir: 'rtl', w: 1.65 });
  const letters = item('لا', 168.1, 137.4, 14, { dir: 'rtl', w: 10.6 });
  const out = attachAccents([letters, sukun]);
  t.same(out.map((i) => i.y), [137.4, 137.4], 'one baseline: one row');
  t.equal(out[1]!.text, '\u0652', 'the mark keeps its text and place');
  // A mark over nothing, or a line away, stays where it is.
  t.equal(attachAccents([item('لا', 100, 137.4, 14, { dir: 'rtl', w: 10.6 }), sukun])[1]!.y, 132.8);
  t.equal(attachAccents([{ ...letters, y: 150 }, sukun])[1]!.y, 132.8);
});

t.test('real document: Arabic with harakat from Writer, a raised sukun kept in its word', async (t) => {
  const pdf = join(repoRoot, 'bench/corpus/marks/ar-lo-harakat.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--blank-lines', pdf]);
  t.equal(code, 0);
  const paragraphs = stdout.trim().split(/\n\s*\n/u);
  t.equal(paragraphs.length, 5, 'the title and four paragraphs, no paragraph of a mark alone');
  t.ok(collapse(stdout).includes('الْأَطْفَالُ'), 'the sukun on its lam');
});
