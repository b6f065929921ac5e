/**
 * Word lists for the repair stage: which strings are known words.
 *
 * Two file formats are read:
 * - a plain word list, one word a line (UTF-8; `#` lines and blank lines skipped), such as Debian's
 *   /usr/share/dict/words (wamerican and friends);
 * - a libdatrie trie (`.tri`), the format of libthai's Thai dictionary that Debian ships in
 *   libthai-data as /usr/share/libthai/thbrk.tri (about 25,000 words, LGPL-2.1+). The file is
 *   walked once and its words are kept in a Set; nothing of it is copied into this project.
 *
 * libdatrie layout (all integers big-endian): an alphabet map (magic 0xD9FCD9FC, the number of
 * code-point ranges, then each range's first and last code point), a double array (cell 0 holds
 * the magic 0xDAFCDAFC and the number of cells, then base/check pairs; the root is cell 2; a
 * negative base points into the tail), and a tail (magic 0xDFFCDFFC, first free block, number of
 * blocks, then per block: next free, data, suffix length, suffix bytes). Trie character 0 ends a
 * word; character k ≥ 1 is the k-th code point of the alphabet's ranges, in order.
 */
import { readFileSync } from 'node:fs';

/** The Thai dictionary that Debian's libthai-data ships. */
export const DEBIAN_THAI_TRIE = '/usr/share/libthai/thbrk.tri';
/** The English word list that Debian's wamerican ships. */
export const DEBIAN_WORDS = '/usr/share/dict/words';

const ALPHA_MAGIC = 0xd9fcd9fc | 0;
const DARRAY_MAGIC = 0xdafcdafc | 0;
const TAIL_MAGIC = 0xdffcdffc | 0;

/** Reads every word of a libdatrie file. Throws with a clear message when the file is not one. */
export function readDatrie(buf: Buffer): string[] {
  let o = 0;
  const int = (): number => {
    if (o + 4 > buf.length) throw new Error('truncated trie file');
    const v = buf.readInt32BE(o);
    o += 4;
    return v;
  };
  if (int() !== ALPHA_MAGIC) throw new Error('not a libdatrie file (bad alphabet magic)');
  const rangeCount = int();
  const alphabet: string[] = [''];
  for (let i = 0; i < rangeCount; i++) {
    const first = int();
    const last = int();
    if (last < first || last - first > 0x10ffff) throw new Error('bad alphabet range in trie file');
    for (let c = first; c <= last; c++) alphabet.push(String.fromCodePoint(c));
  }
  if (int() !== DARRAY_MAGIC) throw new Error('not a libdatrie file (bad double-array magic)');
  const cells = int();
  if (cells < 3 || o + (cells - 1) * 8 > buf.length) throw new Error('bad double-array size in trie file');
  const base = new Int32Array(cells);
  const check = new Int32Array(cells);
  for (let i = 1; i < cells; i++) {
    base[i] = int();
    check[i] = int();
  }
  if (int() !== TAIL_MAGIC) throw new Error('not a libdatrie file (bad tail magic)');
  int();
  const tailCount = int();
  const tails: string[] = [];
  for (let i = 0; i < tailCount; i++) {
    o += 8;
    if (o + 2 > buf.length) throw new Error('truncated trie tail');
    const length = buf.readInt16BE(o);
    o += 2;
    let suffix = '';
    for (let k = 0; k < length; k++) {
      const c = buf[o + k] ?? 0;
      if (c === 0) break;
      suffix += alphabet[c] ?? '';
    }
    o += length;
    tails.push(suffix);
  }
  const words: string[] = [];
  const stack: [number, string][] = [[2, '']];
  while (stack.length > 0) {
    const [state, prefix] = stack.pop()!;
    const b = base[state] ?? 0;
    if (b < 0) {
      words.push(prefix + (tails[-b - 1] ?? ''));
      continue;
    }
    for (let c = 0; c < alphabet.length; c++) {
      const next = b + c;
      if (next > 2 && next < cells && check[next] === state) stack.push([next, prefix + alphabet[c]!]);
    }
  }
  return words;
}

const cache = new Map<string, ReadonlySet<string>>();
const NOT_ASCII = /[^\u0000-\u007f]/u;

/**
 * Loads a word list (plain or libdatrie) into a Set, cached per path and case; `lowercase` keeps
 * every word in lower case. Throws an Error naming the file when it cannot be read or parsed.
 */
export function loadLexicon(path: string, { lowercase = false }: { lowercase?: boolean } = {}): ReadonlySet<string> {
  const key = `${lowercase ? 'lower' : 'as-is'}:${path}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read lexicon ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // A word list is read as a worker starts, a hundred thousand words: each is made once, in one
  // pass, and normalised only where NFC can change it (ASCII is its own normal form).
  const set = new Set<string>();
  const add = (word: string): void => {
    const normal = NOT_ASCII.test(word) ? word.normalize('NFC') : word;
    set.add(lowercase ? normal.toLowerCase() : normal);
  };
  if (buf.length >= 4 && buf.readInt32BE(0) === ALPHA_MAGIC) {
    try {
      for (const word of readDatrie(buf)) add(word);
    } catch (error) {
      throw new Error(`cannot parse lexicon ${path}: ${(error as Error).message}`);
    }
  } else {
    const text = buf.toString('utf8');
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const word = text.slice(start, end).trim();
      if (word !== '' && word[0] !== '#') add(word);
      start = end + 1;
    }
  }
  cache.set(key, set);
  return set;
}
