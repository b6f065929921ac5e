/**
 * What the main thread and a parse worker say to each other: a document to read, the engine to
 * read it with, and the stages to run over its records inside the worker. It sits apart from both
 * sides so that neither imports the other.
 */
import type { PdfjsOptions } from '../engines/pdfjs.js';
import type { PdfiumOptions } from '../engines/pdfium/index.js';
import type { OutputOptions } from '../formats/output.js';
import type { Outcome } from '../protocol/records.js';
import type { NoTextReason } from './no-text.js';

/**
 * An engine, or `auto`: PDFium, and pdf.js for a document PDFium cannot open (other than for a
 * password) or finds no text in at all, where pdf.js's repairs of damaged files, its
 * decoders (Brotli) and its readers of form fields still find some.
 */
export type EngineName = 'pdfjs' | 'pdfium' | 'auto';

/** What a document's engine needs: which engine, and its options. */
export interface EngineOptions extends PdfjsOptions, PdfiumOptions {
  engine: EngineName;
  /** Pages read of one document; the rest are left unread (a diagnostic says so). */
  maxPages: number;
}

/**
 * Record stages that each worker runs over its documents after the engine: a module that exports
 * `workerChain(options): Transform[]`, and those options (plain data: they are copied to the
 * worker). `extract` runs its analysis stages there, so that they scale with `jobs` instead of
 * all running on the main thread.
 */
export interface WorkerChain {
  module: string;
  options: unknown;
  /** When set, the worker writes each document (`WrittenDocument`) and posts that, not its records. */
  render?: RenderOptions;
}

/** One document for a worker to read. */
export interface WorkerTask {
  task: number;
  id: string;
  source: string;
  path?: string;
  data?: Uint8Array;
  options: EngineOptions;
  /** Stages to run over the document's records before they are posted. */
  chain?: WorkerChain;
  /**
   * Without a chain: the worker writes the document itself (lib/run/render.ts) and posts that,
   * not its records (`parse` on the command line, whose output is the records as NDJSON).
   */
  render?: RenderOptions;
}

/**
 * How a worker writes its documents itself (`extract` on the command line): the serializer's
 * options, and the run's name for the `no-text` diagnostics it adds.
 */
export interface RenderOptions extends OutputOptions {
  /** One file per document (`--out-dir`), whose body differs from stdout's in NDJSON and base64. */
  outDir: string;
  /** The run (`extract`), named in `no-text` diagnostics. */
  stage: string;
}

/**
 * A document as a worker wrote it: what the main thread's run needs of it (the outcome, the
 * counts of its summary) and its output, in place of its records. The records stay in the worker,
 * which holds one document's; the main thread, which only wrote them out, held them again while
 * they crossed. It never leaves the process: `serialize` writes its `body`.
 */
export interface WrittenDocument {
  type: 'written';
  doc: string;
  outcome: Outcome;
  pages: number;
  /** Pages with a `garbled-text` diagnostic. */
  garbledPages: number;
  /** Why the document has no text, when it has none (its `no-text` diagnostic is in an NDJSON body already). */
  noText: NoTextReason | null;
  /** What serialize writes for the document, before any separator; null when the writer failed on its records. */
  body: string | null;
  /** Why the writer failed on the document's records. */
  failure?: string;
}

/**
 * The start of a document that a worker writes as NDJSON lines to stdout, sent ahead once its
 * lines are long (lib/run/render.ts): what the document's output holds in the worker stays
 * bounded. Its `WrittenDocument` follows with the rest of the lines and the counts of the whole.
 */
export interface WrittenPart {
  type: 'written-part';
  doc: string;
  body: string;
}

/** True for the start of a document a worker wrote. */
export function isWrittenPart(record: unknown): record is WrittenPart {
  return (record as { type?: unknown }).type === 'written-part';
}

/** True for a document a worker wrote. */
export function isWritten(record: unknown): record is WrittenDocument {
  return (record as { type?: unknown }).type === 'written';
}
