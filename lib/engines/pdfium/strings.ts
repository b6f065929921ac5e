/**
 * Strings out of PDFium: UTF-16 and byte strings read through its two-call convention, and the
 * bytes of a PDF text string decoded by their byte-order mark.
 */
import { heaps, type PdfiumModule, type Scratch } from './module.js';

/** Reads a UTF-16LE string through PDFium's two-call convention (ask the length, then fill). */
export function readUtf16(m: PdfiumModule, scratch: Scratch, call: (buf: number, len: number) => number): string {
  const needed = call(0, 0);
  if (needed <= 2 || needed > 1 << 20) return '';
  const ptr = scratch.get(needed);
  call(ptr, needed);
  return m.pdfium.UTF16ToString(ptr);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

/** Reads a NUL-terminated byte string (UTF-8, else Latin-1: font names are not always UTF-8). */
export function readBytes(m: PdfiumModule, scratch: Scratch, call: (buf: number, len: number) => number): string {
  const needed = call(0, 0);
  if (needed <= 1 || needed > 1 << 16) return '';
  const ptr = scratch.get(needed);
  call(ptr, needed);
  const bytes = heaps(m).HEAPU8.slice(ptr, ptr + needed - 1);
  const end = bytes.indexOf(0);
  const text = end === -1 ? bytes : bytes.subarray(0, end);
  try {
    return UTF8.decode(text);
  } catch {
    return LATIN1.decode(text);
  }
}

/** A PDF text string's bytes: UTF-16BE after its byte-order mark, UTF-8 after its own, else PDFDocEncoding (Latin-1 for text). */
export function pdfTextString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  return LATIN1.decode(bytes);
}
