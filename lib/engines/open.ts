/**
 * How a document is opened, whatever the engine: the password of an encrypted PDF, and the pages
 * to read (pdftotext's `-f` and `-l`). Pages keep their numbers in the document.
 */

/** The opening options every engine reads. */
export interface OpenOptions {
  /** The user or owner password of an encrypted PDF ('' for none). */
  password?: string;
  /** The first page to read, from 1. */
  firstPage?: number;
  /** The last page to read; 0 (or past the end) reads to the last page. */
  lastPage?: number;
}

/** The numbers of the first and last page to read of a document of `count` pages (first > last when none). */
export function pageRange(count: number, options: OpenOptions): { first: number; last: number } {
  const first = Math.max(1, Math.floor(options.firstPage ?? 1));
  const wanted = Math.floor(options.lastPage ?? 0);
  return { first, last: wanted > 0 ? Math.min(count, wanted) : count };
}

/**
 * The page objects a document's pages have shown so far, to read a page the page tree reaches
 * twice only once. In a well-formed tree each page object has one place (its one /Parent); a
 * page object reached again means a broken tree: a cycle (PDFium then serves the pages the
 * /Count promises from the same page object again; pdf.js stops with "circular reference") or a
 * reference repeated in /Kids. What a reader expects of such a document is its text, once: the
 * document is not lost for a tree every page of which is readable (an error would throw it
 * away), its text is not written twice (a corpus would hold copies of pages the file holds once),
 * and the page keeps its number, empty, so that page numbers still match the document's /Count
 * and the viewers'.
 */
export class PageObjects {
  private readonly firstPage = new Map<string, number>();
  /** The page that first showed `object` (an object number, or a `num gen` key), or undefined when `page` is the first. */
  seenBefore(object: string | number | null | undefined, page: number): number | undefined {
    if (object === null || object === undefined || object === 0 || object === -1) return undefined;
    const key = String(object);
    const first = this.firstPage.get(key);
    if (first === undefined) this.firstPage.set(key, page);
    return first;
  }
}

/** The warning for the first page that repeats an earlier page's object (once per document). */
export const repeatedPageMessage = (page: number, first: number): string =>
  `Page ${page} is page ${first} again: the page tree reaches one page object twice (a cycle, or a repeated reference); every repeat is kept as an empty page, so its text is read once`;
