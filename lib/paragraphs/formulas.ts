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
