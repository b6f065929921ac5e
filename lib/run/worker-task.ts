/**
 * What the main thread and a parse worker say to each other: a document to read, the engine to
 * read it with, and the stages to run over its records inside the worker. It sits apart from both
 * sides so that neither imports the other.
 */
import type { PdfjsOptions } from '../engines/pdfjs.js';
import type { PdfiumOptions } from '../engines/pdfium/index.js';

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
}
