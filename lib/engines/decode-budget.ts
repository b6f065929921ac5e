/**
 * A budget on the bytes pdf.js decodes for one document. Decoded streams live in ArrayBuffers
 * outside V8's heap, so the worker's heap limit does not see them: a few kilobytes of Flate that
 * inflate to gigabytes of spaces would take the process down before any limit fired. pdf.js grows
 * a decoding stream's buffer in one place (DecodeStream.ensureBuffer); the patched worker asks
 * this budget first (see lib/engines/pdfjs.ts), and a stream or a document that asks for too much
 * is stopped there, before the memory is taken.
 */
import { EngineError } from './errors.js';

/**
 * pdf.js rewrites each CFF font program it parses (CFFCompiler) into a JavaScript array of numbers,
 * eight bytes of heap a byte. The rewrite holds the same parts as the program, so it is about as
 * long; only a damaged program makes it longer, by sharing: a font dictionary array of thousands
 * of entries that all point to one private dictionary and its subroutines has that subroutine
 * index written out once per entry (a 60 KB program grew past 1.6 GiB of heap this way). A
 * rewrite may reach this multiple of its program's length, plus FONT_REWRITE_SLACK_BYTES.
 */
export const FONT_REWRITE_MULTIPLE = 4;
/** What a rewrite may add to a small program in any case (headers, offsets widened, a duplicated glyph). */
export const FONT_REWRITE_SLACK_BYTES = 1024 * 1024;

/**
 * Codes one CMap (a font's ToUnicode or encoding map) may map: as many as there are Unicode code
 * points. pdf.js keeps a map entry, a string of heap, per code of a range, and lets a range span
 * 2^24 codes; a damaged ToUnicode whose range runs from <e071fda4> to <e0d1fe04> made 6.3 million
 * entries and a 1.5 GiB heap. Real maps hold at most a few tens of thousands (a two-byte code
 * space is 65,536).
 */
export const MAX_CMAP_CODES = 0x110000;

/** One decoded stream may hold at most this share of the memory limit. */
export const STREAM_SHARE = 1 / 4;
/** All the growth of a document's decoded streams, summed, may reach this multiple of the limit. */
export const DOCUMENT_MULTIPLE = 4;

/** The budget of the document being read; the patched worker finds it on globalThis. */
export class DecodeBudget {
  readonly streamBytes: number;
  readonly documentBytes: number;
  used = 0;
  /** Why the budget stopped the document, once it has. */
  exceeded: string | null = null;

  constructor(readonly memoryMiB: number) {
    this.streamBytes = Math.floor(memoryMiB * STREAM_SHARE * 1024 * 1024);
    this.documentBytes = memoryMiB * DOCUMENT_MULTIPLE * 1024 * 1024;
  }

  /** Called by pdf.js before a stream's buffer grows from `from` to `to` bytes; throws past the budget. */
  grow(from: number, to: number): void {
    if (to > this.streamBytes) this.exceeded ??= `a stream decodes to more than ${mib(this.streamBytes)} MiB (a quarter of the ${this.memoryMiB} MiB memory limit)`;
    else if (this.used + to - from > this.documentBytes) this.exceeded ??= `its streams decode to more than ${mib(this.documentBytes)} MiB in all (${DOCUMENT_MULTIPLE} times the ${this.memoryMiB} MiB memory limit)`;
    if (this.exceeded) throw new Error(`Decoding stopped: ${this.exceeded}`);
    this.used += to - from;
  }

  /**
   * Called by pdf.js as its CFF compiler's output grows to `rewritten` bytes for a program of
   * `program` bytes; throws past FONT_REWRITE_MULTIPLE. pdf.js catches the throw and keeps the
   * program as it was: the rewrite only serves drawing, and the text comes from the document's
   * own maps (ToUnicode, widths), so the document is read on, not stopped.
   */
  rewriteFont(program: number, rewritten: number): void {
    if (rewritten > program * FONT_REWRITE_MULTIPLE + FONT_REWRITE_SLACK_BYTES) {
      throw new Error(`Font rewrite stopped: ${rewritten} bytes from a program of ${program}`);
    }
  }

  /**
   * Called by pdf.js's CFF parser before it reads a dictionary of `bytes` bytes (the top, a font
   * or a private dictionary), with the `read` bytes of dictionaries it has read of this program;
   * returns the new total, or throws past FONT_REWRITE_MULTIPLE of the program's length. Each
   * dictionary is a part of the program, read once; a damaged font dictionary array makes
   * thousands of entries whose dictionaries span the whole program (a 170 KB program read 22 MB
   * of dictionaries, 6–8 s). pdf.js catches the throw and reads the text with a substitute font.
   */
  readFontDicts(program: number, read: number, bytes: number): number {
    if (read + bytes > program * FONT_REWRITE_MULTIPLE + FONT_REWRITE_SLACK_BYTES) {
      throw new Error(`Font dictionaries stopped: ${read + bytes} bytes of them in a program of ${program}`);
    }
    return read + bytes;
  }

  /**
   * Called by pdf.js before a CMap maps a range of `codes` codes, with the `mapped` codes it holds;
   * returns the new count, or throws past MAX_CMAP_CODES. pdf.js skips the range and reads the rest
   * of the map, as it does a range past its own limit.
   */
  mapCodes(mapped: number, codes: number): number {
    if (mapped + codes > MAX_CMAP_CODES) throw new Error(`CMap range of ${codes} codes skipped: the map would hold more than ${MAX_CMAP_CODES}`);
    return mapped + codes;
  }

  /** Throws the document's out-of-memory error once the budget has stopped it (pdf.js may have caught the first throw). */
  check(): void {
    if (this.exceeded) throw new EngineError('out-of-memory', `The document needs more memory than allowed: ${this.exceeded}`);
  }
}

const mib = (bytes: number): number => Math.round(bytes / (1024 * 1024));

/** The global through which the patched pdf.js worker reaches the current document's budget. */
export const BUDGET_GLOBAL = 'pdfpipeDecodeBudget';

/** Makes `budget` the one pdf.js charges from now on. */
export function activate(budget: DecodeBudget): void {
  (globalThis as Record<string, unknown>)[BUDGET_GLOBAL] = budget;
}
