/**
 * The text of glyphs a font's Unicode map leaves out, derived from the font program: PDFium
 * reports such a glyph by its raw code, which in an Identity-encoded CID font is the glyph id of
 * the program it was cut from (XeTeX's Devanagari: "ɡ" U+0261 for glyph 609, a short-i sign of one
 * of its widths). The embedded subset keeps no cmap or GSUB; the installed program of the same name
 * does, and is used when its glyphs of those ids have the advances the page draws them with.
 */
import { advancesAgree, type GlyphSample } from '../font-program.js';
import { glyphContexts, type GlyphContexts } from '../font-contexts.js';
import { installedFont } from '../installed-fonts.js';
import { letterScript, type ScriptClass } from '../../lang/scripts.js';

/**
 * Glyph id → text for a PDF font whose installed program draws the page's glyphs with their
 * advances; null otherwise. A font with a single glyph left out (XeTeX's Lohit Bengali: the
 * conjunct ল্প, glyph 364, read as "Ŭ" U+016C) gives too little to tell the program by its advances
 * alone; its glyph's text is taken too when the advance agrees and the program's text is in the
 * script of the font's mapped characters (`script`, see mainScript) while the raw code is not.
 */
export function derivedGlyphTexts(name: string, samples: readonly GlyphSample[], script: string | null = null): Map<number, string> | null {
  const installed = installedFont(name);
  if (!installed) return null;
  if (advancesAgree(installed.tables, samples)) return installed.texts;
  if (script === null || !advancesAgree(installed.tables, samples, 1)) return null;
  const texts = new Map<number, string>();
  for (const { glyph } of samples) {
    const text = installed.texts.get(glyph);
    if (text !== undefined && scriptOf(text) === script && scriptOf(String.fromCodePoint(glyph)) !== script) texts.set(glyph, text);
  }
  return texts.size > 0 ? texts : null;
}

/**
 * The texts of a font's placeholder glyphs after the glyphs that decide them (font-contexts.ts),
 * from the installed program of its name; null when none is installed or it has none. Asked only
 * of a font whose glyph texts were derived from that program (derivedGlyphTexts).
 */
export function derivedGlyphContexts(name: string): GlyphContexts | null {
  const installed = installedFont(name);
  if (!installed) return null;
  let contexts = CONTEXTS_OF_PROGRAM.get(installed);
  if (contexts === undefined) {
    const found = glyphContexts(installed.tables, installed.texts);
    contexts = found.candidates.size > 0 ? found : null;
    CONTEXTS_OF_PROGRAM.set(installed, contexts);
  }
  return contexts;
}
const CONTEXTS_OF_PROGRAM = new WeakMap<object, GlyphContexts | null>();

/** The scripts a font's glyphs are told apart by (those with letters whose glyphs shape into conjuncts and ligatures, and their neighbours). */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati',
  'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian', 'Hangul',
  'Ethiopic', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana', 'Han',
].map((name) => ({ name, pattern: new RegExp(`^\\p{Script=${name}}`, 'u'), extension: new RegExp(`^\\p{Script_Extensions=${name}}`, 'u') }));

/** The Unicode script of a text's first character, among SCRIPTS; null for any other (digits, punctuation). */
function scriptOf(text: string): string | null {
  const script = SCRIPTS.find((s) => s.pattern.test(text))?.name;
  if (script) return script;
  // A combining mark is of the scripts it is used with (Amiri's hamza above, U+0654: Arabic).
  return INHERITED.test(text) ? (SCRIPTS.find((s) => s.extension.test(text))?.name ?? null) : null;
}
const INHERITED = /^\p{Script=Inherited}/u;

/** The script of most of a font's mapped characters, or null when none is of a script. */
export function mainScript(texts: string): string | null {
  const counts = new Map<string, number>();
  for (const ch of texts) {
    const script = scriptOf(ch);
    if (script !== null) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The scripts of the letters a font program draws, and the one most of them are in. */
export interface ProgramScripts {
  scripts: ReadonlySet<ScriptClass>;
  main: ScriptClass;
}

/**
 * The scripts of the letters an installed program of a PDF font's name draws from characters, or
 * null when no such program is installed or it draws no letter. A glyph the font's Unicode map
 * leaves out is reported by its raw code, which in an Identity-encoded font is a glyph id read as
 * a character: glyph 234 of Noto Nastaliq Urdu, under XeTeX, reads "ê". A program with no Latin
 * letter cannot have drawn an "ê", so such a reading is no text (see `misreadCode`).
 */
export function programScripts(name: string): ProgramScripts | null {
  const installed = installedFont(name);
  if (!installed) return null;
  let scripts = SCRIPTS_OF_PROGRAM.get(installed);
  if (scripts === undefined) {
    const counts = new Map<ScriptClass, number>();
    for (const text of installed.texts.values()) {
      const script = letterScript(String.fromCodePoint(text.codePointAt(0)!));
      if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
    }
    const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    scripts = main ? { scripts: new Set(counts.keys()), main } : null;
    SCRIPTS_OF_PROGRAM.set(installed, scripts);
  }
  return scripts;
}
const SCRIPTS_OF_PROGRAM = new WeakMap<object, ProgramScripts | null>();

/**
 * Whether a raw code, read as a character, is a letter its font's program cannot draw: a letter
 * of a script none of the program's letters is in. The code is then a glyph number, not text.
 * The program is found by the font's name, so an installed version with fewer scripts than the
 * one embedded would condemn codes that were right; only glyphs PDFium found no Unicode for are
 * judged, and such raw codes are glyph numbers in the Identity-encoded fonts that leave them.
 */
export function misreadCode(code: number, program: ProgramScripts | null): boolean {
  if (!program || code > 0x10ffff) return false;
  const script = letterScript(String.fromCodePoint(code));
  return script !== null && !program.scripts.has(script);
}

/**
 * The text of a glyph whose number PDFium reads as a character without flagging a map error: an
 * Identity-encoded font's Unicode map that leaves a glyph out may give its number as its
 * character (XeTeX's Noto Naskh Arabic: glyph 1565, a final alef, read as U+061D between the two
 * letters it joins, "الطل؝ب"). Asked only of a character of a script's own (not punctuation all
 * scripts share: an apostrophe stands in words) that is no letter, mark, number, space or format
 * character, after a letter of that script (`script`) and before another or none (the end of a
 * word, "أهل؝ً"). It is a glyph number when the installed program of the font's name draws no
 * glyph for the character itself, and its glyph of that number is a letter of `script` (after
 * NFKC) whose width is the one the page draws (`width`, its ink box's width over the font size,
 * see advancesAgree). Null otherwise.
 */
export function unflaggedGlyphText(name: string, code: number, width: number, script: ScriptClass): string | null {
  const installed = installedFont(name);
  if (!installed || installed.codes.has(code)) return null;
  const text = installed.texts.get(code);
  if (text === undefined || letterScript(text.normalize('NFKC')) !== script) return null;
  return advancesAgree(installed.tables, [{ glyph: code, advance: width }], 1) ? text : null;
}
