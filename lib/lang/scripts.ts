/**
 * Script classes of characters and texts (Latin, Cyrillic, Arabic, Han, …), and counts of a text's
 * code points and letters, without building arrays of its characters.
 */

/** A letter (\p{L}). */
export const LETTER = /\p{L}/u;

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

/** Whether a character, of any kind (a sign too, not only a letter), has the Unicode script of a script class other than 'Other'. */
export function isOfScript(char: string, script: ScriptClass): boolean {
  return SCRIPTS.find(([name]) => name === script)?.[1].test(char) ?? false;
}

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
