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
 *
 * A worker runs one of two modules: the parse worker alone (lib/run/parse-worker.ts), for `parse`,
 * or with the stages after parse (lib/run/chain-worker.ts), for `extract` and the commands built
 * on it. With the stages they are some 140 files, which Node resolves, reads and compiles one by
 * one: most of a worker's start. The build bundles each into one script (scripts/bundle-worker.mjs),
 * which a worker runs instead, with V8's code cache (lib/run/worker-script.ts), while it holds what
 * the modules hold now: after a build by `tsc` alone the modules run as they are. Measured on one
 * one-page document, the whole process, 15 runs of each taken in turn (medians): `extract` 0.57 s
 * from the modules, 0.47 s from the bundle; `parse` 0.34 s and 0.30 s.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A worker's module: the parse worker alone, or with the stages after parse. */
export type WorkerKind = 'parse' | 'chain';

/** Each kind's module, and the bundle the build makes of it. */
export const WORKER_MODULES: Record<WorkerKind, { module: URL; bundle: URL }> = {
  parse: { module: new URL('./parse-worker.js', import.meta.url), bundle: new URL('./parse-worker.bundle.js', import.meta.url) },
  chain: { module: new URL('./chain-worker.js', import.meta.url), bundle: new URL('./chain-worker.bundle.js', import.meta.url) },
};

/** The script a bundle runs (NAME.bundle.js runs NAME.script.js): what the build bundled. */
export const scriptOf = (bundle: URL): URL => new URL(bundle.href.replace(/\.bundle\.js$/u, '.script.js'));

/** What the build writes beside a bundle (`bundle`.inputs.json): the project's modules in it, relative to it, and a digest of their contents. */
export interface BundleInputs {
  inputs: string[];
  sha256: string;
}

/** The SHA-256 of the files' contents, one after the other. */
export function digestOf(files: readonly URL[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(readFileSync(file));
  return hash.digest('hex');
}

/**
 * `bundle` when the modules it was made from hold what they held then (their digest, beside it);
 * else null: a module rebuilt since, or gone, or no bundle at all. Times cannot tell: a package
 * manager writes a package's files in any order, at the time it unpacks them.
 */
export function currentBundle(bundle: URL): URL | null {
  try {
    const made = JSON.parse(readFileSync(new URL(`${bundle.href}.inputs.json`), 'utf8')) as Partial<BundleInputs>;
    if (!existsSync(bundle) || !Array.isArray(made.inputs) || typeof made.sha256 !== 'string') return null;
    return digestOf(made.inputs.map((input) => new URL(input, bundle))) === made.sha256 ? bundle : null;
  } catch {
    return null;
  }
}

/** An installed copy (under node_modules), whose build is the one its package was made with. */
const INSTALLED = fileURLToPath(import.meta.url).split(/[\\/]/u).includes('node_modules');

const chosen = new Map<WorkerKind, URL>();

/**
 * The module a worker of this kind runs: its bundle when current, else its module (looked at
 * once). An installed copy takes its bundle when there is one, without reading its modules.
 */
export function workerUrl(kind: WorkerKind): URL {
  let url = chosen.get(kind);
  if (!url) {
    const { module, bundle } = WORKER_MODULES[kind];
    url = (INSTALLED ? (existsSync(bundle) ? bundle : null) : currentBundle(bundle)) ?? module;
    chosen.set(kind, url);
  }
  return url;
}

/** The stages `extract` runs in its workers (lib/run/chain.ts). */
export const CHAIN_URL = new URL('./chain.js', import.meta.url).href;

/** Modules a worker holds already, by URL: the stages, when it runs lib/run/chain-worker.ts. */
export const preloadedModules = new Map<string, unknown>();

/** The stages' module by its URL: the worker's own copy when it has one, else imported. */
export async function importChain(url: string): Promise<unknown> {
  return preloadedModules.get(url) ?? import(url);
}

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
 * `withStages`: with extract's stages, which it loads while it waits (`parse` runs none). It does
 * not keep the process alive: a command that ends without a pool (a usage error, --help) exits as
 * it would without it.
 */
export function startEarlyWorker({ withStages = true }: { withStages?: boolean } = {}): Worker {
  if (early) return early.worker;
  const worker = new Worker(workerUrl(withStages ? 'chain' : 'parse'), { resourceLimits: { maxOldGenerationSizeMb: DEFAULT_WORKER_MEMORY_MIB }, workerData: { early: true } });
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
