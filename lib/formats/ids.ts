/**
 * Element ids shared by every structured output (alignment HTML, XML), so that a paragraph found
 * in one can be looked up in the other. Pages and blocks are numbered from 1 in reading order,
 * in the style of PDFExtract's ids ("page1", "page1p3", "page1p3l2"). And the file name a
 * document's output gets in an output folder.
 */
import { createHash } from 'node:crypto';

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

/** A short, stable hash of a text, to tell apart names that would be the same: 8 hex digits of its SHA-1. */
export function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}

/** Characters no file name may hold on Windows or HDFS (`:`), C0 controls (NUL) and DEL. */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f<>:"|?*\\]/g;
/** Names Windows reserves for devices, whatever the extension. */
const RESERVED_NAME = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
/** The longest file name POSIX file systems, HDFS and Windows all take, in bytes. */
const MAX_NAME_BYTES = 255;
/** The hash that keeps a changed name unique: `-` and 8 hex digits. */
const HASH_BYTES = 9;

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes, not cutting a character. */
function truncateBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * The path, relative to the output folder, of a document's output file: its id made a safe name
 * for POSIX, HDFS and Windows. `/` in an id (a document found below an input folder) keeps its
 * sub-folder; `.` and `..` components, characters those systems refuse (`:` of `urn:uuid:…`, NUL,
 * `\`, `*`…), trailing dots and spaces and device names are replaced, and each name is cut to
 * 255 bytes with its extension. An id that had to change gets a short hash of the whole id, so
 * two ids never share a file and the same id always gets the same one. The result never
 * leaves the folder.
 */
export function outputFileName(id: string | number, ext: string): string {
  const text = String(id);
  const parts = text.split('/');
  let changed = false;
  const safe = parts.map((part) => {
    let name = part.replace(UNSAFE_CHARACTERS, '_');
    if (name === '' || name === '.' || name === '..') name = '_'.repeat(Math.max(name.length, 1));
    name = name.replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
    if (RESERVED_NAME.test(name)) name = `_${name}`;
    if (name !== part) changed = true;
    return name;
  });
  const suffix = `.${ext}`;
  const last = safe.length - 1;
  for (let i = 0; i < safe.length; i++) {
    const room = MAX_NAME_BYTES - (i === last ? Buffer.byteLength(suffix) : 0);
    if (Buffer.byteLength(safe[i]!) > room) {
      safe[i] = truncateBytes(safe[i]!, room - HASH_BYTES);
      changed = true;
    }
  }
  if (changed) {
    const room = MAX_NAME_BYTES - Buffer.byteLength(suffix) - HASH_BYTES;
    safe[last] = `${truncateBytes(safe[last]!, room)}-${shortHash(text)}`;
  }
  return safe.join('/') + suffix;
}
