/**
 * Broken encodings of a text layer. A line whose letters are almost all Latin-1 accented letters
 * ("Âñåîáùàÿ") is an 8-bit code page read as Latin-1: it is re-decoded (windows-1251,
 * windows-1253, KOI8-R) when the result is letters of one script, the code page chosen per
 * document. A document whose letters come out of a font with no ToUnicode as a constant shift of
 * the code points (Cyrillic read as Greek and Coptic) is shifted back when the result is one
 * script with the case and vowel pattern of real text.
 */
import type { Rewriter } from './rewrite.js';

const CODE_PAGES = ['windows-1251', 'windows-1253', 'koi8-r'] as const;
const SCRIPT_OF: Record<string, RegExp> = {
  'windows-1251': /\p{Script=Cyrillic}/u,
  'windows-1253': /\p{Script=Greek}/u,
  'koi8-r': /\p{Script=Cyrillic}/u,
};

/** The Latin-1 characters that are letters (\p{L}), by code. */
const LATIN1_LETTER = Uint8Array.from({ length: 0x100 }, (_, code) => (/\p{L}/u.test(String.fromCharCode(code)) ? 1 : 0));

/** True when a line looks like an 8-bit code page read as Latin-1. */
export function looksLatin1Mojibake(text: string): boolean {
  // Asked of every line: one walk over the text, no array of its letters.
  let letters = 0;
  let high = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return false;
    if (LATIN1_LETTER[code] === 1) {
      letters++;
      if (code >= 0xc0) high++;
    }
  }
  if (letters < 4) return false;
  return high / letters >= 0.9;
}

/** One decoder per code page (a decoder without streaming keeps no state between texts). */
const DECODERS = new Map<string, InstanceType<typeof TextDecoder>>();
/** Per code page and character: 0 not a letter, 1 a letter of another script, 2 a letter of the code page's script. */
const LETTER_IN_SCRIPT = new Map<string, Map<string, number>>();

/** Re-decodes a Latin-1 line in a code page; null when the result is not letters of one script. */
export function redecode(text: string, codePage: (typeof CODE_PAGES)[number]): string | null {
  let decoder = DECODERS.get(codePage);
  if (!decoder) DECODERS.set(codePage, (decoder = new TextDecoder(codePage)));
  const decoded = decoder.decode(Buffer.from(text, 'latin1'));
  // Real text has capitals at the start of words (or whole words in capitals), not inside them:
  // a table of accented letters ("àÀâÂ") is not a code page mix-up.
  if (/\p{Ll}\p{Lu}/u.test(decoded)) return null;
  let kinds = LETTER_IN_SCRIPT.get(codePage);
  if (!kinds) LETTER_IN_SCRIPT.set(codePage, (kinds = new Map()));
  let letters = 0;
  let inScript = 0;
  for (const c of decoded) {
    let kind = kinds.get(c);
    if (kind === undefined) kinds.set(c, (kind = !/\p{L}/u.test(c) ? 0 : SCRIPT_OF[codePage]!.test(c) ? 2 : 1));
    if (kind > 0) letters++;
    if (kind === 2) inScript++;
  }
  return letters > 0 && inScript / letters >= 0.9 ? decoded : null;
}

/**
 * A run of Latin-1 characters past ASCII with a letter from À up, not joined to a Latin letter: a
 * word of the code page, or its part after a hyphen ("PostScript-ãðàôèêè"), but not the "é" of
 * "café".
 */
const HIGH_RUN = /(?<![A-Za-z\u0100-\uffff])[\u0080-\u009f\u00a1-\u00ff]*[\u00c0-\u00ff][\u0080-\u009f\u00a1-\u00ff]*(?![A-Za-z\u0100-\uffff])/gu;

/**
 * The words of a line that mixes an 8-bit code page read as Latin-1 with Latin words ("Â
 * êà÷åñòâå ìåõàíèçìà … TEX. Ñåé÷àñ LATEX ïîä äåðæèâàåò Frank Mittelbach."), re-decoded one by one:
 * the line as a whole is too Latin for `looksLatin1Mojibake`. Only in a line that shows the code
 * page itself (a run of four letters or more read so: "PDF-äîêóìåíòû", "\\title{Ìèíèìàëèçì}"), so
 * that a French "à" among Latin words stays as it is.
 */
export function redecodeWords(rw: Rewriter, codePage: (typeof CODE_PAGES)[number]): void {
  const runs = rw.text.match(HIGH_RUN) ?? [];
  if (!runs.some((run) => looksLatin1Mojibake(run))) return;
  rw.replace(HIGH_RUN, (m) => redecode(m[0], codePage), 'mojibake');
}

/**
 * The punctuation TeX's 8-bit fonts keep at control codes (T1, and the Cyrillic T2A after it): the
 * en and em dash at 21 and 22, the hyphen it breaks words with at 127. A font without a Unicode
 * map gives them as those codes, which nothing else reads back.
 */
const TEX_PUNCTUATION: Readonly<Record<string, string>> = { '\u0015': '\u2013', '\u0016': '\u2014', '\u007f': '-' };
const TEX_PUNCTUATION_CODES = /[\u0015\u0016\u007f]/gu;

/** TeX's dashes and hyphen read as control codes, in a document of an 8-bit code page, written as what they are. */
export function texPunctuation(rw: Rewriter): void {
  rw.replace(TEX_PUNCTUATION_CODES, (m) => TEX_PUNCTUATION[m[0]] ?? null, 'mojibake');
}

/** Picks the document's code page: fewest undecodable bytes over its mojibake lines, then its language. */
export function chooseCodePage(lines: readonly string[], lang: string): (typeof CODE_PAGES)[number] | null {
  let best: (typeof CODE_PAGES)[number] | null = null;
  let bestScore = Infinity;
  for (const cp of CODE_PAGES) {
    let bad = 0;
    let ok = 0;
    for (const text of lines) {
      const out = redecode(text, cp);
      if (out === null) bad += text.length;
      else {
        ok += 1;
        bad += (out.match(/\ufffd/gu) ?? []).length;
      }
    }
    const preferred = (cp === 'windows-1253') === (lang === 'el') ? 0 : 0.5;
    const score = bad + preferred;
    if (ok > 0 && score < bestScore) {
      best = cp;
      bestScore = score;
    }
  }
  return best;
}

const FREQUENT_RUSSIAN = new Set('оеаинтс');

/** Per BMP code point: 1 a lower-case letter (\p{Ll}), 2 a capital (\p{Lu}), 3 neither, 0 not looked at yet. */
const CASE_OF = new Uint8Array(0x10000);

function caseOf(point: number): number {
  if (point < 0x10000 && CASE_OF[point] !== 0) return CASE_OF[point]!;
  const char = String.fromCodePoint(point);
  const kind = /\p{Ll}/u.test(char) ? 1 : /\p{Lu}/u.test(char) ? 2 : 3;
  if (point < 0x10000) CASE_OF[point] = kind;
  return kind;
}

/** /\p{Ll}.*\p{Lu}/u on a word without line breaks: a capital somewhere after a lower-case letter, one walk, no expression per word. */
function lowerThenUpper(word: string): boolean {
  let lower = false;
  for (let i = 0; i < word.length; ) {
    const point = word.codePointAt(i)!;
    i += point > 0xffff ? 2 : 1;
    const kind = caseOf(point);
    if (kind === 2 && lower) return true;
    if (kind === 1) lower = true;
  }
  return false;
}

const UNASSIGNED = new Map<string, boolean>();
/** True for a code point no character is assigned to (\p{Cn}), looked up once per character. */
function isUnassigned(char: string): boolean {
  let unassigned = UNASSIGNED.get(char);
  if (unassigned === undefined) {
    unassigned = /\p{Cn}/u.test(char);
    if (UNASSIGNED.size < 65536) UNASSIGNED.set(char, unassigned);
  }
  return unassigned;
}
/** Letters (and unassigned codes, and Greek-block symbols) that a glyph-id shift may have produced. */
const SHIFTABLE = /(?!\p{Script=Latin})[\p{L}\p{Cn}\u0370-\u03ff]/gu;
const RUSSIAN_VOWELS = /[аеёиоуыэюяАЕЁИОУЫЭЮЯ]/u;

/**
 * The character `shift` code points from `code`, or '' where that is no code point at all: the
 * document's offset is the one most letters agree on, and the others (up to a tenth) may land
 * below zero or past U+10FFFF, where String.fromCodePoint throws.
 */
export function shiftedChar(code: number, shift: number): string {
  const point = code + shift;
  return point >= 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
}

/**
 * A document whose letters are a constant code-point shift of Cyrillic (a subset font without
 * ToUnicode whose codes are glyph ids, its glyphs in Unicode order): shifted back when the result is Cyrillic letters, with few capitals
 * inside words and a vowel share of real text. Returns the offset, or null.
 */
export function findCyrillicShift(texts: readonly string[]): number | null {
  // Latin letters are left out: glyph ids in the ASCII range cannot be told from real Latin text.
  const all = texts.join(' ');
  const letters = all.match(SHIFTABLE) ?? [];
  if (letters.length < 50) return null;
  // Letters of one script already, with ordinary case: nothing to shift.
  const split = all.split(/\s+/);
  const mixedCase = split.filter((w) => w.length > 1 && lowerThenUpper(w)).length;
  const words = split.filter((w) => w.length > 1).length;
  if (mixedCase < 0.3 * words && !letters.some(isUnassigned)) return null;
  const codes = letters.map((c) => c.codePointAt(0)!);
  const counts = new Map<number, number>();
  for (const code of codes) {
    for (let target = 0x410; target <= 0x44f; target++) {
      const d = target - code;
      if (d !== 0) counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  }
  // Every offset that lands all letters in the Cyrillic block counts the same; among those, the
  // one whose most frequent letters are Russian's most frequent (о е а и н т с) wins.
  const most = Math.max(0, ...counts.values());
  if (most < 0.9 * codes.length) return null;
  let best: number | null = null;
  let bestFit = -1;
  for (const [d, n] of counts) {
    if (n !== most) continue;
    const fit = codes.filter((c) => FREQUENT_RUSSIAN.has(shiftedChar(c, d))).length;
    if (fit > bestFit) [best, bestFit] = [d, fit];
  }
  if (best === null) return null;
  const shifted = codes.map((c) => shiftedChar(c, best!)).join('');
  if (shifted.length === 0) return null;
  const vowels = [...shifted].filter((c) => RUSSIAN_VOWELS.test(c)).length / shifted.length;
  const capitals = [...shifted].filter((c) => /\p{Lu}/u.test(c)).length / shifted.length;
  return vowels >= 0.3 && vowels <= 0.55 && capitals < 0.15 ? best : null;
}

/** Shifts a line's letters back by the document's offset (see `findCyrillicShift`), as rule `shifted-encoding`. */
export function shiftBack(rw: Rewriter, shift: number): void {
  rw.replace(SHIFTABLE, (m) => {
    const c = shiftedChar(m[0].codePointAt(0)!, shift);
    return /\p{Script=Cyrillic}/u.test(c) ? c : null;
  }, 'shifted-encoding');
  // The same fonts give glyph ids for spaces, digits and punctuation: in the standard
  // TrueType glyph order, space is glyph 3 and ASCII follows it.
  if (/\p{Script=Cyrillic}/u.test(rw.text)) rw.replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f]/gu, (m) => String.fromCharCode(m[0].charCodeAt(0) + 0x1d), 'shifted-encoding');
}
