/**
 * Language identification for blocks of text, on franc's trigram profiles (187 languages).
 *
 * franc answers `und` under 10 characters and reads only the first 2048, and on short Latin text
 * it often prefers a small language over a big one ("sco" for English). So: candidates are limited
 * to a list of widely written languages (overridable), a prior language (the document's, or the
 * PDF's /Lang) wins when franc rates it close to its best guess, and a block too short to judge
 * takes the prior of its script, or `und`. Codes are ISO 639-1 where one exists, else ISO 639-3.
 */
import { franc } from 'franc';
import { data as profilesByScript } from 'franc/data.js';
import { expressions as scriptExpressions } from 'franc/expressions.js';
import { iso6393 } from 'iso-639-3';

const TO_639_1 = new Map<string, string>();
const TO_639_3 = new Map<string, string>();
for (const entry of iso6393) {
  if (entry.iso6391) {
    TO_639_1.set(entry.iso6393, entry.iso6391);
    TO_639_3.set(entry.iso6391, entry.iso6393);
  }
}
// franc answers members of macrolanguages (Standard Arabic, Mandarin, Iranian Persian…); their
// 639-1 code is the macrolanguage's, and a 639-1 code stands for the member franc has a profile of.
const MEMBERS: Record<string, string> = {
  arb: 'ar', cmn: 'zh', pes: 'fa', zlm: 'ms', ekk: 'et', lvs: 'lv', azj: 'az', uzn: 'uz', khk: 'mn', npi: 'ne',
  swh: 'sw', ydd: 'yi', plt: 'mg', als: 'sq', pbu: 'ps', quy: 'qu', ckb: 'ku', ayr: 'ay',
};
for (const [member, code] of Object.entries(MEMBERS)) {
  TO_639_1.set(member, code);
  TO_639_3.set(code, member);
}

/** ISO 639-1 for an ISO 639-3 code when there is one, else the code itself ("und" stays "und"). */
export function toIso6391(code: string): string {
  return TO_639_1.get(code) ?? code;
}

/** The franc (ISO 639-3) code for a 639-1 or 639-3 code, or null when it is unknown. */
export function toFrancCode(code: string): string | null {
  // Every block's decision asks for the same few codes; a code without a 639-1 form is otherwise
  // looked for through the whole 639-3 table each time.
  let franc = FRANC_CODES.get(code);
  if (franc === undefined) {
    const lower = code.toLowerCase().split(/[-_]/)[0] ?? '';
    if (TO_639_3.has(lower)) franc = TO_639_3.get(lower)!;
    else if (/^[a-z]{3}$/.test(lower) && (TO_639_1.has(lower) || iso6393.some((e) => e.iso6393 === lower))) franc = lower;
    else franc = null;
    if (FRANC_CODES.size < 4096) FRANC_CODES.set(code, franc);
  }
  return franc;
}

const FRANC_CODES = new Map<string, string | null>();

/** True when `code` is a language code this module knows (ISO 639-1 or 639-3, e.g. "en", "eng", "en-GB"). */
export function isKnownLanguage(code: string): boolean {
  return toFrancCode(code) !== null;
}

/**
 * The default candidates: the languages of the EU, the big written languages of the world, and
 * the common languages of the web, all of which franc has profiles for.
 */
export const DEFAULT_CANDIDATES: readonly string[] = [
  'en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'da', 'sv', 'nb', 'nn', 'fi', 'et', 'lv', 'lt', 'pl', 'cs', 'sk', 'sl',
  'hr', 'sr', 'bs', 'hu', 'ro', 'bg', 'el', 'ga', 'mt', 'ca', 'eu', 'gl', 'cy', 'is', 'sq', 'mk', 'uk', 'be', 'ru',
  'tr', 'az', 'kk', 'uz', 'ka', 'hy', 'he', 'yi', 'ar', 'fa', 'ur', 'ps', 'ku', 'hi', 'mr', 'ne', 'bn', 'pa', 'gu',
  'ta', 'te', 'kn', 'ml', 'si', 'th', 'lo', 'km', 'my', 'vi', 'id', 'ms', 'tl', 'zh', 'ja', 'ko', 'mn', 'sw', 'am',
  'ha', 'yo', 'ig', 'zu', 'xh', 'af', 'so', 'eo', 'la',
];

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

const LETTER = /\p{L}/u;

/** The number of code points of a text (`[...text].length`), without making the array. */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** Counts the letters of a text (code points), without building an array of them; stops at `enough`. */
export function letterCount(text: string, enough = Infinity): number {
  let letters = 0;
  for (let i = 0; i < text.length && letters < enough; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) letters++;
    } else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      if (LETTER.test(text.slice(i, i + 2))) letters++;
      i++;
    } else {
      let known = IS_LETTER[code]!;
      if (known === 0) IS_LETTER[code] = known = LETTER.test(text[i]!) ? 1 : 2;
      if (known === 1) letters++;
    }
  }
  return letters;
}

/** Per UTF-16 code unit: 1 a letter, 2 not, 0 not looked at yet (a regular expression per character is slow). */
const IS_LETTER = new Uint8Array(0x10000);

/** franc's ranking of a text's candidate languages, made once and read with different priors. */
export interface Judgement {
  /** franc's ranking; with no language when the text is too short to judge. */
  ranking: Ranking;
  /** True when the text is no language (see `garbled`). */
  garbled: boolean;
}

/**
 * franc's ranking of a text: each candidate's distance from the text (lower is closer). A decision
 * needs only the best language and the prior's score, so the list of (code, score) pairs that
 * `francAll` gives, one array per language, is made only when asked for (`list`).
 */
export class Ranking {
  /** The best language's index: the least distance, the first of equals (as a stable sort puts it). */
  private readonly top: number;
  private readonly max: number;

  /** `distances` null: each language scores 1 (a text that only one language, or `und`, fits). */
  constructor(
    private readonly languages: readonly string[],
    private readonly distances: Float64Array | null = null,
    length = 0,
  ) {
    let top = 0;
    if (distances) for (let l = 1; l < distances.length; l++) if (distances[l]! < distances[top]!) top = l;
    this.top = top;
    this.max = distances ? length * MAX_DIFFERENCE - distances[top]! : 0;
  }

  /** The best language and its score (1, or 0 when franc's normalisation divides by zero); undefined for none. */
  get best(): [string, number] | undefined {
    const code = this.languages[this.top];
    return code === undefined ? undefined : [code, this.score(this.top)];
  }

  /** A language's score, normalised as franc does; undefined when it is no candidate. */
  scoreOf(code: string): number | undefined {
    const l = this.languages.indexOf(code);
    return l < 0 ? undefined : this.score(l);
  }

  /** francAll's list: (code, score) pairs, best first. */
  list(): [string, number][] {
    const distances = this.distances;
    if (!distances) return this.languages.map((code): [string, number] => [code, 1]);
    const order = this.languages.map((_, l) => l).sort((a, b) => distances[a]! - distances[b]!);
    return order.map((l): [string, number] => [this.languages[l]!, this.score(l)]);
  }

  private score(l: number): number {
    if (!this.distances) return 1;
    return 1 - (this.distances[l]! - this.distances[this.top]!) / this.max || 0;
  }
}

// franc scores a text against each language of its script by walking the text's trigrams once per
// language, with an object lookup each time: ~0.4 ms a paragraph, which made language
// identification the slowest stage. The same model indexed the other way round — for each
// trigram, its weight in every candidate language — scores all languages in one walk. The
// result is franc's, number for number (test/stages/langid.test.ts checks it against francAll).

/** franc's largest penalty, for a trigram missing from a language's profile. */
const MAX_DIFFERENCE = 300;
/** franc reads this many characters. */
const MAX_LENGTH = 2048;

/**
 * The candidate languages of one script, and for each trigram the languages whose profiles hold
 * it, with its weight there: pairs (language index, weight) packed flat. Most trigrams are in a
 * few profiles, so a text's walk touches only those.
 */
interface ScriptIndex {
  languages: string[];
  weights: Map<number, number[]>;
}

/**
 * A small number for each UTF-16 code unit of franc's profiles (about 500 of them), 0 for any
 * other: a trigram of profile characters is then one small integer (`trigramKey`), which a map
 * finds faster than a three-character string that has to be cut out of the text first. A trigram
 * with any other character is in no profile.
 */
const CHAR_IDS = new Uint16Array(0x10000);
let charIds = 0;
for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
  for (const trigrams of Object.values(languages)) {
    for (let i = 0; i < trigrams.length; i++) {
      const code = trigrams.charCodeAt(i);
      if (code !== 0x7c && CHAR_IDS[code] === 0) CHAR_IDS[code] = ++charIds;
    }
  }
}
if (charIds >= 1 << 10) throw new Error(`franc's profiles have ${charIds} characters, more than a trigram key holds`);

/** The key of the trigram at `i` in `text` (profiles hold three code units a trigram), or -1 when a character is in no profile. */
function trigramKey(text: string, i: number): number {
  const a = CHAR_IDS[text.charCodeAt(i)]!;
  const b = CHAR_IDS[text.charCodeAt(i + 1)]!;
  const c = CHAR_IDS[text.charCodeAt(i + 2)]!;
  return a === 0 || b === 0 || c === 0 ? -1 : (a << 20) | (b << 10) | c;
}

const scriptIndexes = new Map<string, ScriptIndex | null>();

/** The index for one script and one candidate list (empty: all of franc's), built on first use. */
function scriptIndex(script: string, only: readonly string[]): ScriptIndex | null {
  const cacheKey = `${script}|${listKey(only)}`;
  if (scriptIndexes.has(cacheKey)) return scriptIndexes.get(cacheKey)!;
  const profiles = (profilesByScript as Record<string, Record<string, string>>)[script];
  let index: ScriptIndex | null = null;
  if (profiles) {
    const languages = Object.keys(profiles).filter((code) => only.length === 0 || only.includes(code));
    const weights = new Map<number, number[]>();
    languages.forEach((code, l) => {
      // franc's weight of a trigram is its position in the profile, most frequent first.
      profiles[code]!.split('|').forEach((trigram, weight) => {
        const key = trigramKey(trigram, 0);
        const row = weights.get(key);
        if (row) row.push(l, weight);
        else weights.set(key, [l, weight]);
      });
    });
    index = { languages, weights };
  }
  scriptIndexes.set(cacheKey, index);
  return index;
}

const scriptTesters = Object.entries(scriptExpressions as Record<string, RegExp>).map(
  ([script, expression]): [string, RegExp] => [script, new RegExp(`^(?:${expression.source})$`, expression.flags.replace('g', ''))],
);
/** The scripts of each code point seen so far, by code point (an array: no string made per character). */
const scriptsOfChar: (number[] | undefined)[] = [];

/**
 * The script (franc's name) most of a text's characters are in, with its share: franc's rule,
 * counted a character at a time from a memo instead of one regular-expression pass per script.
 */
function topScript(text: string): [string | undefined, number] {
  const counts = new Array<number>(scriptTesters.length).fill(0);
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    let scripts = scriptsOfChar[code];
    if (!scripts) {
      const char = String.fromCodePoint(code);
      scripts = [];
      for (let s = 0; s < scriptTesters.length; s++) if (scriptTesters[s]![1].test(char)) scripts.push(s);
      scriptsOfChar[code] = scripts;
    }
    for (const s of scripts) counts[s]!++;
  }
  let top: string | undefined;
  let topShare = -1;
  scriptTesters.forEach(([script], s) => {
    const share = counts[s]! / text.length || 0;
    if (share > topShare) {
      topShare = share;
      top = script;
    }
  });
  return [top, topShare];
}

/** A text's trigrams, as `trigramCounts` counts them. */
export interface Trigrams {
  /** Counts of the trigrams made of profile characters, by `trigramKey`. */
  known: TrigramTable;
  /** The other trigrams: in no profile, so only how many differ matters. */
  unknown: Set<string>;
  /** Trigrams counted, repeats included. */
  total: number;
}

/** A text's letter trigrams and their counts, cleaned and padded as franc does. */
function trigramCounts(text: string): Trigrams {
  const clean = ` ${text.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()} `;
  const total = Math.max(0, clean.length - 2);
  const known = new TrigramTable(total);
  const unknown = new Set<string>();
  for (let i = 0; i + 3 <= clean.length; i++) {
    const key = trigramKey(clean, i);
    if (key >= 0) known.add(key);
    else unknown.add(clean.slice(i, i + 3));
  }
  return { known, unknown, total };
}

/**
 * Counts of trigram keys (positive integers below 2³⁰) in a hash table of typed arrays, sized for
 * the trigrams of one text: counting a text's trigrams in a Map was the stage's largest cost.
 * Slots are read in table order (`keys[s]` 0 for an empty slot); the order of the sums made over
 * them does not matter, they are sums of integers.
 */
class TrigramTable {
  readonly keys: Int32Array;
  readonly counts: Int32Array;
  /** How many different keys. */
  size = 0;
  private readonly shift: number;

  constructor(most: number) {
    let bits = 4;
    while (1 << bits < 2 * most) bits++;
    this.keys = new Int32Array(1 << bits);
    this.counts = new Int32Array(1 << bits);
    this.shift = 32 - bits;
  }

  add(key: number): void {
    const mask = this.keys.length - 1;
    for (let s = Math.imul(key, 0x9e3779b1) >>> this.shift; ; s = (s + 1) & mask) {
      if (this.keys[s] === key) {
        this.counts[s]!++;
        return;
      }
      if (this.keys[s] === 0) {
        this.keys[s] = key;
        this.counts[s] = 1;
        this.size++;
        return;
      }
    }
  }
}

/**
 * franc's `francAll` over `only` (franc codes; empty: all): (code, score) pairs, best first,
 * scores normalised as franc does (1 for the best); [['und', 1]] when it cannot tell.
 */
export function rankLanguages(value: string, only: readonly string[], minLength = 10, counts?: Trigrams): [string, number][] {
  return rank(value, only, minLength, counts).list();
}

const UND = new Ranking(['und']);
const NO_LANGUAGE = new Ranking([]);

/** `rankLanguages` as a Ranking; `counts`: the text's trigrams when already counted. */
function rank(value: string, only: readonly string[], minLength = 10, counts?: Trigrams): Ranking {
  if (value.length < minLength) return UND;
  const text = value.slice(0, MAX_LENGTH);
  const [script, share] = topScript(text);
  const index = script ? scriptIndex(script, only) : null;
  if (!index) {
    // A script with one language (franc names the script by it), or none.
    if (!script || share === 0 || (only.length > 0 && !only.includes(script))) return UND;
    return new Ranking([script]);
  }
  if (index.languages.length === 0) return UND;
  // Every trigram costs every language MAX_DIFFERENCE, less what it saves where the profile has it.
  const distances = new Float64Array(index.languages.length);
  const { known, unknown } = counts && value.length <= MAX_LENGTH ? counts : trigramCounts(text);
  const trigrams = known.size + unknown.size;
  for (let s = 0; s < known.keys.length; s++) {
    const trigram = known.keys[s]!;
    if (trigram === 0) continue;
    const count = known.counts[s]!;
    const row = index.weights.get(trigram);
    if (!row) continue;
    for (let i = 0; i < row.length; i += 2) {
      const l = row[i]!;
      distances[l] = distances[l]! - MAX_DIFFERENCE + Math.abs(count - row[i + 1]! - 1);
    }
  }
  for (let l = 0; l < distances.length; l++) distances[l] = distances[l]! + trigrams * MAX_DIFFERENCE;
  return new Ranking(index.languages, distances, text.length);
}

/** A list's items joined, once per list object: the same list comes with every block of a document. */
const listKeys = new WeakMap<readonly string[], string>();
function listKey(list: readonly string[]): string {
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, (key = list.join(',')));
  return key;
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
  const ranking = rank(sample, onlyOf(candidates), 10, counts);
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

const PROFILES = new Map<string, Set<number>>();
for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
  for (const [code, trigrams] of Object.entries(languages)) PROFILES.set(code, new Set(trigrams.split('|').map((t) => trigramKey(t, 0))));
}

/** Share of a text's letter trigrams (franc's padding and lower-casing) found in a language's profile. */
export function profileCoverage(text: string, code: string, counts = trigramCounts(text)): number | null {
  const profile = PROFILES.get(code);
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

/** franc's plain answer for a text (639-3), for callers that want no candidates or priors. */
export function francCode(text: string): string {
  return franc(text, { minLength: 10 });
}

/** The Unicode script class of a text, by its letters: the writing system most of them belong to. */
export type ScriptClass = 'Latin' | 'Cyrillic' | 'Greek' | 'Arabic' | 'Hebrew' | 'Han' | 'Kana' | 'Hangul' | 'Thai' | 'Devanagari' | 'Other';

const SCRIPTS: [ScriptClass, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Han', /\p{Script=Han}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];

/** The script of one character, or null for a non-letter. */
export function scriptOf(char: string): ScriptClass | null {
  const code = char.charCodeAt(0);
  // ASCII answers at once; anything else is looked up once per distinct character.
  if (char.length === 1 && code < 0x80) return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? 'Latin' : null;
  let script = SCRIPT_OF_CHAR.get(char);
  if (script === undefined) {
    script = /\p{L}|\p{M}/u.test(char) ? (SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? 'Other') : null;
    if (SCRIPT_OF_CHAR.size < 65536) SCRIPT_OF_CHAR.set(char, script);
  }
  return script;
}

const SCRIPT_OF_CHAR = new Map<string, ScriptClass | null>();

/** The script of a letter (not a mark), or null. */
export function letterScript(char: string): ScriptClass | null {
  const code = char.charCodeAt(0);
  // As in scriptOf: ASCII at once, anything else looked up once per distinct character.
  if (char.length === 1 && code < 0x80) return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? 'Latin' : null;
  let script = LETTER_SCRIPT_OF_CHAR.get(char);
  if (script === undefined) {
    script = LETTER.test(char) ? scriptOf(char) : null;
    if (LETTER_SCRIPT_OF_CHAR.size < 65536) LETTER_SCRIPT_OF_CHAR.set(char, script);
  }
  return script;
}

const LETTER_SCRIPT_OF_CHAR = new Map<string, ScriptClass | null>();

/** The script most letters of a text are written in, or null when it has none. */
export function dominantScript(text: string): ScriptClass | null {
  const counts = new Map<ScriptClass, number>();
  for (const char of text) {
    const script = letterScript(char);
    if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  // Japanese text mixes Kana and Han: any Kana makes it Kana.
  if ((counts.get('Kana') ?? 0) > 0 && (counts.get('Han') ?? 0) > 0) {
    counts.set('Kana', (counts.get('Kana') ?? 0) + (counts.get('Han') ?? 0));
    counts.delete('Han');
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** A run of text in one script inside a longer text (UTF-16 offsets, end exclusive). */
export interface ScriptRun {
  start: number;
  end: number;
  script: ScriptClass;
}

/**
 * Runs of letters in `script` inside a text, including the spaces and punctuation between words
 * of the same run ("The Economist"), trimmed to letters at both ends.
 */
export function runsOfScript(text: string, script: ScriptClass): ScriptRun[] {
  const runs: ScriptRun[] = [];
  let start = -1;
  let end = -1;
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    const charScript = scriptOf(char);
    if (charScript === script) {
      if (start < 0) start = i;
      end = i + char.length;
    } else if (charScript !== null || /[\n]/.test(char)) {
      if (start >= 0) runs.push({ start, end, script });
      start = -1;
    }
    i += char.length;
  }
  if (start >= 0) runs.push({ start, end, script });
  return runs;
}
