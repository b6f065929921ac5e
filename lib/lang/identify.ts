/**
 * Language identification for blocks of text, on franc's trigram profiles (187 languages).
 *
 * franc answers `und` under 10 characters and reads only the first 2048, and on short Latin text
 * it often prefers a small language over a big one ("sco" for English). So: candidates are limited
 * to a list of widely written languages (overridable), a prior language (the document's, or the
 * PDF's /Lang) wins when franc rates it close to its best guess, and a block too short to judge
 * takes the prior of its script, or `und`. Codes are ISO 639-1 where one exists, else ISO 639-3.
 */
import { data as profilesByScript } from 'franc/data.js';
import { foreignAlphabets, hasAlphabet } from './alphabets.js';
import { toFrancCode, toIso6391 } from './codes.js';
import { LETTER, letterCount } from './scripts.js';
import { listKey, NO_LANGUAGE, rank, rankLanguages, trigramCounts, trigramKey, type Ranking, type Trigrams } from './trigrams.js';

/** Options of `identify`. */
export interface IdentifyOptions {
  /** Candidate languages (639-1 or 639-3); empty means all of franc's. */
  candidates: readonly string[];
  /** A language that wins when franc rates it at least `priorRatio` of its best guess. */
  prior: string | null;
  priorRatio: number;
  /** Texts with fewer letters than this are not judged by franc: they get `fallback`. */
  minLetters: number;
  /** The answer for a text too short to judge. */
  fallback: string;
}

/** franc's ranking of a text's candidate languages, made once and read with different priors. */
export interface Judgement {
  /** franc's ranking; with no language when the text is too short to judge. */
  ranking: Ranking;
  /** True when the text is no language (see `garbled`). */
  garbled: boolean;
}

// The candidate list as franc codes, per distinct list: the same few lists come with every call.
const francCandidates = new Map<string, string[]>();
function onlyOf(candidates: readonly string[]): string[] {
  const key = listKey(candidates);
  let only = francCandidates.get(key);
  if (!only) {
    only = candidates.map(toFrancCode).filter((c): c is string => c !== null);
    francCandidates.set(key, only);
  }
  return only;
}

/**
 * franc's ranking of a text among `candidates` (empty: all of franc's). Samples the text's start,
 * middle and end when it is longer than franc reads.
 */
export function judge(raw: string, candidates: readonly string[], minLetters: number): Judgement {
  // franc reads 2048 characters: a longer text is judged (and checked for garbling) on a sample
  // of its start, middle and end, which also keeps the cost of a whole document's text down.
  const short = raw.length <= 2048 ? raw : `${raw.slice(0, 700)} ${raw.slice(raw.length / 2 - 350, raw.length / 2 + 350)} ${raw.slice(-640)}`;
  // Presentation forms and other compatibility characters are not in franc's profiles.
  const sample = short.normalize('NFKC');
  if (short === raw ? letterCount(sample) < minLetters : letterCount(raw, minLetters) < minLetters) return { ranking: NO_LANGUAGE, garbled: false };
  const counts = trigramCounts(sample);
  const only = onlyOf(candidates);
  let ranking = rank(sample, only, 10, counts);
  // A language whose alphabet lacks letters the text writes again and again is not the text's:
  // looked at only when such a language leads (the scores of the others are relative to the lead).
  if (ranking.best && hasAlphabet(ranking.best[0])) ranking = ranking.without(foreignAlphabets(sample, only));
  const best = ranking.best;
  if (!best || best[0] === 'und') return { ranking: NO_LANGUAGE, garbled: false };
  // franc always names a language; text that is no language (a garbled text layer) must not get one.
  return { ranking, garbled: garbled(sample, best[0], counts) };
}

/** The language a judgement names, given a prior: ISO 639-1 where possible, `fallback` or `und` when it cannot tell. */
export function decide(judgement: Judgement, options: Pick<IdentifyOptions, 'prior' | 'priorRatio' | 'fallback'>): string {
  const best = judgement.ranking.best;
  if (!best) return options.fallback;
  if (judgement.garbled) return 'und';
  const prior = options.prior ? toFrancCode(options.prior) : null;
  if (prior) {
    const priorScore = judgement.ranking.scoreOf(prior);
    if (priorScore !== undefined && priorScore >= options.priorRatio * best[1]) return toIso6391(prior);
  }
  return toIso6391(best[0]);
}

/** The language of a text, ISO 639-1 where possible, or `fallback`/`und` when it cannot be told. */
export function identify(raw: string, options: IdentifyOptions): string {
  return decide(judge(raw, options.candidates, options.minLetters), options);
}

// franc's trigram profiles as key sets, built on first use: a process that reads options only
// (the main thread of `extract`) never pays for them.
let profiles: Map<string, Set<number>> | null = null;
function profileOf(code: string): Set<number> | undefined {
  if (!profiles) {
    profiles = new Map();
    for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
      for (const [language, trigrams] of Object.entries(languages)) profiles.set(language, new Set(trigrams.split('|').map((t) => trigramKey(t, 0))));
    }
  }
  return profiles.get(code);
}

/** Share of a text's letter trigrams (franc's padding and lower-casing) found in a language's profile. */
export function profileCoverage(text: string, code: string, counts = trigramCounts(text)): number | null {
  const profile = profileOf(code);
  if (!profile) return null;
  let hits = 0;
  const { keys, counts: known } = counts.known;
  for (let s = 0; s < keys.length; s++) if (keys[s] !== 0 && profile.has(keys[s]!)) hits += known[s]!;
  return counts.total === 0 ? 0 : hits / counts.total;
}

/** Below this share of profile trigrams, a text is not in the language franc picked (real text: 0.25 and up). */
const MIN_COVERAGE = 0.06;

/**
 * True when a text cannot be language: almost none of its trigrams are in the profile of the
 * language franc picked (text decoded with the wrong 8-bit table), or, in a cased script, a
 * third of its words switch from lower to upper case inside the word (glyphs mapped to the
 * wrong letters).
 */
export function garbled(text: string, code: string, counts?: Trigrams): boolean {
  const coverage = profileCoverage(text, code, counts);
  if (coverage !== null && coverage < MIN_COVERAGE) return true;
  // The words are the runs of letters of three or more UTF-16 code units; a word switches when a
  // lower-case letter is followed by a capital. Counted in one walk over the text.
  let words = 0;
  let switching = 0;
  let length = 0;
  let switches = false;
  let afterLower = false;
  for (let i = 0; i <= text.length; ) {
    const point = i < text.length ? text.codePointAt(i)! : -1;
    const kind = point < 0 ? NOT_LETTER : letterCase(point);
    if (kind === NOT_LETTER) {
      if (length >= 3) {
        words++;
        if (switches) switching++;
      }
      length = 0;
      switches = false;
      afterLower = false;
      i++;
      continue;
    }
    if (kind === UPPER && afterLower) switches = true;
    afterLower = kind === LOWER;
    const units = point > 0xffff ? 2 : 1;
    length += units;
    i += units;
  }
  if (words < 3) return false;
  return switching / words > 0.3;
}

const NOT_LETTER = 0;
const LOWER = 1;
const UPPER = 2;
const OTHER_LETTER = 3;
/** Per BMP code point: its letter case + 1, 0 when not looked at yet. */
const LETTER_CASE = new Uint8Array(0x10000);

/** Whether a code point is a letter (\p{L}), and a lower-case (\p{Ll}) or capital (\p{Lu}) one. */
function letterCase(point: number): number {
  if (point < 0x10000 && LETTER_CASE[point] !== 0) return LETTER_CASE[point]! - 1;
  const char = String.fromCodePoint(point);
  const kind = !LETTER.test(char) ? NOT_LETTER : /\p{Ll}/u.test(char) ? LOWER : /\p{Lu}/u.test(char) ? UPPER : OTHER_LETTER;
  if (point < 0x10000) LETTER_CASE[point] = kind + 1;
  return kind;
}

/**
 * franc's plain answer for a text (639-3), for callers that want no candidates or priors: the
 * first of its ranking, as `rankLanguages` makes it (franc's own module builds a table of every
 * profile as it is imported, tens of milliseconds of a worker's start, for this rare call).
 */
export function francCode(text: string): string {
  return rankLanguages(text, [], 10)[0]?.[0] ?? 'und';
}
