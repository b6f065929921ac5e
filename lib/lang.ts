/**
 * Language identification for blocks of text, on franc's trigram profiles (187 languages).
 *
 * franc answers `und` under 10 characters and reads only the first 2048, and on short Latin text
 * it often prefers a small language over a big one ("sco" for English). So: candidates are limited
 * to a list of widely written languages (overridable), a prior language (the document's, or the
 * PDF's /Lang) wins when franc rates it close to its best guess, and a block too short to judge
 * takes the prior of its script, or `und`. Codes are ISO 639-1 where one exists, else ISO 639-3.
 */
import { franc, francAll } from 'franc';
import { data as profilesByScript } from 'franc/data.js';
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

const LETTER = /\p{L}/gu;

/** Counts the letters of a text. */
export function letterCount(text: string): number {
  return text.match(LETTER)?.length ?? 0;
}

/** Whether a text has at least `n` letters (without counting them all). */
function hasLetters(text: string, n: number): boolean {
  LETTER.lastIndex = 0;
  let found = 0;
  while (found < n && LETTER.exec(text)) found++;
  LETTER.lastIndex = 0;
  return found >= n;
}

/**
 * What franc made of a text, before any prior: its scores (best first), null when the text is too
 * short to judge or franc says `und`, and whether the text is garbled for the best language. A
 * caller that judges the same text again with another prior passes it to `identify`.
 */
export interface Judgement {
  scores: [string, number][] | null;
  garbled: boolean;
}

/** franc's scores for a text among the candidates (the part of `identify` that does not depend on the prior). */
export function judge(raw: string, options: Pick<IdentifyOptions, 'candidates' | 'minLetters'>): Judgement {
  // franc reads 2048 characters: a longer text is judged (and checked for garbling) on a sample
  // of its start, middle and end, which also keeps the cost of a whole document's text down.
  const short = raw.length <= 2048 ? raw : `${raw.slice(0, 700)} ${raw.slice(raw.length / 2 - 350, raw.length / 2 + 350)} ${raw.slice(-640)}`;
  // Presentation forms and other compatibility characters are not in franc's profiles.
  const sample = short.normalize('NFKC');
  if (short === raw ? letterCount(sample) < options.minLetters : !hasLetters(raw, options.minLetters)) return { scores: null, garbled: false };
  const only = options.candidates.map(toFrancCode).filter((c): c is string => c !== null);
  const scores = francAll(sample, { minLength: 10, ...(only.length > 0 ? { only } : {}) });
  const best = scores[0];
  if (!best || best[0] === 'und') return { scores: null, garbled: false };
  // franc always names a language; text that is no language (a garbled text layer) must not get one.
  return { scores, garbled: garbled(sample, best[0]) };
}

/**
 * The language of a text, ISO 639-1 where possible, or `fallback`/`und` when it cannot be told.
 * Samples the text's start, middle and end when it is longer than franc reads. `judged` is the
 * text's `judge` with the same candidates and minimum, when the caller has it already.
 */
export function identify(raw: string, options: IdentifyOptions, judged: Judgement = judge(raw, options)): string {
  const { scores } = judged;
  const best = scores?.[0];
  if (!scores || !best) return options.fallback;
  if (judged.garbled) return 'und';
  const prior = options.prior ? toFrancCode(options.prior) : null;
  if (prior) {
    const priorScore = scores.find(([code]) => code === prior)?.[1];
    if (priorScore !== undefined && priorScore >= options.priorRatio * best[1]) return toIso6391(prior);
  }
  return toIso6391(best[0]);
}

const PROFILES = new Map<string, Set<string>>();
for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
  for (const [code, trigrams] of Object.entries(languages)) PROFILES.set(code, new Set(trigrams.split('|')));
}

/** Share of a text's letter trigrams (franc's padding and lower-casing) found in a language's profile. */
export function profileCoverage(text: string, code: string): number | null {
  const profile = PROFILES.get(code);
  if (!profile) return null;
  const clean = ` ${text.toLowerCase().replace(/[\u0021-\u0040]+/gu, ' ').replace(/\s+/gu, ' ').trim()} `;
  let hits = 0;
  let count = 0;
  for (let i = 0; i + 3 <= clean.length; i++, count++) if (profile.has(clean.slice(i, i + 3))) hits++;
  return count === 0 ? 0 : hits / count;
}

/** Below this share of profile trigrams, a text is not in the language franc picked (real text: 0.25 and up). */
const MIN_COVERAGE = 0.06;

/**
 * True when a text cannot be language: almost none of its trigrams are in the profile of the
 * language franc picked (text decoded with the wrong 8-bit table), or, in a cased script, a
 * third of its words switch from lower to upper case inside the word (glyphs mapped to the
 * wrong letters).
 */
export function garbled(text: string, code: string): boolean {
  const coverage = profileCoverage(text, code);
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

/** Scripts of the characters seen so far (a text repeats few characters): null for non-letters. */
const SCRIPT_OF = new Map<string, ScriptClass | null>();
const LETTER_SCRIPT = new Map<string, ScriptClass | null>();

/** The script of one character, or null for a non-letter. */
export function scriptOf(char: string): ScriptClass | null {
  let script = SCRIPT_OF.get(char);
  if (script !== undefined) return script;
  script = null;
  if (/\p{L}|\p{M}/u.test(char)) {
    script = 'Other';
    for (const [name, re] of SCRIPTS) {
      if (re.test(char)) {
        script = name;
        break;
      }
    }
  }
  if (SCRIPT_OF.size < 65536) SCRIPT_OF.set(char, script);
  return script;
}

/** The script of a letter (not a mark), or null. */
export function letterScript(char: string): ScriptClass | null {
  let script = LETTER_SCRIPT.get(char);
  if (script !== undefined) return script;
  script = /\p{L}/u.test(char) ? scriptOf(char) : null;
  if (LETTER_SCRIPT.size < 65536) LETTER_SCRIPT.set(char, script);
  return script;
}

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
