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
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { errorRecord, type ErrorCode, type PdfRecord, type PipeRecord } from '../lib/protocol/records.js';
import type { EngineName, WorkerChain, WorkerTask } from '../lib/run/worker-task.js';
import { idFromPath, inputsFromArgs } from '../lib/run/inputs.js';
import { RUN_DEFAULTS, RUN_OPTIONS, runDocuments, type RunOptions } from '../lib/run/batch.js';

export { idFromPath, inputsFromArgs };

export interface ParseOptions extends RunOptions {
  /** Documents parsed at once, each in its own worker thread. */
  jobs: number;
  /** Seconds one document may take before its worker is killed. */
  timeout: number;
  /** Heap limit of a worker in MiB; a document that needs more ends with out-of-memory. */
  memory: number;
  /** Apply pdf.js's Unicode normalisation (ligatures, presentation forms, odd spaces). */
  normalize: boolean;
  /** The parse engine: pdf.js, PDFium compiled to WebAssembly, or `auto` (PDFium, pdf.js where PDFium reads nothing). */
  engine: EngineName;
  /** Write each document as soon as it is parsed, not in input order. */
  unordered: boolean;
}

export const DEFAULTS: ParseOptions = {
  jobs: Math.max(1, Math.min(availableParallelism(), 4)),
  timeout: 120,
  memory: 2048,
  normalize: true,
  engine: 'auto',
  unordered: false,
  ...RUN_DEFAULTS,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'jobs', type: 'number', min: 1, description: 'documents parsed at once' },
  { key: 'timeout', type: 'number', min: 0.1, description: 'seconds per document before it is abandoned' },
  { key: 'memory', type: 'number', min: 64, description: 'heap limit per document worker, MiB' },
  { key: 'normalize', type: 'boolean', description: "pdf.js's normalisation of ligatures and presentation forms" },
  { key: 'engine', type: 'string', choices: ['auto', 'pdfium', 'pdfjs'], description: 'parse engine: PDFium (WebAssembly) or pdf.js; auto: PDFium, and pdf.js for a document PDFium cannot open or finds no text in' },
  { key: 'unordered', type: 'boolean', description: 'write documents as they finish, not in input order' },
  ...RUN_OPTIONS,
];

export function normalizeOptions(partial: Partial<ParseOptions> = {}): ParseOptions {
  const options = { ...DEFAULTS, ...partial };
  if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new UsageError(`jobs must be a whole number ≥ 1, got ${options.jobs}`);
  if (!(options.timeout > 0)) throw new UsageError(`timeout must be positive, got ${options.timeout}`);
  if (!(options.memory >= 64)) throw new UsageError(`memory must be at least 64 MiB, got ${options.memory}`);
  if (options.engine !== 'pdfjs' && options.engine !== 'pdfium' && options.engine !== 'auto') throw new UsageError(`engine must be auto, pdfium or pdfjs, got ${String(options.engine)}`);
  return options;
}

const WORKER_URL = new URL('../lib/run/parse-worker.js', import.meta.url);

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

/** Memory of one worker after a document: its V8 heap and the memory outside it, in bytes. */
export interface WorkerMemory {
  worker: number;
  heapUsed: number;
  external: number;
  /** Share of the worker's life spent working (event-loop utilisation, 0–1). */
  busy: number;
}


/**
 * The parse Transform: `pdf` records in, document records out, in input order. `workerUrl` is for
 * tests (a worker that fails on purpose); `chain`: stages to run inside the workers.
 */
export function parse(partial: Partial<ParseOptions> = {}, { workerUrl = WORKER_URL, chain }: { workerUrl?: URL; chain?: WorkerChain } = {}): Transform {
  const options = normalizeOptions(partial);
  const queue: Job[] = [];
  const waiting: Job[] = [];
  const slots: Slot[] = [];
  let nextTask = 0;
  let counter = 0;
  const byTask = new Map<number, Job>();
  let workers = 0;
  /** Documents (and passed-through records) taken in but not yet written out. */
  const maxPending = options.jobs * 2 + 8;
  let resumeInput: TransformCallback | null = null;
  let flushDone: TransformCallback | null = null;

  const stream = new Transform({
    objectMode: true,
    transform(record: PipeRecord, _enc, done) {
      if (record.type !== 'pdf') {
        queue.push({ kind: 'passthrough', id: '', records: [record], finished: true });
        resumeInput = done;
        drain();
        return;
      }
      counter += 1;
      const id = record.id ?? (record.path ? idFromPath(record.path) : `document-${counter}`);
      const job: Job = { kind: 'doc', id, records: [], finished: false, input: record };
      queue.push(job);
      waiting.push(job);
      resumeInput = done;
      dispatch();
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
    const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: options.memory }, workerData: { engine: options.engine } });
    const slot: Slot = { worker, job: null, timer: null, ready: false };
    const number = ++workers;
    worker.on('message', (message: { task: number; record: PipeRecord; done?: boolean; memory?: Omit<WorkerMemory, 'worker'> } | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job && !slot.timer) armTimer(slot);
        return;
      }
      const job = byTask.get(message.task);
      if (!job || job.finished) return;
      job.records.push(message.record);
      if (message.memory) stream.emit('worker-memory', { worker: number, ...message.memory } satisfies WorkerMemory);
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
    resumeIfRoom();
    finishIfIdle();
  }

  /** Backpressure: take more input only while the pool has a free worker and few documents wait to be written. */
  function resumeIfRoom(): void {
    if (resumeInput && waiting.length === 0 && queue.length < maxPending) {
      const resume = resumeInput;
      resumeInput = null;
      resume();
    }
  }

  function start(slot: Slot, job: Job): void {
    const input = job.input!;
    const task = nextTask++;
    byTask.set(task, job);
    slot.job = job;
    const message: WorkerTask = { task, id: job.id, source: input.source ?? input.path ?? 'data', options: { engine: options.engine, normalize: options.normalize, memory: options.memory } };
    if (chain) message.chain = chain;
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
    if (options.unordered) {
      // Any finished document goes out whole; unfinished ones keep their records until they end.
      for (let i = 0; i < queue.length; i++) {
        const job = queue[i]!;
        if (!job.finished) continue;
        for (const record of job.records) stream.push(record);
        queue.splice(i--, 1);
        for (const [task, owner] of byTask) if (owner === job) byTask.delete(task);
      }
      resumeIfRoom();
      finishIfIdle();
      return;
    }
    while (queue.length > 0) {
      const head = queue[0]!;
      while (head.records.length > 0) stream.push(head.records.shift());
      if (!head.finished) break;
      queue.shift();
      for (const [task, job] of byTask) if (job === head) byTask.delete(task);
    }
    resumeIfRoom();
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

/** The record source for a run: PDFs named on the command line, or NDJSON `pdf` records on stdin. */
export function hasFileArguments(positionals: readonly string[]): boolean {
  return positionals.length > 0;
}

export const USAGE = 'pdfpipe parse [options] [FILE|DIR|WARC|-]... [< pdf-records.ndjson | --from-list < paths | --base64 < lines]';
export const SUMMARY = 'Reads PDFs (arguments, or `pdf` records on stdin) and writes doc/page/outcome records with glyph-run items.';

export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runDocuments({ stage: 'parse', positionals, options, transforms: [parse(options)] });
}
