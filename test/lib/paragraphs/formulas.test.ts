/** Display formulas: formula-like blocks, and those without the words of a sentence. */
import t from 'tap';
import { displayFormula, formulaLike } from '../../../lib/paragraphs/formulas.js';
import { block } from '../../helpers.js';

t.test('formulaLike: equations, symbols and short tokens, not words', async (t) => {
  t.ok(formulaLike(block('Sq = k')), 'an equation');
  t.ok(formulaLike(block('1 − pi q − 1')), 'symbols and one-letter variables');
  t.ok(formulaLike(block('P q')), 'short Latin tokens only');
  t.notOk(formulaLike(block('where q is a real number')), 'words');
  t.notOk(formulaLike(block('ตลาดเช้า')), 'a short Thai block');
  t.notOk(formulaLike(block('Article 5')), 'a heading-like line');
});

t.test('displayFormula: a formula without the words of a sentence', async (t) => {
  t.ok(displayFormula(block('RAB = ∂CΓAB − ∂BΓAC')));
  t.ok(displayFormula(block('\u0012 \u0013')), 'math glyphs without Unicode');
  t.notOk(displayFormula(block('tion M = ν δμ, where ν is the single-electron density of states')), 'prose with a formula in it');
});
