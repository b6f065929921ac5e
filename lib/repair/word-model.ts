/**
 * The word model that resegmenting reads: a unigram model per document, built from its own lines
 * (following Tiedemann's pdf2xml) plus optional word lists (`--lexicon`), with the length from
 * which a token is a candidate for splitting and the document's most frequent words.
 */
import { readFileSync } from 'node:fs';
import type { Line } from '../protocol/records.js';
import { UsageError } from '../protocol/options.js';
import { wordsOf } from '../lm/words.js';
import { UnigramModel } from '../lm/unigram.js';
import { codePoints } from '../lang/scripts.js';

/** Scripts written without spaces between words: their lines are never resegmented. */
export const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Longer than the longest words of any language (German compounds run to about 60 letters). */
const MAX_WORD = 64;

/** The words a lexicon file adds: a word list (hunspell `.dic` flags dropped) or running text. */
export function readLexicon(path: string, model: UnigramModel = new UnigramModel()): UnigramModel {
  const text = readFileSync(path, 'utf8');
  const lines = text.split(/\r?\n/);
  // A hunspell .dic starts with the word count; its entries carry /FLAGS.
  const dic = /^\d+\s*$/.test(lines[0] ?? '');
  for (const [i, line] of lines.entries()) {
    if (dic && i === 0) continue;
    const entry = dic ? line.split('/')[0]! : line;
    for (const w of wordsOf(entry)) model.add(w, 1);
  }
  return model;
}

/** What the search knows about one document. */
export interface DocumentModel {
  unigram: UnigramModel;
  /** Words known from a lexicon, whatever the document says. */
  lexicon: UnigramModel | null;
  /** Tokens at least this long are candidates for splitting. */
  longWord: number;
  /** The document's most frequent words. */
  common: ReadonlySet<string>;
}

/**
 * Builds the document's model: counts of its words, with a word broken by a line-end hyphen counted
 * in its joined form, and long words seen only once left out (they may be glued words).
 */
export function documentModel(lines: readonly Line[], lexicon: UnigramModel | null = null): DocumentModel {
  const tokens: string[] = [];
  let carry = '';
  for (const [i, line] of lines.entries()) {
    if (UNSPACED.test(line.text)) continue;
    const words = wordsOf(line.text);
    if (carry && words.length > 0 && lines[i - 1]?.block === line.block) words[0] = carry + words[0];
    else if (carry) tokens.push(carry);
    carry = '';
    if (/\p{L}[-\u00ad\u2010]$/u.test(line.text) && words.length > 0) carry = words.pop()!.replace(/[-\u00ad\u2010]+$/u, '');
    for (const word of words) tokens.push(word);
  }
  if (carry) tokens.push(carry);
  const raw = new Map<string, number>();
  for (const w of tokens) raw.set(w, (raw.get(w) ?? 0) + 1);
  // Long words: longer than any word the document uses twice, and at least 14 letters. A repeated
  // "word" longer than any language's (a row of thousands of letters in a hostile file) does not
  // count: the searches below cost the run's length times this, squared for such a row.
  let longWord = 14;
  for (const [w, c] of raw) if (c > 1) longWord = Math.max(longWord, Math.min(codePoints(w) + 1, MAX_WORD));
  const unigram = new UnigramModel();
  for (const [w, c] of raw) if (c > 1 || codePoints(w) < longWord) unigram.add(w, c);
  if (lexicon) for (const w of lexicon.counts.keys()) unigram.add(w, 1);
  const common = new Set(
    [...unigram.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 100)
      .map(([w]) => w),
  );
  return { unigram, lexicon, longWord, common };
}

/** Loads `--lexicon` files; throws UsageError when one cannot be read. */
export function loadLexicon(spec: string): UnigramModel | null {
  if (!spec) return null;
  const model = new UnigramModel();
  for (const path of spec.split(',').filter(Boolean)) {
    try {
      readLexicon(path, model);
    } catch (error) {
      throw new UsageError(`--lexicon ${path} cannot be read: ${(error as Error).message}`);
    }
  }
  return model;
}
