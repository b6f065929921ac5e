/**
 * parse: PDF documents in, `doc` + `page` (with `items`) + outcome records out.
 *
 * Each document runs in a worker thread with a time limit and a heap limit; a worker that times
 * out, runs out of memory or dies is replaced and the document gets an `error` record, so one bad
 * file never stops a batch. `jobs` documents run at once; output stays in input order, each
 * document's records contiguous, and the head document's pages stream as they come.
 *
 * Inputs: `pdf` records ({path} or {data: base64}); the CLI also takes files, directories
 * (searched recursively for PDFs, by content), WARC files, a list of paths, base64 lines and `-`
 * for a PDF on stdin (lib/run/inputs.ts). Memory stays flat however long the input: input is taken
 * only while fewer than `maxPending` documents wait to be written (a slow document at the head
 * holds back at most that many finished ones), and `unordered` writes documents as they finish.
 */
import { availableParallelism } from 'node:os';
import type { Transform } from 'node:stream';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import type { RenderOptions, WorkerChain } from '../lib/run/worker-task.js';
import { RUN_DEFAULTS, RUN_OPTIONS, runDocuments, type RunOptions } from '../lib/run/batch.js';
import { parsePool, type ParsePoolOptions } from '../lib/run/parse-pool.js';
import { DEFAULT_WORKER_MEMORY_MIB } from '../lib/run/worker-start.js';
import { OCR_DEFAULTS } from '../lib/ocr/decide.js';

/** parse's options: the worker pool's (lib/run/parse-pool.ts) and the batch run's. */
export interface ParseOptions extends RunOptions, ParsePoolOptions {}

/** The longest timeout a timer can hold (2^31 - 1 ms, about 24.8 days): longer ones fire at once. */
const MAX_TIMEOUT = Math.floor((2 ** 31 - 1) / 1000);

/** The defaults, also those `--help` shows. */
export const DEFAULTS: ParseOptions = {
  jobs: Math.max(1, Math.min(availableParallelism(), 4)),
  timeout: 120,
  memory: DEFAULT_WORKER_MEMORY_MIB,
  recycleMemory: 512,
  normalize: true,
  engine: 'auto',
  unordered: false,
  password: '',
  firstPage: 1,
  lastPage: 0,
  maxPages: 10000,
  ...OCR_DEFAULTS,
  ...RUN_DEFAULTS,
};

/** The option table: parsing and `--help` of the command line. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'jobs', type: 'number', min: 1, short: ['j'], description: 'documents parsed at once' },
  { key: 'timeout', type: 'number', min: 0.1, max: MAX_TIMEOUT, description: 'seconds per document before it is abandoned' },
  { key: 'memory', type: 'number', min: 64, description: 'heap limit per document worker, MiB' },
  { key: 'recycleMemory', type: 'number', min: 0, description: "a worker holding more than this (MiB: its heap and PDFium's) after a document is replaced by a fresh one; 0 = never" },
  { key: 'normalize', type: 'boolean', description: "pdf.js's normalisation of ligatures and presentation forms" },
  { key: 'engine', type: 'string', choices: ['auto', 'pdfium', 'pdfjs'], description: 'parse engine: PDFium (WebAssembly) or pdf.js; auto: PDFium, and pdf.js for a document PDFium cannot open or finds no text in' },
  { key: 'unordered', type: 'boolean', description: 'write documents as they finish, not in input order' },
  { key: 'password', type: 'string', short: ['upw', 'opw'], description: 'password of encrypted PDFs, user or owner (-upw and -opw as pdftotext has them)' },
  { key: 'firstPage', type: 'number', min: 1, short: ['f'], description: 'first page to read (pages keep their numbers)' },
  { key: 'lastPage', type: 'number', min: 0, short: ['l'], description: 'last page to read; 0: the last page of the document' },
  { key: 'maxPages', type: 'number', min: 1, description: 'pages read of one document at most; the rest are left unread, with a warning' },
  { key: 'ocr', type: 'string', choices: ['auto', 'never', 'always'], description: 'read pages by OCR (Tesseract): auto: pages without text that show something (ink in a render: a scan, words in a picture, as outlines or through a soft mask), pages whose text is mostly characters with no meaning or whose words are broken by characters of another script or control codes; always: every page' },
  { key: 'ocrLang', type: 'string', description: "Tesseract's languages for OCR, +-joined (eng, deu+fra); auto: the document's /Lang, else the script of the page's text, of the pages before or that Tesseract's osd sees, else eng" },
  { key: 'ocrDpi', type: 'number', min: 50, max: 1200, description: 'resolution pages are rendered at for OCR' },
  { key: 'ocrTimeout', type: 'number', min: 1, max: MAX_TIMEOUT, description: "seconds one page's OCR may take before Tesseract is killed (the page keeps its text layer)" },
  { key: 'ocrBudget', type: 'number', min: 0, max: MAX_TIMEOUT, description: 'seconds of OCR one document may spend in all; later pages keep their text layer (keep it under --timeout, so that a document with many pictures ends with its text)' },
  { key: 'tesseract', type: 'string', description: 'the Tesseract program for OCR (default: $PDFPIPE_TESSERACT, else tesseract on PATH)' },
  ...RUN_OPTIONS,
];

/** The options with their defaults, checked once; a bad value is a UsageError. */
export function normalizeOptions(partial: Partial<ParseOptions> = {}): ParseOptions {
  const options = { ...DEFAULTS, ...partial };
  if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new UsageError(`jobs must be a whole number ≥ 1, got ${options.jobs}`);
  if (!(options.timeout > 0 && options.timeout <= MAX_TIMEOUT)) throw new UsageError(`timeout must be above 0 and at most ${MAX_TIMEOUT} s, got ${options.timeout}`);
  if (!Number.isInteger(options.maxPages) || options.maxPages < 1) throw new UsageError(`max-pages must be a whole number ≥ 1, got ${options.maxPages}`);
  if (!(options.memory >= 64)) throw new UsageError(`memory must be at least 64 MiB, got ${options.memory}`);
  if (!Number.isInteger(options.firstPage) || options.firstPage < 1) throw new UsageError(`first page must be a whole number ≥ 1, got ${options.firstPage}`);
  if (!Number.isInteger(options.lastPage) || options.lastPage < 0) throw new UsageError(`last page must be a whole number ≥ 0, got ${options.lastPage}`);
  if (options.lastPage > 0 && options.lastPage < options.firstPage) throw new UsageError(`last page ${options.lastPage} comes before first page ${options.firstPage}`);
  if (options.ocr !== 'auto' && options.ocr !== 'never' && options.ocr !== 'always') throw new UsageError(`ocr must be auto, never or always, got ${String(options.ocr)}`);
  if (!/^[A-Za-z0-9_]+(\+[A-Za-z0-9_]+)*$/u.test(options.ocrLang)) throw new UsageError(`ocr-lang must be Tesseract language codes joined by +, got ${options.ocrLang}`);
  if (options.engine !== 'pdfjs' && options.engine !== 'pdfium' && options.engine !== 'auto') throw new UsageError(`engine must be auto, pdfium or pdfjs, got ${String(options.engine)}`);
  return options;
}

/**
 * The parse Transform: `pdf` records in, document records out, in input order. `workerUrl` is for
 * tests (a worker that fails on purpose); `chain`: stages to run inside the workers.
 */
export function parse(partial: Partial<ParseOptions> = {}, setup: { workerUrl?: URL; chain?: WorkerChain; render?: RenderOptions } = {}): Transform {
  return parsePool(normalizeOptions(partial), setup);
}

/** The command line's synopsis. */
export const USAGE = 'pdfpipe parse [options] [FILE|DIR|WARC|-]... [< pdf-records.ndjson | --from-list < paths | --base64 < lines]';
/** One line on what the command does. */
export const SUMMARY = 'Reads PDFs (arguments, or `pdf` records on stdin) and writes doc/page/outcome records with glyph-run items.';

/** The command line: `pdfpipe parse`; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  // The workers write the records as NDJSON (lib/run/render.ts): strings cross to this thread,
  // not records it would rebuild from their structured clone and stringify again.
  const { recordsRender } = await import('../lib/run/render.js');
  return runDocuments({ stage: 'parse', positionals, options, transforms: [parse(options, { render: recordsRender('parse') })] });
}
