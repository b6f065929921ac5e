/**
 * Language codes: ISO 639-1 and 639-3, and the codes franc answers with (639-3, members of
 * macrolanguages for some), and the default candidate languages of identification.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';

const TO_639_1 = new Map<string, string>();
const TO_639_3 = new Map<string, string>();
/** ISO 639-1 → ISO 639-3 as the standard pairs them ("ar" → "ara", the macrolanguage). */
const STANDARD_639_3 = new Map<string, string>();
for (const [code3, code1] of Object.entries(iso6393To1)) {
  TO_639_1.set(code3, code1);
  TO_639_3.set(code1, code3);
  STANDARD_639_3.set(code1, code3);
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
    else if (/^[a-z]{3}$/.test(lower) && (TO_639_1.has(lower) || isIso6393(lower))) franc = lower;
    else franc = null;
    if (FRANC_CODES.size < 4096) FRANC_CODES.set(code, franc);
  }
  return franc;
}

const FRANC_CODES = new Map<string, string | null>();

/** The package's table of every ISO 639-3 code (iso-639-3's `iso6393`). */
const ISO_6393_TABLE = createRequire(import.meta.url).resolve('iso-639-3/iso6393.js');
let iso6393Codes: ReadonlySet<string> | null = null;

/**
 * Whether a code is one of ISO 639-3's 7,867. Their table is 780 KB of source, which took 30–40 ms
 * of each thread's start to import, for the few documents that name a language by a 639-3 code
 * with no 639-1 form ("fil"): it is read on the first such code, its codes only.
 */
function isIso6393(code: string): boolean {
  iso6393Codes ??= new Set(Array.from(readFileSync(ISO_6393_TABLE, 'utf8').matchAll(/\biso6393: '([a-z]{3})'/gu), (match) => match[1]!));
  return iso6393Codes.has(code);
}

/** The ISO 639-3 code the standard pairs with an ISO 639-1 code ("ar" → "ara", not franc's "arb"), or null. */
export function standardIso6393(code: string): string | null {
  return STANDARD_639_3.get(code) ?? null;
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
