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
  const lower = code.toLowerCase().split(/[-_]/)[0] ?? '';
  if (TO_639_3.has(lower)) return TO_639_3.get(lower)!;
  if (/^[a-z]{3}$/.test(lower) && (TO_639_1.has(lower) || iso6393.some((e) => e.iso6393 === lower))) return lower;
  return null;
}

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
    } else if (LETTER.test(text[i]!)) letters++;
  }
  return letters;
}

/** franc's ranking of a text's candidate languages, made once and read with different priors. */
export interface Judgement {
  /** franc's (ISO 639-3 code, score) pairs, best first; empty when the text is too short to judge. */
  scores: [string, number][];
  /** True when the text is no language (see `garbled`). */
  garbled: boolean;
}

// franc scores a text against each language of its script by walking the text's trigrams once per
// language, with an object lookup each time: ~0.4 ms a paragraph, which made language
// identification the slowest stage. The same model indexed the other way round — for each
// trigram, its weight in every candidate language — scores all languages in one walk. The
// result is franc's, number for number (test/lang.test.ts checks it against francAll).

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
  weights: Map<string, number[]>;
}

const scriptIndexes = new Map<string, ScriptIndex | null>();

/** The index for one script and one candidate list (empty: all of franc's), built on first use. */
function scriptIndex(script: string, only: readonly string[], key: string): ScriptIndex | null {
  const cacheKey = `${script}|${key}`;
  if (scriptIndexes.has(cacheKey)) return scriptIndexes.get(cacheKey)!;
  const profiles = (profilesByScript as Record<string, Record<string, string>>)[script];
  let index: ScriptIndex | null = null;
  if (profiles) {
    const languages = Object.keys(profiles).filter((code) => only.length === 0 || only.includes(code));
    const weights = new Map<string, number[]>();
    languages.forEach((code, l) => {
      // franc's weight of a trigram is its position in the profile, most frequent first.
      profiles[code]!.split('|').forEach((trigram, weight) => {
        const row = weights.get(trigram);
        if (row) row.push(l, weight);
        else weights.set(trigram, [l, weight]);
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
const scriptsOfChar = new Map<string, number[]>();

/**
 * The script (franc's name) most of a text's characters are in, with its share: franc's rule,
 * counted a character at a time from a memo instead of one regular-expression pass per script.
 */
function topScript(text: string): [string | undefined, number] {
  const counts = new Array<number>(scriptTesters.length).fill(0);
  for (const char of text) {
    let scripts = scriptsOfChar.get(char);
    if (!scripts) {
      scripts = [];
      for (let s = 0; s < scriptTesters.length; s++) if (scriptTesters[s]![1].test(char)) scripts.push(s);
      scriptsOfChar.set(char, scripts);
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

/** A text's letter trigrams and their counts, cleaned and padded as franc does. */
function trigramCounts(text: string): Map<string, number> {
  const clean = ` ${text.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= clean.length; i++) {
    const trigram = clean.slice(i, i + 3);
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  return counts;
}

/**
 * franc's `francAll` over `only` (franc codes; empty: all): (code, score) pairs, best first,
 * scores normalised as franc does (1 for the best); [['und', 1]] when it cannot tell.
 */
export function rankLanguages(value: string, only: readonly string[], minLength = 10, counts?: Map<string, number>): [string, number][] {
  if (value.length < minLength) return [['und', 1]];
  const text = value.slice(0, MAX_LENGTH);
  const [script, share] = topScript(text);
  const index = script ? scriptIndex(script, only, only.join(',')) : null;
  if (!index) {
    // A script with one language (franc names the script by it), or none.
    if (!script || share === 0 || (only.length > 0 && !only.includes(script))) return [['und', 1]];
    return [[script, 1]];
  }
  if (index.languages.length === 0) return [['und', 1]];
  // Every trigram costs every language MAX_DIFFERENCE, less what it saves where the profile has it.
  const distances = new Float64Array(index.languages.length);
  let trigrams = 0;
  for (const [trigram, count] of counts && value.length <= MAX_LENGTH ? counts : trigramCounts(text)) {
    trigrams++;
    const row = index.weights.get(trigram);
    if (!row) continue;
    for (let i = 0; i < row.length; i += 2) {
      const l = row[i]!;
      distances[l] = distances[l]! - MAX_DIFFERENCE + Math.abs(count - row[i + 1]! - 1);
    }
  }
  const ranked = index.languages.map((code, l): [string, number] => [code, distances[l]! + trigrams * MAX_DIFFERENCE]);
  ranked.sort((a, b) => a[1] - b[1]);
  const min = ranked[0]![1];
  const max = text.length * MAX_DIFFERENCE - min;
  for (const entry of ranked) entry[1] = 1 - (entry[1] - min) / max || 0;
  return ranked;
}

// The candidate list as franc codes, per distinct list: the same few lists come with every call.
// The candidate list as franc codes, per distinct list: the same few lists come with every call.
const francCandidates = new Map<string, string[]>();
function onlyOf(candidates: readonly string[]): string[] {
  const key = candidates.join(',');
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
  if (short === raw ? letterCount(sample) < minLetters : letterCount(raw, minLetters) < minLetters) return { scores: [], garbled: false };
  const counts = trigramCounts(sample);
  const scores = rankLanguages(sample, onlyOf(candidates), 10, counts);
  const best = scores[0];
  if (!best || best[0] === 'und') return { scores: [], garbled: false };
  // franc always names a language; text that is no language (a garbled text layer) must not get one.
  return { scores, garbled: garbled(sample, best[0], counts) };
}

/** The language a judgement names, given a prior: ISO 639-1 where possible, `fallback` or `und` when it cannot tell. */
export function decide(judgement: Judgement, options: Pick<IdentifyOptions, 'prior' | 'priorRatio' | 'fallback'>): string {
  const best = judgement.scores[0];
  if (!best) return options.fallback;
  if (judgement.garbled) return 'und';
  const prior = options.prior ? toFrancCode(options.prior) : null;
  if (prior) {
    const priorScore = judgement.scores.find(([code]) => code === prior)?.[1];
    if (priorScore !== undefined && priorScore >= options.priorRatio * best[1]) return toIso6391(prior);
  }
  return toIso6391(best[0]);
}

/** The language of a text, ISO 639-1 where possible, or `fallback`/`und` when it cannot be told. */
export function identify(raw: string, options: IdentifyOptions): string {
  return decide(judge(raw, options.candidates, options.minLetters), options);
}

const PROFILES = new Map<string, Set<string>>();
for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
  for (const [code, trigrams] of Object.entries(languages)) PROFILES.set(code, new Set(trigrams.split('|')));
}

/** Share of a text's letter trigrams (franc's padding and lower-casing) found in a language's profile. */
export function profileCoverage(text: string, code: string, counts = trigramCounts(text)): number | null {
  const profile = PROFILES.get(code);
  if (!profile) return null;
  let hits = 0;
  let total = 0;
  for (const [trigram, count] of counts) {
    total += count;
    if (profile.has(trigram)) hits += count;
  }
  return total === 0 ? 0 : hits / total;
}

/** Below this share of profile trigrams, a text is not in the language franc picked (real text: 0.25 and up). */
const MIN_COVERAGE = 0.06;

/**
 * True when a text cannot be language: almost none of its trigrams are in the profile of the
 * language franc picked (text decoded with the wrong 8-bit table), or, in a cased script, a
 * third of its words switch from lower to upper case inside the word (glyphs mapped to the
 * wrong letters).
 */
export function garbled(text: string, code: string, counts?: Map<string, number>): boolean {
  const coverage = profileCoverage(text, code, counts);
  if (coverage !== null && coverage < MIN_COVERAGE) return true;
  const words = text.split(/[^\p{L}]+/u).filter((w) => w.length >= 3);
  if (words.length < 3) return false;
  const switching = words.filter((w) => /\p{Ll}\p{Lu}/u.test(w)).length;
  return switching / words.length > 0.3;
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
  return LETTER.test(char) ? scriptOf(char) : null;
}

/** The script most letters of a text are written in, or null when it has none. */
export function dominantScript(text: string): ScriptClass | null {
  const counts = new Map<ScriptClass, number>();
  for (const char of text) {
    const script = scriptOf(char);
    if (script && /\p{L}/u.test(char)) counts.set(script, (counts.get(script) ?? 0) + 1);
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
