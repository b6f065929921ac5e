/**
 * Display formulas set as blocks of their own: they belong to the paragraph they are set in, and
 * their size says nothing about a change of paragraph.
 */
import type { Block } from '../protocol/records.js';

/**
 * A display formula: formula-like without the words of a sentence (at most one lowercase word of
 * 3+ letters), or short and without a letter or digit (symbols, or math glyphs without Unicode).
 */
export function displayFormula(block: Block): boolean {
  const text = block.text.trim();
  if (text.length > 0 && text.length <= 160 && !/[\p{L}\p{N}]/u.test(text)) return true;
  return formulaLike(block) && text.split(/\s+/u).filter((t) => /^\p{Ll}{3,}[.,;:]?$/u.test(t)).length <= 1;
}

/** A block of running text: not formula-like, and at least 20 letters. */
export function prose(block: Block): boolean {
  return !formulaLike(block) && /(?:[^\p{L}]*\p{L}){20}/u.test(block.text);
}

/**
 * A block that reads as a display formula: short, and mostly symbols, digits and one-letter
 * variables rather than words ("Sq = k", "1 − pi q − 1", "(3)").
 */
export function formulaLike(block: Block): boolean {
  const text = block.text.trim();
  if (text.length === 0 || text.length > 160 || block.lines > 4) return false;
  const tokens = text.split(/\s+/u);
  const words = tokens.filter((t) => /^[\p{L}\p{M}]{3,}[.,;:]?$/u.test(t)).length;
  if (/[=<>≤≥±−∑∏∫√∞∂≈≠→]|^\(\d+[a-z]?\)$/u.test(text)) return words <= tokens.length / 2;
  // Or nothing but one- and two-character Latin, Greek or digit tokens: "P q", "X", "i 2".
  return tokens.every((t) => /^[\p{Script=Latin}\p{Script=Greek}\d()]{1,2}$/u.test(t));
}

/** Fonts that set mathematics: TeX's math italic, symbols and extensions, AMS symbols, math faces. */
const MATH_FONT = /^(?:[A-Z]{6}\+)?(?:CMMI|CMSY|CMEX|CMMIB|CMBSY|MSAM|MSBM|EUFM|EUSM|RSFS|STIXMath|CambriaMath|Cambria-Math|Symbol|MT-?Extra|MathematicalPi|Euclid|LMMathItalic|LMMathSymbols|LMMathExtension)/iu;

/**
 * A piece of a display formula that the layout set apart from its line (a fraction's numerator,
 * a sum's limits, an equation number with its right-hand side): short, without a word of four
 * letters or more, and with a sign of math — a math font, an operator or relation, a Greek letter,
 * a prime or dagger, brackets.
 */
export function formulaFragment(block: Block): boolean {
  const text = block.text.trim();
  if (text.length === 0 || text.length > 80 || block.lines > 3) return false;
  if (/\p{L}{4,}/u.test(text.replace(/\b(?:sin|cos|tan|log|exp|lim|max|min|sup|inf|det|arg)\b/gu, ''))) return false;
  return MATH_FONT.test(block.font) || /[=<>≤≥±−+×·∑∏∫√∞∂≈≠→⟨⟩|†′∗^_\p{Script=Greek}]|\(\d+[a-z]?\)$/u.test(text);
}
