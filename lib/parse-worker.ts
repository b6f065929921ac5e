/**
 * Worker-thread entry for the parse stage: reads one document at a time and posts its records.
 * Running each document here lets the parent enforce a time limit (terminate) and a heap limit
 * (resourceLimits) without a hostile PDF taking the whole run down.
 */
import { readFile } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import type { Transform } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from './engines/errors.js';
import * as pdfjs from './engines/pdfjs.js';
import * as pdfium from './engines/pdfium.js';
import { errorRecord, type PipeRecord } from './records.js';
import type { WorkerChain } from '../stages/parse.js';

/** The parse engines by name: each turns PDF bytes into doc, page and diagnostic records. */
export const ENGINES = { pdfjs, pdfium } as const;
export type EngineName = keyof typeof ENGINES;

/** What a document's engine needs: which engine, and its options. */
export interface EngineOptions extends pdfjs.PdfjsOptions, pdfium.PdfiumOptions {
  engine: EngineName;
}

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
  const module = (await import(spec.module)) as { workerChain(options: unknown): Transform[] };
  const stages = module.workerChain(spec.options);
  for (let i = 1; i < stages.length; i++) stages[i - 1]!.pipe(stages[i]!);
  const chain: OpenChain = { head: stages[0]!, task: null };
  stages[stages.length - 1]!.on('data', (record: PipeRecord) => {
    const task = chain.task;
    if (!task) return;
    const outcome = (record.type === 'end' || record.type === 'error') && record.doc === task.id;
    if (outcome) {
      chain.task = null;
      parentPort!.postMessage({ task: task.task, record, done: true, memory: memory() });
    } else {
      parentPort!.postMessage({ task: task.task, record });
    }
  });
  return chain;
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
      openChain ??= chainOf(task.chain);
      chain = await openChain;
      chain.task = task;
    }
  } catch (error) {
    port.postMessage({ task: task.task, record: errorRecord(task.id, 'parse', 'worker-crashed', `The worker's stages could not be loaded: ${(error as Error).message}`), done: true, memory: memory() });
    return;
  }
  // Without a chain, records go straight to the parent; the outcome record marks the task done.
  const emit = (record: PipeRecord, done = false): void => {
    if (chain) chain.head.write(record);
    else port.postMessage(done ? { task: task.task, record, done: true, memory: memory() } : { task: task.task, record });
  };
  try {
    const bytes = await load(task);
    const engine = ENGINES[task.options.engine] ?? pdfjs;
    for await (const record of engine.extractRecords(bytes, task.id, task.source, task.options)) {
      if (record.type === 'page') {
        pages += 1;
        for (const item of record.items ?? []) {
          items += 1;
          chars += item.text.length;
        }
      }
      emit(record);
    }
    const stats = { pages, items, chars, ms: Date.now() - started };
    emit({ type: 'end', doc: task.id, stats }, true);
  } catch (error) {
    const failure = error instanceof EngineError ? error : new EngineError('corrupt', String((error as Error)?.message ?? error));
    emit(errorRecord(task.id, 'parse', failure.code, failure.message), true);
  }
}

/** This worker's own memory after a document (its V8 heap, and buffers outside it) and how busy it was, for the run's report. */
function memory(): { heapUsed: number; external: number; busy: number } {
  const heap = getHeapStatistics();
  // busy: the share of this thread's life spent working rather than waiting for a task.
  return { heapUsed: heap.used_heap_size, external: heap.external_memory, busy: performance.eventLoopUtilization().utilization };
}

parentPort?.on('message', (task: WorkerTask) => {
  void run(task);
});

// The parent starts a document's clock only after this, so loading the engine (pdf.js: a few
// hundred ms) does not count against the first document's time limit. A failed load is reported
// by each task.
const preloaded: EngineName = (workerData as { engine?: EngineName } | undefined)?.engine === 'pdfium' ? 'pdfium' : 'pdfjs';
void ENGINES[preloaded]
  .preloadEngine()
  .catch(() => undefined)
  .then(() => parentPort?.postMessage({ ready: true }));
