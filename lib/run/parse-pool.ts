/**
 * The parse worker pool: a Transform that hands `pdf` records to worker threads
 * (lib/run/parse-worker.ts) and writes their records out. Each document has a time limit (its
 * worker is terminated) and a heap limit (the worker's resourceLimits); a worker that times out,
 * runs out of memory or dies is replaced and the document gets an `error` record. Output stays in
 * input order, each document's records contiguous, the head document's pages streaming as they
 * come (or, `unordered`, each document whole as it finishes); input is taken only while fewer than
 * `maxPending` documents wait to be written.
 */
import type { OcrOptions } from '../ocr/decide.js';
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { UsageError } from '../protocol/options.js';
import { errorRecord, type ErrorCode, type PdfRecord, type PipeRecord } from '../protocol/records.js';
import type { EngineName, RenderOptions, WorkerChain, WorkerTask, WrittenDocument, WrittenPart } from './worker-task.js';
import { idFromPath } from './inputs.js';
import { collectBetweenDocuments } from './heap.js';
import { takeEarlyWorker, workerUrl as defaultWorkerUrl, type EarlySetup } from './worker-start.js';

/** What the pool reads of the parse options. */
export interface ParsePoolOptions extends OcrOptions {
  /** Documents parsed at once, each in its own worker thread. */
  jobs: number;
  /** Seconds one document may take before its worker is killed. */
  timeout: number;
  /** Heap limit of a worker in MiB; a document that needs more ends with out-of-memory. */
  memory: number;
  /**
   * A worker that holds more than this (MiB) after a document, its heap and the memory outside it
   * (PDFium's WebAssembly heap, which grows to the largest document's need and never shrinks),
   * is replaced by a fresh one before the next document; 0 never replaces one.
   */
  recycleMemory: number;
  /** Apply pdf.js's Unicode normalisation (ligatures, presentation forms, odd spaces). */
  normalize: boolean;
  /** The parse engine: pdf.js, PDFium compiled to WebAssembly, or `auto` (PDFium, pdf.js where PDFium reads nothing). */
  engine: EngineName;
  /** Write each document as soon as it is parsed, not in input order. */
  unordered: boolean;
  /** The password of encrypted PDFs ('' for none). */
  password: string;
  /** The first page to read, from 1. */
  firstPage: number;
  /** The last page to read; 0 for the last page of each document. */
  lastPage: number;
  /** Pages read of one document at most: a page tree of a million references stops there. */
  maxPages: number;
}

const MiB = 1024 * 1024;
/** How long the first worker may take to load the stages before the run gives up. */
const CHAIN_CHECK_MS = 120_000;

interface Job {
  kind: 'doc' | 'passthrough';
  id: string;
  /** Its records, or (a chain that renders) the document as its worker wrote it. */
  records: (PipeRecord | WrittenPart | WrittenDocument)[];
  finished: boolean;
  input?: PdfRecord;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** The worker has loaded its engine; a document's time limit runs only from then. */
  ready: boolean;
  /** When the document in hand was given to the worker (ms since the epoch). */
  since: number;
}

/**
 * The last defence on memory: the engines budget what a document may decode (lib/engines/
 * decode-budget.ts, PDFium's capped heap), and the pool checks the process's resident memory
 * every RSS_CHECK_MS. Past the ceiling (RSS_OVERHEAD_MIB for the process itself, plus
 * RSS_PER_JOB times the memory limit for each worker: its heap, and the decoded bytes or
 * WebAssembly heap beside it), the worker that has held its document longest is terminated and
 * that document ends with out-of-memory; the run goes on with a fresh worker, and the next
 * recycle waits until the memory has come back under the ceiling.
 */
export const RSS_CHECK_MS = 200;
export const RSS_OVERHEAD_MIB = 512;
export const RSS_PER_JOB = 2;

/** The resident memory (MiB) past which the pool recycles a worker. */
export const rssCeilingMib = (options: Pick<ParsePoolOptions, 'jobs' | 'memory'>): number => RSS_OVERHEAD_MIB + options.jobs * options.memory * RSS_PER_JOB;

/** Memory of one worker after a document: its V8 heap and the memory outside it, in bytes. */
export interface WorkerMemory {
  worker: number;
  heapUsed: number;
  external: number;
  /** Share of the worker's life spent working (event-loop utilisation, 0–1). */
  busy: number;
}

/**
 * The pool's Transform: `pdf` records in, document records out, in input order (other records pass
 * through in place). `workerUrl` is for tests (a worker that fails on purpose); `chain`: stages to
 * run inside the workers; `render`, without a chain: the workers write each document's records
 * and send what they wrote (`WrittenPart`s and a `WrittenDocument`), not the records.
 */
export function parsePool(options: ParsePoolOptions, { workerUrl, chain, render }: { workerUrl?: URL; chain?: WorkerChain; render?: RenderOptions } = {}): Transform {
  const url = workerUrl ?? defaultWorkerUrl(chain ? 'chain' : 'parse');
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
  /**
   * The stages after parse are built in the workers alone (their lexicons and models loaded once,
   * where they are used). The first worker builds them as it starts; until it says they loaded,
   * nothing is written, so that an option naming a file that cannot be read, or a model that
   * cannot be loaded, fails the whole run as one usage error before any document.
   */
  let chainChecked = !chain;
  // Until the stages are checked, a referenced timer also holds the process open, so that the run
  // can never end silently for want of work while the check is under way; it gives up after
  // CHAIN_CHECK_MS with an error rather than wait forever.
  let chainWait: NodeJS.Timeout | null = null;
  const markChecked = (): void => {
    chainChecked = true;
    if (chainWait) clearTimeout(chainWait);
    chainWait = null;
  };

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
      if (watcher) clearInterval(watcher);
      if (chainWait) clearTimeout(chainWait);
      for (const slot of slots) void slot.worker.terminate();
      done(error);
    },
  });

  function newSlot(): Slot {
    // The first slot takes the worker the command started before loading its modules, if any.
    const early = !workerUrl && workers === 0 ? takeEarlyWorker(options.memory) : null;
    if (early) early.postMessage({ setup: { engine: options.engine, chain } } satisfies EarlySetup);
    const worker = early ?? new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: options.memory }, workerData: { engine: options.engine, chain } });
    const slot: Slot = { worker, job: null, timer: null, ready: false, since: 0 };
    const number = ++workers;
    type Message = { task: number; record: PipeRecord | WrittenPart | WrittenDocument; done?: boolean; memory?: Omit<WorkerMemory, 'worker'> } | { ready: true } | { chainError: string; usage: boolean };
    worker.on('message', (message: Message) => {
      if ('chainError' in message) {
        stream.destroy(message.usage ? new UsageError(message.chainError) : new Error(message.chainError));
        return;
      }
      if ('ready' in message) {
        slot.ready = true;
        if (!chainChecked) {
          markChecked();
          if (!slot.job) worker.unref();
          drain();
        }
        if (slot.job && !slot.timer) armTimer(slot);
        return;
      }
      const job = byTask.get(message.task);
      if (!job || job.finished) return;
      job.records.push(message.record);
      if (message.memory) stream.emit('worker-memory', { worker: number, ...message.memory } satisfies WorkerMemory);
      if (message.done && message.memory && options.recycleMemory > 0 && message.memory.heapUsed + message.memory.external > options.recycleMemory * MiB) retire(slot);
      if (message.done) complete(slot, job);
      drain();
      // The documents written before this one are garbage by now.
      if (message.done) collectBetweenDocuments();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const code: ErrorCode = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out-of-memory' : 'worker-crashed';
      const message = code === 'out-of-memory'
        ? `The document needed more than the ${options.memory} MiB heap limit`
        : `The parse worker crashed: ${error.message}`;
      // A worker that dies before its stages loaded leaves them unchecked: documents fail one by one.
      markChecked();
      fail(slot, code, message);
    });
    worker.on('exit', () => {
      markChecked();
      if (slot.job) fail(slot, 'worker-crashed', 'The parse worker exited unexpectedly');
    });
    // The first worker holds the process open until it has checked the stages (a run of no documents too).
    if (chainChecked) worker.unref();
    else chainWait ??= setTimeout(() => stream.destroy(new Error('The parse workers did not finish loading the stages')), CHAIN_CHECK_MS);
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

  /** Takes a worker out of the pool once its document is done (see `recycleMemory`); the next document starts a fresh one. */
  function retire(slot: Slot): void {
    const index = slots.indexOf(slot);
    if (index !== -1) slots.splice(index, 1);
    void slot.worker.terminate();
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
    slot.since = Date.now();
    watchMemory();
    const message: WorkerTask = { task, id: job.id, source: input.source ?? input.path ?? 'data', options: { engine: options.engine, normalize: options.normalize, memory: options.memory, password: options.password, firstPage: options.firstPage, lastPage: options.lastPage, maxPages: options.maxPages, ocr: options.ocr, ocrLang: options.ocrLang, ocrDpi: options.ocrDpi, ocrTimeout: options.ocrTimeout, ocrBudget: options.ocrBudget, tesseract: options.tesseract } };
    if (chain) message.chain = chain;
    else if (render) message.render = render;
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

  let watcher: NodeJS.Timeout | null = null;
  let overCeiling = false;
  /** Checks the process's resident memory while any worker is busy (see RSS_CHECK_MS). */
  function watchMemory(): void {
    if (watcher) return;
    const ceiling = rssCeilingMib(options) * 1024 * 1024;
    watcher = setInterval(() => {
      const busy = slots.filter((s) => s.job !== null);
      if (busy.length === 0) {
        clearInterval(watcher!);
        watcher = null;
        return;
      }
      const rss = process.memoryUsage.rss();
      // Freed memory leaves the process some time after a worker is terminated: until the
      // resident memory has gone back under the ceiling, the next worker is not to blame.
      if (rss <= ceiling) {
        overCeiling = false;
        return;
      }
      if (overCeiling) return;
      overCeiling = true;
      const oldest = busy.reduce((a, b) => (b.since < a.since ? b : a));
      fail(oldest, 'out-of-memory', `The run's memory passed its ${rssCeilingMib(options)} MiB ceiling while this document was being read`);
    }, RSS_CHECK_MS);
    watcher.unref();
  }

  function armTimer(slot: Slot): void {
    slot.timer = setTimeout(() => {
      fail(slot, 'timeout', `Parsing took longer than the ${options.timeout} s time limit`);
    }, options.timeout * 1000);
  }

  /** Emits finished documents in input order, and the head document's records as they come. */
  function drain(): void {
    if (!chainChecked) return;
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
    if (flushDone && chainChecked && queue.length === 0 && waiting.length === 0) {
      const done = flushDone;
      flushDone = null;
      for (const slot of slots) void slot.worker.terminate();
      slots.length = 0;
      done();
    }
  }

  // The first worker starts with the pool, loading its engine and stages while the inputs are listed.
  if (chain) slots.push(newSlot());
  return stream;
}
