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
