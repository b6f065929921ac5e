/**
 * Where parse workers come from: the worker's module, the heap limit a worker has unless the
 * options say otherwise, and the one worker the command starts before it loads its own modules.
 *
 * A worker's start is mostly loading and compiling its modules, and the main thread's is too:
 * one after the other they make up most of a one-page run. Started first, the worker loads its
 * modules, the engine and the stages while the main thread loads its own, on a second core where
 * there is one. It waits for its setup (the engine and stages the options ask for) from the pool,
 * which takes it as its first worker (`takeEarlyWorker`). This module imports nothing else of the
 * project, so that the worker starts before the command's modules are read.
 */
import { Worker } from 'node:worker_threads';

/** The parse worker's module. */
export const WORKER_URL = new URL('./parse-worker.js', import.meta.url);

/** The stages `extract` runs in its workers (lib/run/chain.ts). */
export const CHAIN_URL = new URL('./chain.js', import.meta.url).href;

/** A worker's heap limit in MiB (the parse options' `memory`) unless the options set another. */
export const DEFAULT_WORKER_MEMORY_MIB = 2048;

/** What a worker started early is told when the pool takes it: what its workerData would have said. */
export interface EarlySetup {
  setup: { engine: string; chain: unknown };
}

/** The worker started early, its heap limit, and whether it has already died. */
let early: { worker: Worker; memory: number; dead: boolean } | null = null;

/**
 * Starts a parse worker with the default heap limit, to be set up later (`workerData.early`);
 * `withStages`: it loads extract's stages while it waits (`parse` runs none). It does not keep the
 * process alive: a command that ends without a pool (a usage error, --help) exits as it would
 * without it.
 */
export function startEarlyWorker({ withStages = true }: { withStages?: boolean } = {}): Worker {
  if (early) return early.worker;
  const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: DEFAULT_WORKER_MEMORY_MIB }, workerData: { early: true, withStages } });
  const started = { worker, memory: DEFAULT_WORKER_MEMORY_MIB, dead: false };
  // Until the pool takes it, a worker that dies is only noted: the pool then starts its own.
  worker.on('error', () => (started.dead = true));
  worker.on('exit', () => (started.dead = true));
  worker.unref();
  early = started;
  return worker;
}

/**
 * The worker started early, now the caller's, when it is alive and has the heap limit asked for;
 * else null (and a worker of another limit is stopped). Taken once.
 */
export function takeEarlyWorker(memory: number): Worker | null {
  const taken = early;
  early = null;
  if (!taken || taken.dead) return null;
  if (taken.memory !== memory) {
    void taken.worker.terminate();
    return null;
  }
  taken.worker.ref();
  return taken.worker;
}
