/**
 * Text helpers the document structure shares (lib/formats/structure.ts and the modules it calls):
 * whitespace collapsed, words and letters counted, headings and titles compared.
 */

/** Lower-cased letters and digits only, single-spaced: for comparing headings and titles. */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The text with every run of whitespace made one space, trimmed. A lone space is left as it is
 * (matched, it would be replaced by itself): most texts then come back unchanged, not copied.
 */
export const collapse = (text: string): string => text.replace(/\s{2,}|[^\S ]/gu, ' ').trim();

/** Letters, counting the CJK radicals some PDFs map ideographs to ("⾔" for "言"). */
export const letters = (text: string): number => (text.match(/[\p{L}\u2E80-\u2FDF]/gu) ?? []).length;
/** Scripts written without spaces, where a two-character word is a whole heading ("序言"). */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u;
/** The words of a text, split at whitespace. */
export const words = (text: string): string[] => collapse(text).split(' ').filter((w) => w !== '');
