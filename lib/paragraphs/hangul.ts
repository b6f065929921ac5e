/**
 * Line breaks inside Korean words. Korean writes spaces between its words (eojeol), but Chromium
 * and xeCJK break a line between any two syllables, so a line end is a space or nothing, and the
 * page keeps no trace of which: the space at a break is not drawn. Writer breaks only at spaces.
 *
 * First, the producer: a paragraph's line that had room for the next line's first syllable and a
 * space, yet left it for the next line, was broken by a producer that breaks only at spaces
 * (`roomForNextSyllable`); then every line end of the document is a space. Else a break is taken
 * as one word or two by which the document's own words make likelier (`joinEvidence`): words as
 * long as the halves written together against words as long as each half, and the syllables at
 * the break where the document writes them (a word's end or not, its start or not). Korean words
 * end in a small set of particles and endings that recur all through a text, and their lengths
 * cluster at two to four syllables, so a break that leaves a lone syllable on either side is
 * mostly inside a word, and one after a particle mostly between two. A short document shows most
 * of its stems once: behind its counts stand the language's (lib/paragraphs/hangul-prior.ts),
 * where each syllable stands in the words of Korean prose at large, and which pairs of syllables
 * it writes together ("시간") or apart ("잊지 못할"); and a longer word of its list that the break
 * cuts ("우체 | 국을") joins it.
 *
 *     아이들은 모래성 | 을 쌓고    words of 4 syllables are common, of 1 rare; "을" ends words
 *   → 아이들은 모래성을 쌓고
 *     방파제에 | 앉아 바다       a word of 6 syllables would be the document's longest
 *   → 방파제에 앉아 바다
 */
import type { Item, Line } from '../protocol/records.js';
import { hangulPrior, type HangulPrior, type Tally } from './hangul-prior.js';

const HANGUL = /^\p{Script=Hangul}+$/u;
const HANGUL_SYLLABLE = /\p{Script=Hangul}/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

/** The document's Korean words, where each syllable stands in them, and how its lines break. */
export interface HangulWords {
  words: Map<string, number>;
  /** Syllable → how often it ends a word, and how often it stands in one but not at its end. */
  ends: Map<string, number>;
  notEnds: Map<string, number>;
  /** Syllable → how often it starts a word, and how often it stands in one but not at its start. */
  starts: Map<string, number>;
  notStarts: Map<string, number>;
  /** Word length in syllables → how many of the document's whole words have it. */
  lengths: Map<number, number>;
  /** The producer breaks lines only at spaces (a line had room for the next one's first syllable). */
  spacesOnly: boolean;
  /** Inside lines, Hangul right after a Latin letter or digit ("5월", "SNS에"), and after one and a space ("KTX 대신"). */
  attachedAfterOther: number;
  spacedAfterOther: number;
}

const bump = <K>(m: Map<K, number>, key: K): void => {
  m.set(key, (m.get(key) ?? 0) + 1);
};

/**
 * The Korean words of a document's lines, and where their syllables stand. A line's first and last
 * words may be halves: they are no words, and their syllables count only at the edges a space
 * shows (the first word's end, the last word's start) and inside.
 */
export function hangulWords(texts: readonly string[]): HangulWords {
  const found: HangulWords = {
    words: new Map(),
    ends: new Map(),
    notEnds: new Map(),
    starts: new Map(),
    notStarts: new Map(),
    lengths: new Map(),
    spacesOnly: false,
    attachedAfterOther: 0,
    spacedAfterOther: 0,
  };
  for (const text of texts) {
    if (!/\p{Script=Hangul}/u.test(text)) continue;
    for (const [, space] of text.matchAll(OTHER_THEN_HANGUL)) {
      if (space) found.spacedAfterOther += 1;
      else found.attachedAfterOther += 1;
    }
    const tokens = text.trim().split(/\s+/u);
    tokens.forEach((token, t) => {
      const word = token.replace(EDGE_PUNCTUATION, '');
      if (!HANGUL.test(word)) return;
      // A line's first word may have begun on the line before, its last may go on on the next.
      const startKnown = t > 0 || /^[\p{P}\p{S}]/u.test(token);
      const endKnown = t < tokens.length - 1 || /[\p{P}\p{S}]$/u.test(token);
      const syllables = [...word];
      if (startKnown && endKnown) {
        bump(found.words, word);
        bump(found.lengths, syllables.length);
      }
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
export function hangulJoin(text: string, next: string, found: HangulWords, prior: HangulPrior | null = hangulPrior()): string | null {
  const left = TRAILING_HANGUL.exec(text)?.[0];
  const right = LEADING_HANGUL.exec(next)?.[0];
  // A line ending in a Latin letter or digit before one starting with Hangul: as the document
  // writes them inside its lines ("1 | 시간", where it writes "5월"). Even a producer that breaks
  // Hangul only at spaces breaks there, between scripts.
  if (!left && right && OTHER_WORD_END.test(text)) return found.attachedAfterOther > found.spacedAfterOther ? 'hangul-attached' : null;
  if (found.spacesOnly) return null;
  if (!left || !right) return null;
  if (found.words.has(left + right)) return 'hangul-word';
  if (found.words.has(left) && found.words.has(right)) return null;
  if (prior && spansListedWord(left, right, prior.words)) return 'hangul-listed-word';
  // Latin letters or digits written onto the Hangul ("SNS에", "5월") are the word's start: the
  // Hangul is its end, a particle or a counter, not a lone syllable.
  const attached = OTHER_WORD_END.test(text.slice(0, text.length - left.length)) ? 1 : 0;
  return joinEvidence(left, right, found, attached, prior) > 0 ? 'hangul-segments' : null;
}

/**
 * Whether a word of the language's list (three syllables or more) starts with the left half and
 * ends inside the right half: the line broke inside it ("우체 | 국을": "우체국"). The left half
 * starts a word (a space or the line's start stands before it); the right half is more than that
 * word's end (a particle or an ending follows, or another word, which the list cannot tell).
 */
export function spansListedWord(left: string, right: string, words: ReadonlySet<string>): boolean {
  const r = [...right];
  for (let k = 1; k < r.length; k++) if (words.has(left + r.slice(0, k).join(''))) return true;
  return false;
}
const OTHER_WORD_END = /(?!\p{Script=Hangul})[\p{L}\p{Nd}]$/u;
const OTHER_THEN_HANGUL = /(?!\p{Script=Hangul})[\p{L}\p{Nd}]( ?)\p{Script=Hangul}/gu;

/**
 * The counts are smoothed by adding this to each (Jeffreys' add-half): a length or a syllable the
 * document never shows is unlikely, not impossible.
 */
const SMOOTHING = 0.5;

/**
 * The log odds (natural) that the halves `left` | `right` of a line break are one word rather than
 * two, from the document's words: P(length ℓ+r) against P(ℓ)·P(r), times, for the syllable `a`
 * before the break and `b` after it, how much likelier the document writes `a` inside a word than
 * at its end, and `b` inside a word than at its start (each a share of its class: the syllables
 * that end words, those that do not, …). `attached`: Latin letters or digits written onto the
 * left half, counted as one syllable more.
 *
 * With `prior` (Korean at large, lib/paragraphs/hangul-prior.ts), each count of the document is
 * joined by the language's share of it, worth PRIOR_WORDS words (lengths) or syllables: a document
 * that writes a syllable often decides for itself, one that never writes it takes the language's
 * word. And the pair `ab` counts as the language writes it, together or apart, beyond what its
 * syllables alone say (`pairEvidence`).
 */
export function joinEvidence(left: string, right: string, found: HangulWords, attached = 0, prior: HangulPrior | null = null): number {
  const l = [...left];
  const r = [...right];
  const a = l.at(-1)!;
  const b = r[0]!;
  // A word's length counts the letters or digits of another script written onto it as one syllable.
  const leftLength = l.length + attached;
  const bins = Math.max(leftLength + r.length, ...found.lengths.keys()) + 1;
  const syllableTypes = new Set([...found.ends.keys(), ...found.notEnds.keys(), ...found.starts.keys(), ...found.notStarts.keys(), a, b]).size;
  // The document's count of a key and the language's share of PRIOR_WORDS, smoothed over `kinds` keys.
  const logShare = <K>(own: Map<K, number>, language: Tally<K> | undefined, key: K, kinds: number): number => {
    const fromLanguage = language && language.total > 0 ? (PRIOR_WORDS * (language.counts.get(key) ?? 0)) / language.total : 0;
    return Math.log(((own.get(key) ?? 0) + fromLanguage + SMOOTHING) / (sum(own) + (language ? PRIOR_WORDS : 0) + SMOOTHING * kinds));
  };
  const length = (n: number): number => logShare(found.lengths, prior?.lengths, n, bins);
  const lengths = length(leftLength + r.length) - length(leftLength) - length(r.length);
  const before = logShare(found.notEnds, prior?.notEnds, a, syllableTypes) - logShare(found.ends, prior?.ends, a, syllableTypes);
  const after = logShare(found.notStarts, prior?.notStarts, b, syllableTypes) - logShare(found.starts, prior?.starts, b, syllableTypes);
  return lengths + before + after + (prior ? pairEvidence(a, b, prior) : 0);
}

/**
 * The language's counts weigh as much as this many of the document's words (or syllables at a
 * place): a short document's few hundred words outweigh them where it writes a syllable often.
 * The break errors of Korean test documents (Chromium, Pango, XeLaTeX, Writer; 69 documents) were fewest
 * from 25 to 100 words (10: 15% more, 400: 27% more); 50 is in the middle.
 */
const PRIOR_WORDS = 50;
/** A pair's counts are drawn towards what its syllables say by this many pseudo-observations. */
const PAIR_PSEUDO_COUNT = 2;

/**
 * The log odds that the language writes `a` and `b` together rather than apart, beyond what the
 * syllables alone say: the pair's counts, drawn towards the odds its syllables give (each
 * syllable's count inside words against at their edges) by PAIR_PSEUDO_COUNT, against those odds.
 * Zero for a pair the language's counts do not show.
 */
export function pairEvidence(a: string, b: string, prior: HangulPrior): number {
  const together = prior.together.get(a + b) ?? 0;
  const apart = prior.apart.get(a + b) ?? 0;
  if (together + apart === 0) return 0;
  const ratio = (inside: Tally<string>, edge: Tally<string>, s: string): number => ((inside.counts.get(s) ?? 0) + SMOOTHING) / ((edge.counts.get(s) ?? 0) + SMOOTHING);
  // Every boundary inside a word has a syllable before it that ends no word and one after it that
  // starts none; every word space, one that ends a word and one that starts one.
  const odds = ratio(prior.notEnds, prior.ends, a) * ratio(prior.notStarts, prior.starts, b) * (prior.starts.total / prior.notStarts.total);
  const p = odds / (1 + odds);
  return Math.log((together + PAIR_PSEUDO_COUNT * p) / (apart + PAIR_PSEUDO_COUNT * (1 - p))) - Math.log(odds);
}

function sum<K>(m: Map<K, number>): number {
  let total = 0;
  for (const n of m.values()) total += n;
  return total;
}

/**
 * Whether a line of this paragraph (its lines in order, left to right, and the page's items) had
 * room for the next line's first syllable and a word space, yet left them for the next line: a
 * producer that may break between any two syllables would have set that syllable on the line, so
 * this one breaks only at spaces. A line's room is what the paragraph's widest line reaches past
 * it, plus what its word gaps are wider than the paragraph's natural space (justified text), plus
 * its gaps between runs inside words:
 *
 *     |여름이 되면 작은 바닷가 마을은 관광객으로 가득  |   room ≥ 쌓 + space: breaks only at spaces
 *     |쌓고 어른들은 파라솔 아래에서 …                 |
 *
 * The natural space is the narrowest of the lines' mean word gaps (a paragraph's last line is not
 * stretched); a syllable's advance is the paragraph's mean over its runs of Hangul (Hangul
 * syllables share one advance in a font), and punctuation that must follow the next line's first
 * syllable is counted a syllable wide. All of these err towards less room, so towards no proof.
 */
export function roomForNextSyllable(lines: readonly Line[], items: readonly Item[]): boolean {
  if (lines.length < 2 || lines.some((line) => line.dir !== 'ltr')) return false;
  const runs = lines.map((line) =>
    items
      .filter((item) => item.block === line.block && item.angle === undefined && Math.abs(item.y - line.base) <= LINE_BASE_TOLERANCE * line.size && item.x >= line.box.x - 0.5 && item.x + item.w <= line.box.x + line.box.w + 0.5)
      .sort((a, b) => a.x - b.x),
  );
  let hangulWidth = 0;
  let hangulCount = 0;
  for (const run of runs.flat()) {
    if (!HANGUL.test(run.text)) continue;
    hangulWidth += run.w;
    hangulCount += [...run.text].length;
  }
  if (hangulCount === 0) return false;
  const syllable = hangulWidth / hangulCount;
  // Per line: the width of its gaps between runs, and how many word spaces its text has.
  const gaps = lines.map((line, i) => {
    const run = runs[i]!;
    const inked = run.reduce((total, item) => total + item.w, 0);
    return { gap: run.length > 0 ? line.box.w - inked : 0, spaces: (line.text.trim().match(/\s+/gu) ?? []).length, runs: run.length };
  });
  const natural = Math.min(...gaps.filter((g) => g.spaces > 0 && g.runs > 1).map((g) => g.gap / g.spaces));
  if (!Number.isFinite(natural)) return false;
  const measure = Math.max(...lines.map((line) => line.box.x + line.box.w));
  return lines.slice(0, -1).some((line, i) => {
    const next = lines[i + 1]!.text.trim();
    if (!HANGUL_SYLLABLE.test(line.text.trim().at(-1) ?? '') || !HANGUL_SYLLABLE.test(next[0] ?? '') || gaps[i]!.runs === 0) return false;
    // The next line's first syllable and the punctuation that may not be parted from it.
    const unit = 1 + (/^.([^\p{L}\p{N}\s]*)/u.exec(next)?.[1]?.length ?? 0);
    const room = measure - (line.box.x + line.box.w) + gaps[i]!.gap - gaps[i]!.spaces * natural;
    return room >= unit * syllable + natural;
  });
}

/** A run stands on a line when its baseline is this × the line's size from the line's. */
const LINE_BASE_TOLERANCE = 0.25;
