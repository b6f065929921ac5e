/**
 * Whether a page is read by OCR, from what its text layer and its drawing hold. A page with no
 * text whose images cover most of it is a scan; a page whose text is mostly characters with no
 * meaning (U+FFFD, private-use code points, control characters) has a
 * destroyed text layer, and OCR's reading replaces it. A page with readable text is never OCR'd
 * under `auto`, so a good text layer keeps its output.
 */

/** `auto`: pages that need it; `never`; `always`: every page, replacing its text layer. */
export type OcrMode = 'auto' | 'never' | 'always';

/** The OCR options of parse. */
export interface OcrOptions {
  /** When pages are read by OCR. */
  ocr: OcrMode;
  /** Tesseract's languages, `+`-joined. */
  ocrLang: string;
  /** The resolution pages are rendered at for OCR. */
  ocrDpi: number;
  /** Seconds one page's OCR may take before Tesseract is killed. */
  ocrTimeout: number;
  /** The Tesseract program ('' : $PDFPIPE_TESSERACT, else `tesseract` on PATH). */
  tesseract: string;
}

/** The OCR options' defaults (parse's table shows them). */
export const OCR_DEFAULTS: OcrOptions = { ocr: 'auto', ocrLang: 'eng', ocrDpi: 300, ocrTimeout: 60, tesseract: '' };

/** The share of the page's area that images must cover for a page without text to count as a scan. */
export const SCAN_COVERAGE = 0.3;
/** The share of a page's characters that must be meaningless for its text layer to count as destroyed. */
export const GARBLED_SHARE = 0.5;
/** Fewer characters than this on a page are too few to judge the text layer by their share. */
export const GARBLED_MIN_CHARS = 20;

/** What the engine saw of one page. */
export interface PageEvidence {
  /** Non-blank characters of the page's text layer. */
  chars: number;
  /** Of them, characters with no meaning: U+FFFD, private use, controls. */
  meaningless: number;
  /** The share of the page's area covered by images (0–1). */
  imageCoverage: number;
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
