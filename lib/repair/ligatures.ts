/**
 * Ligature damage, checked against known words (the document's own words and a word list): a
 * space next to a ligature's letters removed when the joined word is known and the parts are not
 * ("ef ficient"); letters swallowed by a ligature put back when exactly one of ff fi fl ffi ffl
 * makes an unknown word known ("eects" → "effects"); a soft hyphen put back at the end of a line
 * whose last word and the next line's first make one known word ("Ef" | "ficient").
 */
import type { Line } from '../protocol/records.js';
import { Rewriter, type Tally } from './rewrite.js';

/** Share of a document's distinct words a word list must have for the list to apply to it. */
export const WORD_LIST_SHARE = 0.6;
/** Words a document needs before the absence of ff/fi/fl in it says that ligatures were lost… */
export const LIGATURE_EVIDENCE_WORDS = 100;
/** …and the share of words with ff, fi or fl below which they were. */
export const LIGATURE_LOST_SHARE = 0.003;
const LIGATURE_END = /(?:ff|fi|fl|ffi|ffl|f)$/u;
const LIGATURE_START = /^(?:ff|fi|fl|ffi|ffl)/u;
const INSERTS = ['ff', 'fi', 'fl', 'ffi', 'ffl'];

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** Known words: the document's own (with counts) and an optional word list. */
export class Vocabulary {
  readonly counts = new Map<string, number>();
  constructor(readonly list: ReadonlySet<string> | null) {}
  addText(text: string): void {
    if (isAscii(text)) {
      // The same words without the expression: runs of ASCII letters.
      for (let i = 0; i < text.length; ) {
        if (!isAsciiLetter(text.charCodeAt(i))) {
          i++;
          continue;
        }
        let end = i + 1;
        while (end < text.length && isAsciiLetter(text.charCodeAt(end))) end++;
        this.count(text.slice(i, end).toLowerCase());
        i = end;
      }
      return;
    }
    for (const w of text.match(/\p{L}+/gu) ?? []) this.count(w.toLowerCase());
  }
  private count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  /**
   * A word is known when the list has it; with no list, when the document uses it at least twice
   * (once is the damaged occurrence itself).
   */
  known(word: string): boolean {
    const key = word.toLowerCase();
    if (this.list) return this.list.has(key);
    return (this.counts.get(key) ?? 0) >= 2;
  }
  /**
   * A joined word is known when the list has it; with no list, when the document writes it whole
   * at least twice (a code listing that lost its spaces writes "ifctx" too, once).
   */
  knownWhole(word: string): boolean {
    const key = word.toLowerCase();
    if (this.list) return this.list.has(key);
    return (this.counts.get(key) ?? 0) >= 2;
  }
}

/** The `ligature-space` and `ligature-swallowed` rules on one line. */
export function ligatureRules(line: Rewriter, vocab: Vocabulary, disabled: ReadonlySet<string>, afterHyphen = false, ligaturesLost = false): void {
  if (!disabled.has('ligature-space')) {
    const joinable = (parts: string[]): boolean =>
      !parts.every((p) => vocab.known(p)) && vocab.knownWhole(parts.join(''));
    // Both rules need a space before an f, or after an f, fi or fl; most lines have none, and
    // the expressions, tried at every word, are slow.
    const spaceNextToF = (text: string): boolean => text.includes(' f') || text.includes('f ') || text.includes('fi ') || text.includes('fl ');
    // A ligature standing alone between two pieces of a word: "de fi nition".
    if (line.text.includes(' f')) line.replace(/(?<!\p{L})(\p{Script=Latin}+) (ffi|ffl|ff|fi|fl) (\p{Script=Latin}+)(?!\p{L})/gu, (m) => {
      const parts = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
      return joinable(parts) ? parts.join('') : null;
    }, 'ligature-space');
    // A space before or after a ligature's letters: "ef ficient", "offi cial". The right-hand word
    // is only looked at, so that each space is tried.
    if (spaceNextToF(line.text)) line.replace(/(?<!\p{L})(\p{Script=Latin}+) (?=(\p{Script=Latin}+)(?!\p{L}))/gu, (m) => {
      const left = m[1] ?? '';
      const right = m[2] ?? '';
      if (!LIGATURE_END.test(left) && !LIGATURE_START.test(right)) return null;
      if (!/^\p{Ll}/u.test(right)) return null;
      return joinable([left, right]) ? left : null;
    }, 'ligature-space');
  }
  if (ligaturesLost && !disabled.has('ligature-swallowed')) {
    // Pieces of a word hyphenated across lines are not words: the last word before a line-end
    // hyphen and the first word after one are left alone.
    // Lower-case words between spaces (or quotes, brackets, sentence punctuation) only: not names,
    // not code ("sort.Ints", "(res").
    line.replace(/(?<=^|[\s("“‘])\p{Ll}{3,}(?=$|[\s,.;:!?)"”’])/gu, (m) => {
      const word = m[0];
      if (afterHyphen && m.index === line.text.search(/\p{L}/u)) return null;
      if (/f[fil]/u.test(word)) return null;
      // Unknown to the list (or, with no list, rarer than the candidate in the document).
      if (vocab.list ? vocab.known(word) : false) return null;
      const found = new Set<string>();
      for (let i = 0; i <= word.length; i++) {
        for (const lig of INSERTS) {
          const candidate = word.slice(0, i) + lig + word.slice(i);
          const inDoc = vocab.counts.get(candidate.toLowerCase()) ?? 0;
          const ok = vocab.list ? vocab.known(candidate) : inDoc > (vocab.counts.get(word.toLowerCase()) ?? 0);
          if (ok) found.add(candidate);
        }
      }
      return found.size === 1 ? [...found][0]! : null;
    }, 'ligature-swallowed');
  }
}

/**
 * A word broken across two lines whose soft hyphen the generator dropped ("Ef" | "ficient"): the
 * first line gets its soft hyphen back, so that joining the lines joins the word. Only when the
 * joined word is in the word list and the two pieces are not both words.
 */
export function markLostSoftHyphens(lines: Line[], vocab: Vocabulary, tally: Tally): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1]!;
    if (next.block !== line.block || next.role !== line.role) continue;
    const left = /(?<![\p{L}\p{M}\-\u00ad])(\p{Script=Latin}+)$/u.exec(line.text)?.[1];
    const right = /^(\p{Ll}+)(?![\p{L}\-])/u.exec(next.text)?.[1];
    if (!left || !right) continue;
    if ((vocab.known(left) && vocab.known(right)) || !vocab.list?.has((left + right).toLowerCase())) continue;
    const rw = new Rewriter(line.text, line.inferred, tally);
    rw.apply([{ start: line.text.length, end: line.text.length, text: '\u00ad' }], 'lost-soft-hyphen');
    lines[i] = { ...line, text: rw.text, inferred: rw.marks };
  }
}
