/**
 * Whether a page is read by OCR, from what its text layer and its drawing hold. A page with no
 * text whose images cover most of it is a scan; a page whose text is mostly characters with no
 * meaning (U+FFFD, private-use code points, control characters) has a
 * destroyed text layer, and OCR's reading replaces it. So is a page whose words are interrupted by
 * characters foreign to them (see `foreignInWords`): the mark of a re-distilled file, whose fonts
 * map many glyphs to one wrong code. A page with readable text is never OCR'd under `auto`, so a
 * good text layer keeps its output.
 */
import { scriptOf, type ScriptClass } from '../lang/scripts.js';

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

/** The share of the page's area that images must cover for a page without text to count as a scan. */
export const SCAN_COVERAGE = 0.3;
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
/** Fewer foreign characters than this on a page are too few to call its text layer destroyed. */
export const FOREIGN_MIN = 5;

/** What the engine saw of one page. */
export interface PageEvidence {
  /** Non-blank characters of the page's text layer. */
  chars: number;
  /** Of them, characters with no meaning: U+FFFD, private use, controls. */
  meaningless: number;
  /** The share of the page's area covered by images (0–1). */
  imageCoverage: number;
  /** Letters of the page's text layer, and the characters foreign to the words they sit in (`foreignInWords`). */
  letters?: number;
  foreign?: number;
}

/** Why a page is read by OCR (a diagnostic says so), or null when it keeps its text layer. */
export function ocrReason(mode: OcrMode, page: PageEvidence): string | null {
  if (mode === 'never') return null;
  if (mode === 'always') return 'every page is read by OCR (--ocr always)';
  if (page.chars === 0 && page.imageCoverage >= SCAN_COVERAGE) {
    return `the page has no text and images cover ${Math.round(page.imageCoverage * 100)}% of it`;
  }
  if (page.chars >= GARBLED_MIN_CHARS && page.meaningless / page.chars >= GARBLED_SHARE) {
    return `${page.meaningless} of its ${page.chars} characters have no meaning (U+FFFD, private use, controls)`;
  }
  const { letters = 0, foreign = 0 } = page;
  if (foreign >= FOREIGN_MIN && foreign / letters >= FOREIGN_SHARE) {
    return `${foreign} of its ${letters} letters sit inside words of another script (glyphs mapped to wrong code points)`;
  }
  return null;
}

const MEANINGLESS = /[\ufffd\p{Co}\p{Cc}]/u;

/** Counts a page's non-blank characters and those with no meaning in `texts`. */
export function countCharacters(texts: Iterable<string>): { chars: number; meaningless: number } {
  let chars = 0;
  let meaningless = 0;
  for (const text of texts) {
    for (const c of text) {
      if (/\s/u.test(c)) continue;
      chars += 1;
      if (MEANINGLESS.test(c)) meaningless += 1;
    }
  }
  return { chars, meaningless };
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
