/**
 * Language codes: ISO 639-1 and 639-3, and the codes franc answers with (639-3, members of
 * macrolanguages for some), and the default candidate languages of identification.
 */
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
