/**
 * Line breaks inside Korean words. Korean writes spaces between its words (eojeol), but Chromium
 * and xeCJK break a line between any two syllables, so a line end is a space or nothing. The
 * document tells which from its own words, counted where no line end can have cut them: a break
 * whose halves written together are one of its words is inside a word, one whose halves are both
 * words is between two; else the syllables at the break decide, by the log odds of where the
 * document writes them (each count plus one). Korean words end in a small set of particles and
 * endings that recur all through a text, and begin with stems that vary: a syllable that the
 * document writes inside words and never at a word's start (the particle "을" of 생선을, 달을) is
 * a suffix, and a line that starts with one continues the word before it, unless the document
 * writes the syllable before the break more often at a word's end than inside one. A syllable
 * written only inside words is no such sign at the end of a line (a stem's syllables rarely recur
 * in a short text). Without evidence the break stays a space.
 *
 *     모래성 | 을 쌓고     "을" never starts a word of the document, ends several (생선을, 달을)
 *   → 모래성을 쌓고
 */

const HANGUL = /^\p{Script=Hangul}+$/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** The document's Korean words and where each syllable stands in them. */
export interface HangulWords {
  words: Map<string, number>;
  /** Syllable → how often it ends a word, and how often it stands in one but not at its end. */
  ends: Map<string, number>;
  notEnds: Map<string, number>;
  /** Syllable → how often it starts a word, and how often it stands in one but not at its start. */
  starts: Map<string, number>;
  notStarts: Map<string, number>;
}

const bump = (m: Map<string, number>, key: string): void => {
  m.set(key, (m.get(key) ?? 0) + 1);
};

/**
 * The Korean words of a document's lines, and where their syllables stand. A line's first and last
 * words may be halves: they are no words, and their syllables count only at the edges a space
 * shows (the first word's end, the last word's start) and inside.
 */
export function hangulWords(texts: readonly string[]): HangulWords {
  const found: HangulWords = { words: new Map(), ends: new Map(), notEnds: new Map(), starts: new Map(), notStarts: new Map() };
  for (const text of texts) {
    if (!/\p{Script=Hangul}/u.test(text)) continue;
    const tokens = text.trim().split(/\s+/u);
    tokens.forEach((token, t) => {
      const word = token.replace(EDGE_PUNCTUATION, '');
      if (!HANGUL.test(word)) return;
      // A line's first word may have begun on the line before, its last may go on on the next.
      const startKnown = t > 0 || /^[\p{P}\p{S}]/u.test(token);
      const endKnown = t < tokens.length - 1 || /[\p{P}\p{S}]$/u.test(token);
      if (startKnown && endKnown) bump(found.words, word);
      const syllables = [...word];
      syllables.forEach((s, i) => {
        const last = i === syllables.length - 1;
        if (!last) bump(found.notEnds, s);
        else if (endKnown) bump(found.ends, s);
        if (i > 0) bump(found.notStarts, s);
        else if (startKnown) bump(found.starts, s);
      });
    });
  }
  return found;
}

const TRAILING_HANGUL = /\p{Script=Hangul}+$/u;
const LEADING_HANGUL = /^\p{Script=Hangul}+/u;

/**
 * Whether a line that ends in `text` (Hangul) and a next line that starts with `next` (Hangul) join
 * without a space, and the rule that says so; null when they keep their space.
 */
export function hangulJoin(text: string, next: string, found: HangulWords): string | null {
  const left = TRAILING_HANGUL.exec(text)?.[0];
  const right = LEADING_HANGUL.exec(next)?.[0];
  if (!left || !right) return null;
  if (found.words.has(left + right)) return 'hangul-word';
  if (found.words.has(left) && found.words.has(right)) return null;
  const a = [...left].at(-1)!;
  const b = [...right][0]!;
  const odds = (inside: Map<string, number>, edge: Map<string, number>, s: string): number => Math.log(((inside.get(s) ?? 0) + 1) / ((edge.get(s) ?? 0) + 1));
  return odds(found.notStarts, found.starts, b) > JOIN_EVIDENCE && odds(found.notEnds, found.ends, a) >= 0 ? 'hangul-syllables' : null;
}

/**
 * The log odds (natural) above which a syllable written inside words rather than at their start is
 * a suffix: one sighting inside a word and none at a start (ln 2) is enough.
 */
const JOIN_EVIDENCE = 0.5;
