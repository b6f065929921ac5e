/**
 * Whether a page is read by OCR, from what its text layer and its drawing hold. A page with no
 * text that shows something (ink, in a render of it: lib/ocr/ink.ts) is a scan, or words drawn as
 * a picture, as outlines or through a soft mask; a blank page, or one whose images draw nothing,
 * is left alone. A page whose text is mostly characters with no meaning (U+FFFD, private-use code
 * points, control characters) has a destroyed text layer, and OCR's reading replaces it. So is a
 * page whose words are interrupted by characters foreign to them (see `foreignInWords`): the mark
 * of a re-distilled file, whose fonts map many glyphs to one wrong code. So is a page holding a
 * few control characters: glyphs of a font with no Unicode map read as their codes (TeX's bitmap
 * fonts in T1 encoding draw ligatures and quotes under code 32). A page with readable text is
 * never OCR'd under `auto`, so a good text layer keeps its output.
 */
import { scriptOf, type ScriptClass } from '../lang/scripts.js';
import { looksLatin1Mojibake } from '../repair/encodings.js';

/** `auto`: pages that need it; `never`; `always`: every page, replacing its text layer. */
export type OcrMode = 'auto' | 'never' | 'always';

/** The OCR options of parse. */
export interface OcrOptions {
  /** When pages are read by OCR. */
  ocr: OcrMode;
  /** Tesseract's languages, `+`-joined; 'auto': chosen per page from the document (lib/ocr/languages.ts). */
  ocrLang: string;
  /** The resolution pages are rendered at for OCR. */
  ocrDpi: number;
  /** Seconds one page's OCR may take before Tesseract is killed. */
  ocrTimeout: number;
  /**
   * Seconds of OCR one document may spend in all; the pages after that keep their text layer.
   * Below the document's time limit, so that a long document with many pictures ends with its
   * text rather than losing it all to a timeout.
   */
  ocrBudget: number;
  /** The Tesseract program ('' : $PDFPIPE_TESSERACT, else `tesseract` on PATH). */
  tesseract: string;
}

/** The OCR options' defaults (parse's table shows them). */
export const OCR_DEFAULTS: OcrOptions = { ocr: 'auto', ocrLang: 'auto', ocrDpi: 300, ocrTimeout: 60, ocrBudget: 60, tesseract: '' };

/**
 * The share of a page without text that its drawing must ink (lib/ocr/ink.ts) for the page to be
 * read by OCR: the ink of a short word at body size (a letter of 10 pt type inks about 14 pt², four
 * of them 50 pt²), a hundredth of a percent of a letter page. A blank page inks nothing, nor does
 * an image that fails to decode or is one flat colour: of the 163 pages without text in
 * `../shared/corpus/wild`, 121 ink nothing, and the least inked of the others (a dashed outline)
 * 0.13%. Photographs, rules and shadings read so give no words, at the cost of one reading.
 */
export const INK_COVERAGE = 0.0001;
/**
 * The share of the page images must cover for the reason to call the page a picture (a scan, a
 * logo over 18% of its page, a diagram over 10%): room for a word or two, a square of 2.5 cm on A4.
 * Under it the ink is the drawing's (paths, shadings, soft masks), and the reason says so.
 */
export const SCAN_COVERAGE = 0.01;
/** The share of a page's characters that must be meaningless for its text layer to count as destroyed. */
export const GARBLED_SHARE = 0.5;
/** Fewer characters than this on a page are too few to judge the text layer by their share. */
export const GARBLED_MIN_CHARS = 20;

/**
 * The share of a page's letters that may be foreign characters inside words before its text layer
 * counts as destroyed. Good text layers stay under 0.01 (an 8-bit encoding read as Latin-1, a stray
 * CJK glyph among Thai tone marks, both of which repair mends); re-distilled pages, where one code
 * stands for many glyphs, measure 0.02 (Chinese, whose punctuation and rare characters suffer) to
 * 0.13 (Arabic, Devanagari).
 */
export const FOREIGN_SHARE = 0.015;
/**
 * The share of a page's letters that may be control characters before its text layer counts as
 * destroyed: each stands for a glyph lost (a ligature, a quote, a dash), so one in 200 letters,
 * a few in every paragraph, is a page whose words are missing pieces throughout.
 */
export const CONTROL_SHARE = 0.005;
/**
 * Fewer control characters than this on a page say nothing. Good text layers hold none (of the
 * ground-truth corpus's pages, only a re-distilled document's do); a page set in a TeX bitmap font
 * loses a few in every paragraph (ﬀ, ﬁ, „ “).
 */
export const CONTROL_MIN = 3;
/** Fewer foreign characters than this on a page are too few to call its text layer destroyed. */
export const FOREIGN_MIN = 5;
/**
 * The share of a page's letters in words of an 8-bit code page read as Latin-1 ("ýòî" for "это",
 * `latin1Words`) from which the page is that code page's text, not a destroyed layer: repair
 * re-decodes such words, and the control codes among them are the same 8-bit font's dashes and
 * quotes. OCR would replace right letters with a guess, in a language chosen from the Latin
 * letters they look like. Real text has no such words: no page of `../shared/corpus/gt` holds
 * one, and in `../shared/corpus/wild` only code-page text does (an 8-bit Russian manual, from
 * 0.23 of its letters on a page of Latin names to 0.96; a font test of cp1251). A fifth of the
 * letters leaves room for the Latin words such a text quotes.
 */
export const LATIN1_WORD_SHARE = 0.2;

/** What the engine saw of one page. */
export interface PageEvidence {
  /** Non-blank characters of the page's text layer. */
  chars: number;
  /** Of them, characters with no meaning: U+FFFD, private use, controls. */
  meaningless: number;
  /** Of them, control characters written against letters (see `ocrReason`, `countCharacters`). */
  controls?: number;
  /** The share of the page's area covered by images (0–1). */
  imageCoverage: number;
  /** The share of the page its content inks in a render at low resolution (0–1; lib/ocr/ink.ts). */
  inkCoverage: number;
  /** Letters of the page's text layer, and the characters foreign to the words they sit in (`foreignInWords`). */
  letters?: number;
  foreign?: number;
  /** Of the letters, those in words of an 8-bit code page read as Latin-1 (`latin1Words`). */
  latin1Letters?: number;
}

/** Why a page is read by OCR (a diagnostic says so), or null when it keeps its text layer. */
export function ocrReason(mode: OcrMode, page: PageEvidence): string | null {
  if (mode === 'never') return null;
  if (mode === 'always') return 'every page is read by OCR (--ocr always)';
  if (page.chars === 0 && page.inkCoverage >= INK_COVERAGE) {
    if (page.imageCoverage >= SCAN_COVERAGE) return `the page has no text and images cover ${Math.round(page.imageCoverage * 100)}% of it`;
    return `the page has no text and its drawing inks ${percent(page.inkCoverage)} of it (no image: filled outlines, shadings, soft masks)`;
  }
  if (page.chars >= GARBLED_MIN_CHARS && page.meaningless / page.chars >= GARBLED_SHARE) {
    return `${page.meaningless} of its ${page.chars} characters have no meaning (U+FFFD, private use, controls)`;
  }
  const { letters = 0, foreign = 0, controls = 0, latin1Letters = 0 } = page;
  if (letters > 0 && latin1Letters >= LATIN1_WORD_SHARE * letters) return null;
  // A control character is never text: it is a glyph read as its code, from a font with no
  // Unicode map whose codes are not ASCII's (a TeX bitmap font in T1 encoding draws its ligatures,
  // quotes and dashes at codes under 32). Repair can only drop them, so they count as foreign.
  if (controls >= CONTROL_MIN && controls / Math.max(1, letters) >= CONTROL_SHARE) {
    return `${controls} of its characters are control codes inside words (glyphs without Unicode, read as their codes)`;
  }
  if (foreign >= FOREIGN_MIN && foreign / letters >= FOREIGN_SHARE) {
    return `${foreign} of its ${letters} letters sit inside words of another script (glyphs mapped to wrong code points)`;
  }
  return null;
}

/** A share as a percentage: whole from 1% up, to two decimals under it ("0.06%", "12%"). */
function percent(share: number): string {
  return share >= 0.01 ? `${Math.round(share * 100)}%` : `${(share * 100).toFixed(2)}%`;
}

const MEANINGLESS = /[\ufffd\p{Co}\p{Cc}]/u;

/**
 * A control character written against a letter, in the same run: a ligature or quote of a word
 * (T1's ﬁ, „) read as its code. A math font's symbols read as codes (OT1's Γ, Δ at 0–10) stand in
 * runs of their own in a formula, and leave the text of the page alone.
 */
const CONTROL_IN_WORD = /\p{Cc}(?=\p{L})|(?<=\p{L})\p{Cc}/gu;

/** Counts a page's non-blank characters, those with no meaning, and the control characters written against letters among them in `texts`. */
export function countCharacters(texts: Iterable<string>): { chars: number; meaningless: number; controls: number } {
  let chars = 0;
  let meaningless = 0;
  let controls = 0;
  for (const text of texts) {
    for (const c of text) {
      if (/\s/u.test(c)) continue;
      chars += 1;
      if (MEANINGLESS.test(c)) meaningless += 1;
    }
    controls += text.match(CONTROL_IN_WORD)?.length ?? 0;
  }
  return { chars, meaningless, controls };
}

/**
 * The letters of a text that stand in words of an 8-bit code page read as Latin-1: words of four
 * or more letters nearly all of them accented capitals and small letters from À to ÿ, as repair
 * finds them (lib/repair/encodings.ts). No language writes words so.
 */
export function latin1Words(text: string): number {
  let letters = 0;
  for (const word of text.split(/\s+/u)) if (looksLatin1Mojibake(word)) letters += word.match(/\p{L}/gu)?.length ?? 0;
  return letters;
}

/** Han, Kana and Hangul mix inside words of real text (Japanese, Korean): one class here. */
function wordScript(char: string): ScriptClass | 'CJK' | null {
  // Marks, and letters every script shares (Japanese's long-vowel mark ー, Arabic's tatweel) belong to any word.
  if (/[\p{M}\p{Script=Common}\p{Script=Inherited}]/u.test(char)) return null;
  const script = scriptOf(char);
  return script === 'Han' || script === 'Kana' || script === 'Hangul' ? 'CJK' : script;
}

/**
 * Symbols and unassigned or control code points: never part of a word. The visible space ␣ of
 * typeset code stands between words, not inside one.
 */
const NOT_OF_WORDS = /[\p{So}\p{Cn}\p{Cc}\ufffd](?<!\u2423)/u;
/**
 * Characters that repair reads back, so they say nothing about the text layer: private-use glyphs
 * (Thai and Arabic fonts' variants), spacing accents (groff's and TeX's composed accents), and
 * CJK radicals drawn for the ideographs they look like.
 */
const REPAIRED = /[\p{Co}\p{Sk}\u2e80-\u2fdf]/u;

/**
 * Counts a text's letters, and the characters inside its words that are foreign to them: a letter
 * of another script, or a symbol, between two letters of one script ("اسÿإ", "अध✿का", "不得ò以").
 * Real text does not write so: words change script at their ends (an "API" beside Chinese) or not
 * at all, and digits (第2条) and punctuation are neither. When a font maps many glyphs to one
 * wrong code, as re-distilling does, that code lands inside words all over the page.
 */
export function foreignInWords(text: string): { letters: number; foreign: number } {
  let letters = 0;
  let foreign = 0;
  for (const word of text.split(/\s+/u)) {
    const chars = [...word];
    const scripts = chars.map(wordScript);
    for (const script of scripts) if (script) letters += 1;
    // The script of the nearest letter on the left of each position, and on the right.
    const left: (string | null)[] = [];
    let last: string | null = null;
    for (let i = 0; i < chars.length; i++) {
      left.push(last);
      if (scripts[i]) last = scripts[i]!;
    }
    last = null;
    for (let i = chars.length - 1; i >= 0; i--) {
      const around = left[i];
      const right = last;
      if (scripts[i]) last = scripts[i]!;
      if (!around || around !== right || REPAIRED.test(chars[i]!)) continue;
      const script = scripts[i];
      if (script ? script !== around : NOT_OF_WORDS.test(chars[i]!)) foreign += 1;
    }
  }
  return { letters, foreign };
}
