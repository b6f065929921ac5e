/**
 * parse: PDF documents in, `doc` + `page` (with `items`) + outcome records out.
 *
 * Each document runs in a worker thread with a time limit and a heap limit; a worker that times
 * out, runs out of memory or dies is replaced and the document gets an `error` record, so one bad
 * file never stops a batch. `jobs` documents run at once; output stays in input order, each
 * document's records contiguous, and the head document's pages stream as they come.
 *
 * Inputs: `pdf` records ({path} or {data: base64}); the CLI also takes files, directories
 * (searched recursively for PDFs, by content) and `-` for a PDF on stdin.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, extname, join, relative } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { helpText, parseArgs, runFilter, UsageError, type OptionSpec } from '../lib/cli.js';
import { errorRecord, type ErrorCode, type PdfRecord, type PipeRecord } from '../lib/records.js';
import type { EngineName, WorkerTask } from '../lib/parse-worker.js';

export interface ParseOptions {
  /** Documents parsed at once, each in its own worker thread. */
  jobs: number;
  /** Seconds one document may take before its worker is killed. */
  timeout: number;
  /** Heap limit of a worker in MiB; a document that needs more ends with out-of-memory. */
  memory: number;
  /** Apply pdf.js's Unicode normalisation (ligatures, presentation forms, odd spaces). */
  normalize: boolean;
  /** The parse engine: pdf.js, or PDFium compiled to WebAssembly. */
  engine: EngineName;
}

export const DEFAULTS: ParseOptions = {
  jobs: Math.max(1, Math.min(availableParallelism(), 4)),
  timeout: 120,
  memory: 2048,
  normalize: true,
  engine: 'pdfjs',
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'jobs', type: 'number', min: 1, description: 'documents parsed at once' },
  { key: 'timeout', type: 'number', min: 0.1, description: 'seconds per document before it is abandoned' },
  { key: 'memory', type: 'number', min: 64, description: 'heap limit per document worker, MiB' },
  { key: 'normalize', type: 'boolean', description: "pdf.js's normalisation of ligatures and presentation forms" },
  { key: 'engine', type: 'string', choices: ['pdfjs', 'pdfium'], description: 'parse engine: pdf.js, or PDFium (WebAssembly)' },
];

export function normalizeOptions(partial: Partial<ParseOptions> = {}): ParseOptions {
  const options = { ...DEFAULTS, ...partial };
  if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new UsageError(`jobs must be a whole number ≥ 1, got ${options.jobs}`);
  if (!(options.timeout > 0)) throw new UsageError(`timeout must be positive, got ${options.timeout}`);
  if (!(options.memory >= 64)) throw new UsageError(`memory must be at least 64 MiB, got ${options.memory}`);
  if (options.engine !== 'pdfjs' && options.engine !== 'pdfium') throw new UsageError(`engine must be pdfjs or pdfium, got ${String(options.engine)}`);
  return options;
}

const WORKER_URL = new URL('../lib/parse-worker.js', import.meta.url);

interface Job {
  kind: 'doc' | 'passthrough';
  id: string;
  records: PipeRecord[];
  finished: boolean;
  input?: PdfRecord;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** The worker has loaded its engine; a document's time limit runs only from then. */
  ready: boolean;
}

/** Derives a document id from a path: its name without the .pdf extension. */
export function idFromPath(path: string, root?: string): string {
  const name = root ? relative(root, path) : basename(path);
  return extname(name).toLowerCase() === '.pdf' ? name.slice(0, -4) : name;
}

/** The parse Transform: `pdf` records in, document records out, in input order. */
export function parse(partial: Partial<ParseOptions> = {}): Transform {
  const options = normalizeOptions(partial);
  const queue: Job[] = [];
  const waiting: Job[] = [];
  const slots: Slot[] = [];
  let nextTask = 0;
  let counter = 0;
  const byTask = new Map<number, Job>();
  let resumeInput: TransformCallback | null = null;
  let flushDone: TransformCallback | null = null;

  const stream = new Transform({
    objectMode: true,
    transform(record: PipeRecord, _enc, done) {
      if (record.type !== 'pdf') {
        queue.push({ kind: 'passthrough', id: '', records: [record], finished: true });
        drain();
        return done();
      }
      counter += 1;
      const id = record.id ?? (record.path ? idFromPath(record.path) : `document-${counter}`);
      const job: Job = { kind: 'doc', id, records: [], finished: false, input: record };
      queue.push(job);
      waiting.push(job);
      dispatch();
      // Backpressure: accept more input only while the pool has room for it.
      if (waiting.length === 0) done();
      else resumeInput = done;
    },
    flush(done) {
      flushDone = done;
      finishIfIdle();
    },
    destroy(error, done) {
      for (const slot of slots) void slot.worker.terminate();
      done(error);
    },
  });

  function newSlot(): Slot {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: options.memory }, workerData: { engine: options.engine } });
    const slot: Slot = { worker, job: null, timer: null, ready: false };
    worker.on('message', (message: { task: number; record: PipeRecord; done?: boolean } | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job && !slot.timer) armTimer(slot);
        return;
      }
      const job = byTask.get(message.task);
      if (!job || job.finished) return;
      job.records.push(message.record);
      if (message.done) complete(slot, job);
      drain();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const code: ErrorCode = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'worker-crashed';
      const message = code === 'out-of-memory'
        ? `The document needed more than the ${options.memory} MiB heap limit`
        : `The parse worker crashed: ${error.message}`;
      fail(slot, code, message);
    });
    worker.on('exit', () => {
      if (slot.job) fail(slot, 'worker-crashed', 'The parse worker exited unexpectedly');
    });
    worker.unref();
    return slot;
  }

  function fail(slot: Slot, code: ErrorCode, message: string): void {
    const job = slot.job;
    const index = slots.indexOf(slot);
    if (index !== -1) slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    void slot.worker.terminate();
    if (job && !job.finished) {
      job.records.push(errorRecord(job.id, 'parse', code, message));
      job.finished = true;
    }
    dispatch();
    drain();
  }

  function complete(slot: Slot, job: Job): void {
    job.finished = true;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    dispatch();
  }

  function dispatch(): void {
    while (waiting.length > 0) {
      let slot = slots.find((s) => s.job === null);
      if (!slot && slots.length < options.jobs) {
        slot = newSlot();
        slots.push(slot);
      }
      if (!slot) break;
      const job = waiting.shift()!;
      start(slot, job);
    }
    if (waiting.length === 0 && resumeInput) {
      const resume = resumeInput;
      resumeInput = null;
      resume();
    }
    finishIfIdle();
  }

  function start(slot: Slot, job: Job): void {
    const input = job.input!;
    const task = nextTask++;
    byTask.set(task, job);
    slot.job = job;
    const message: WorkerTask = { task, id: job.id, source: input.path ?? 'data', options: { engine: options.engine, normalize: options.normalize, memory: options.memory } };
    if (typeof input.data === 'string') {
      const bytes = Buffer.from(input.data, 'base64');
      message.data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } else {
      message.path = input.path;
    }
    // A busy worker keeps the process alive (its time limit may not be running yet); an idle one does not.
    slot.worker.ref();
    if (slot.ready) armTimer(slot);
    slot.worker.postMessage(message);
  }

  function armTimer(slot: Slot): void {
    slot.timer = setTimeout(() => {
      fail(slot, 'timeout', `Parsing took longer than the ${options.timeout} s time limit`);
    }, options.timeout * 1000);
  }

  /** Emits finished documents in input order, and the head document's records as they come. */
  function drain(): void {
    while (queue.length > 0) {
      const head = queue[0]!;
      while (head.records.length > 0) stream.push(head.records.shift());
      if (!head.finished) break;
      queue.shift();
      for (const [task, job] of byTask) if (job === head) byTask.delete(task);
    }
    finishIfIdle();
  }

  function finishIfIdle(): void {
    if (flushDone && queue.length === 0 && waiting.length === 0) {
      const done = flushDone;
      flushDone = null;
      for (const slot of slots) void slot.worker.terminate();
      slots.length = 0;
      done();
    }
  }

  return stream;
}

/** Reads the first bytes of a file to tell a PDF by its content, not its name. */
async function isPdfFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    return buffer.subarray(0, bytesRead).includes('%PDF-');
  } finally {
    await handle.close();
  }
}

/** Turns command-line arguments into `pdf` records: files as given, directories searched for PDFs. */
export async function* inputsFromArgs(args: readonly string[]): AsyncGenerator<PdfRecord> {
  for (const arg of args) {
    if (arg === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      yield { type: 'pdf', id: 'stdin', data: Buffer.concat(chunks).toString('base64') };
      continue;
    }
    const info = await stat(arg).catch(() => null);
    if (info?.isDirectory()) {
      for await (const path of walk(arg)) {
        if (path.toLowerCase().endsWith('.pdf') || (await isPdfFile(path))) yield { type: 'pdf', id: idFromPath(path, arg), path };
      }
    } else {
      // Missing or unreadable files still become documents, so they get their error record.
      yield { type: 'pdf', id: idFromPath(arg), path: arg };
    }
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** The record source for a run: PDFs named on the command line, or NDJSON `pdf` records on stdin. */
export function hasFileArguments(positionals: readonly string[]): boolean {
  return positionals.length > 0;
}

export const USAGE = 'pdfpipe parse [options] [FILE|DIR|-]... [< pdf-records.ndjson]';
export const SUMMARY = 'Reads PDFs (arguments, or `pdf` records on stdin) and writes doc/page/outcome records with glyph-run items.';

export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  const stage = parse(options);
  if (hasFileArguments(positionals)) {
    const { pipeline } = await import('node:stream/promises');
    const { stringifyNdjson } = await import('../lib/ndjson.js');
    const { OutcomeCounter, quietOnBrokenPipe } = await import('../lib/cli.js');
    quietOnBrokenPipe();
    const counter = new OutcomeCounter(Boolean(process.stderr.isTTY));
    await pipeline(Readable.from(inputsFromArgs(positionals)), stage, counter, stringifyNdjson(), process.stdout);
    return counter.failed > 0 ? 1 : 0;
  }
  return runFilter({ stage: 'parse', transforms: [stage] });
}
