/**
 * Element ids shared by every structured output (alignment HTML, XML), so that a paragraph found
 * in one can be looked up in the other. Pages and blocks are numbered from 1 in reading order,
 * in the style of PDFExtract's ids ("page1", "page1p3", "page1p3l2").
 */

/** The id of a page: `page<N>`. */
export function pageId(pageNumber: number): string {
  return `page${pageNumber}`;
}

/** The id of the `blockNumber`-th block (1-based, reading order) of a page: `page<N>p<M>`. */
export function blockId(pageNumber: number, blockNumber: number): string {
  return `${pageId(pageNumber)}p${blockNumber}`;
}

/** The id of the `lineNumber`-th line (1-based) of a block: `page<N>p<M>l<K>`. */
export function lineId(pageNumber: number, blockNumber: number, lineNumber: number): string {
  return `${blockId(pageNumber, blockNumber)}l${lineNumber}`;
}

/** The id of the `sectionNumber`-th section (1-based, document order) of a structured output: `section<N>`. */
export function sectionId(sectionNumber: number): string {
  return `section${sectionNumber}`;
}
