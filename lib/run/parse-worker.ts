/**
 * Worker-thread entry for the parse stage: reads one document at a time and posts its records.
 * Running each document here lets the parent enforce a time limit (terminate) and a heap limit
 * (resourceLimits) without a hostile PDF taking the whole run down.
 */
import { readFile } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import type { Transform } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from '../engines/errors.js';
import * as pdfjs from '../engines/pdfjs.js';
import * as pdfium from '../engines/pdfium/index.js';
import { diagnostic, errorRecord, type PipeRecord } from '../protocol/records.js';
import type { EngineName, RenderOptions, WorkerChain, WorkerTask, WrittenDocument, WrittenPart } from './worker-task.js';
import { collectBetweenDocuments } from './heap.js';
import { importChain, type EarlySetup } from './worker-start.js';

/** The parse engines by name: each turns PDF bytes into doc, page and diagnostic records. */
export const ENGINES: Record<Exclude<EngineName, 'auto'>, typeof pdfjs | typeof pdfium> = { pdfjs, pdfium };

/**
 * PDFium's failures that pdf.js may get past. A password PDFium refused may still open in pdf.js:
 * PDFium never tries the empty owner password, the patched pdf.js does (see lib/engines/pdfjs.ts).
 */
const RETRY_WITH_PDFJS = new Set(['corrupt', 'unreadable', 'out-of-memory', 'password-required']);


/**
 * A chain of record stages that lives as long as the worker (stages load lexicons and models
 * once). Documents go through it one at a time; its output belongs to the task in hand, which is
 * done when the document's outcome record comes out.
 */
interface OpenChain {
  head: Transform;
  task: WorkerTask | null;
}

let openChain: Promise<OpenChain> | null = null;

async function chainOf(spec: WorkerChain): Promise<OpenChain> {
  const module = (await importChain(spec.module)) as { workerChain(options: unknown, render?: RenderOptions): Transform[] };
  return chainFrom(module.workerChain(spec.options, spec.render));
}

/**
 * The chain that only writes each document (a task's `render`, without stages): what crosses to
 * the parent is the document's NDJSON, not its records, which the parent would rebuild from
 * their structured clone only to turn them into that NDJSON.
 */
let writer: Promise<OpenChain> | null = null;
const writerOf = (render: RenderOptions): Promise<OpenChain> => (writer ??= import('./render.js').then(({ renderDocuments }) => chainFrom([renderDocuments(render)])));

function chainFrom(stages: Transform[]): OpenChain {
  for (let i = 1; i < stages.length; i++) stages[i - 1]!.pipe(stages[i]!);
  const chain: OpenChain = { head: stages[0]!, task: null };
  stages[stages.length - 1]!.on('data', (record: PipeRecord | WrittenPart | WrittenDocument) => {
    const task = chain.task;
    if (!task) return;
    const outcome = (record.type === 'end' || record.type === 'error' || record.type === 'written') && record.doc === task.id;
    if (outcome) {
      chain.task = null;
      // The outcome comes out while each stage before still holds the document on the stack:
      // collected here, none of it would be garbage yet (see memory()).
      setImmediate(() => parentPort!.postMessage({ task: task.task, record, done: true, memory: memory() }));
    } else {
      parentPort!.postMessage({ task: task.task, record });
    }
  });
  return chain;
}

/**
 * An engine's records up to `maxPages` pages: past them the engine is stopped (its generator
 * returned, so it frees the document) and a warning says how many pages were left unread. A page
 * tree of a million references to one page would otherwise stream a million pages.
 */
async function* firstPages(records: AsyncIterable<PipeRecord>, id: string, maxPages: number): AsyncGenerator<PipeRecord> {
  let pages = 0;
  let declared = 0;
  for await (const record of records) {
    if (record.type === 'doc') declared = record.meta.pages;
    if (record.type === 'page' && ++pages > maxPages) {
      yield diagnostic(id, 'parse', 'pages-left-unread', `The document has ${declared} pages; only the first ${maxPages} were read (--max-pages)`, { count: Math.max(0, declared - maxPages) });
      return;
    }
    yield record;
  }
}

/**
 * The pages after `done` as pdf.js reads them, when PDFium failed part way through a document it
 * had been streaming (a /Count of a million over one real page, a damaged page). A warning says
 * which pages came from pdf.js; when pdf.js fails too, PDFium's failure stands.
 */
async function restWithPdfjs(bytes: Uint8Array, task: WorkerTask, done: number, failure: EngineError, emit: (record: PipeRecord) => void): Promise<void> {
  const rest: PipeRecord[] = [];
  try {
    for await (const record of firstPages(pdfjs.extractRecords(bytes, task.id, task.source, task.options), task.id, task.options.maxPages)) {
      if (record.type === 'doc' || (record.type === 'page' && record.page <= done) || (record.type === 'diagnostic' && (record.place?.page ?? Infinity) <= done)) continue;
      rest.push(record);
    }
  } catch {
    throw failure;
  }
  const read = rest.filter((r) => r.type === 'page').length;
  emit(diagnostic(task.id, 'parse', 'engine-fallback', `PDFium failed after page ${done} (${failure.message}); pdf.js read the rest: ${read} more pages`, { place: { page: done + 1 }, count: read }));
  for (const record of rest) emit(record);
}

async function load(task: WorkerTask): Promise<Uint8Array> {
  if (task.data) return task.data;
  try {
    return new Uint8Array(await readFile(task.path ?? ''));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EngineError('not-found', `No such file: ${task.path}`);
    if (code === 'EISDIR') throw new EngineError('unreadable', `A directory, not a file: ${task.path}`);
    throw new EngineError('unreadable', `Cannot read ${task.path}: ${(error as Error).message}`);
  }
}

async function run(task: WorkerTask): Promise<void> {
  const port = parentPort!;
  const started = Date.now();
  let pages = 0;
  let items = 0;
  let chars = 0;
  let chain: OpenChain | null = null;
  try {
    if (task.chain) {
      // The check as the worker started reports a chain that cannot be built first (see below).
      await startupCheck;
      openChain ??= chainOf(task.chain);
      chain = await openChain;
      chain.task = task;
    } else if (task.render) {
      chain = await writerOf(task.render);
      chain.task = task;
    }
  } catch (error) {
    port.postMessage({ task: task.task, record: errorRecord(task.id, 'parse', 'worker-crashed', `The worker's stages could not be loaded: ${(error as Error).message}`), done: true, memory: memory() });
    return;
  }
  // Without a chain, records go straight to the parent; the outcome record marks the task done.
  const emit = (record: PipeRecord, done = false): void => {
    if (chain) chain.head.write(record);
    else if (!done) port.postMessage({ task: task.task, record });
    else setImmediate(() => port.postMessage({ task: task.task, record, done: true, memory: memory() }));
  };
  const count = (record: PipeRecord): void => {
    if (record.type !== 'page') return;
    pages += 1;
    for (const item of record.items ?? []) {
      items += 1;
      chars += item.text.length;
    }
  };
  const failed = (error: unknown): EngineError => (error instanceof EngineError ? error : new EngineError('corrupt', String((error as Error)?.message ?? error)));
  try {
    const bytes = await load(task);
    if (task.options.engine === 'auto') {
      // PDFium's records are held until they show text; a document that never does, or that
      // PDFium cannot open, is read again by pdf.js, and the reading with text is kept. Not when
      // every page PDFium read is images and drawings alone (a scan): pdf.js would find no text
      // there either, and reading it again doubled the time of such documents.
      const held: PipeRecord[] = [];
      let streaming = false;
      let pdfiumFailure: EngineError | null = null;
      const textless: pdfium.TextlessPages = { read: 0, mayHoldText: 0 };
      try {
        for await (const record of firstPages(pdfium.extractRecords(bytes, task.id, task.source, task.options, textless), task.id, task.options.maxPages)) {
          count(record);
          if (streaming) emit(record);
          else if (items > 0) {
            streaming = true;
            for (const early of held.splice(0)) emit(early);
            emit(record);
          } else held.push(record);
        }
      } catch (error) {
        const failure = failed(error);
        if (!RETRY_WITH_PDFJS.has(failure.code)) throw failure;
        if (streaming) {
          // Pages already went out: pdf.js reads the rest, from the page PDFium failed on.
          await restWithPdfjs(bytes, task, pages, failure, (record) => {
            count(record);
            emit(record);
          });
        }
        pdfiumFailure = failure;
      }
      if (!streaming && !pdfiumFailure && textless.read > 0 && textless.mayHoldText === 0) {
        for (const record of held) emit(record);
      } else if (!streaming) {
        const retry: PipeRecord[] = [];
        let retryItems = 0;
        try {
          for await (const record of firstPages(pdfjs.extractRecords(bytes, task.id, task.source, task.options), task.id, task.options.maxPages)) {
            if (record.type === 'page') retryItems += record.items?.length ?? 0;
            retry.push(record);
          }
        } catch (error) {
          if (pdfiumFailure) throw failed(error);
          retry.length = 0;
        }
        if (retryItems > 0 || (pdfiumFailure && retry.length > 0)) {
          pages = items = chars = 0;
          for (const record of retry) {
            count(record);
            emit(record);
          }
        } else if (pdfiumFailure) throw pdfiumFailure;
        else for (const record of held) emit(record);
      }
    } else {
      const engine = ENGINES[task.options.engine] ?? pdfjs;
      for await (const record of firstPages(engine.extractRecords(bytes, task.id, task.source, task.options), task.id, task.options.maxPages)) {
        count(record);
        emit(record);
      }
    }
    const stats = { pages, items, chars, ms: Date.now() - started };
    emit({ type: 'end', doc: task.id, stats }, true);
  } catch (error) {
    const failure = failed(error);
    emit(errorRecord(task.id, 'parse', failure.code, failure.message), true);
  }
}

/** This worker's own memory after a document (its V8 heap, and buffers outside it) and how busy it was, for the run's report. */
function memory(): { heapUsed: number; external: number; busy: number } {
  // Called once the document's records have been posted and the code that made them has
  // returned (setImmediate): what they took is garbage now.
  collectBetweenDocuments();
  const heap = getHeapStatistics();
  // busy: the share of this thread's life spent working rather than waiting for a task.
  return { heapUsed: heap.used_heap_size, external: heap.external_memory, busy: performance.eventLoopUtilization().utilization };
}

/** How a worker is set up: its engine and the stages it runs after it. */
type Setup = { engine?: EngineName; chain?: WorkerChain };

// The parent starts a document's clock only after the ready message, so loading the engine
// (pdf.js: a few hundred ms) does not count against the first document's time limit. A failed
// load is reported by each task.
// The stages after parse are built here as the worker starts, not in the main thread: a stage
// that cannot be built (a file an option names is missing, a model is malformed) is reported as
// such, and the parent ends the run with it as a usage error before any document.
// A task that arrives while the stages load waits for this check to be posted: were the task's
// own failure posted first, the parent would count that document done and let its worker go
// idle, and the run could end before the check's message came, with no error and no output.
function startUp(setup: Setup | undefined): Promise<void> {
  const preloaded: keyof typeof ENGINES = setup?.engine === 'pdfjs' ? 'pdfjs' : 'pdfium';
  if (setup?.chain) openChain = chainOf(setup.chain);
  return Promise.all([ENGINES[preloaded].preloadEngine().catch(() => undefined), openChain]).then(
    () => parentPort?.postMessage({ ready: true }),
    (error: Error) => parentPort?.postMessage({ chainError: error.message, usage: error.name === 'UsageError' }),
  );
}

const given = workerData as (Setup & { early?: boolean }) | undefined;
let startupCheck: Promise<void> = given?.early ? Promise.resolve() : startUp(given);
// Started before the command read its options (lib/run/worker-start.ts): PDFium, what most runs
// use, loads while the setup, the pool's first message, is awaited (and the stages with it, in a
// worker that holds them: lib/run/chain-worker.ts).
if (given?.early) void ENGINES.pdfium.preloadEngine().catch(() => undefined);

// Messages come in order: a worker started early has its setup before its first task.
parentPort?.on('message', (message: WorkerTask | EarlySetup) => {
  if ('setup' in message) startupCheck = startUp(message.setup as Setup);
  else void run(message);
});
