/**
 * Runs a worker's bundle as a script with V8's code cache beside it (lib/run/worker-start.ts,
 * scripts/bundle-worker.mjs).
 *
 * A worker that starts from source parses its 1.2 MB bundle, and then every function it calls for
 * the first time is parsed again and compiled to bytecode as it is called: on a one-page document
 * most of the worker's time before its first output. Node 20 keeps no compiled code for ES
 * modules between runs (Node 22's `module.enableCompileCache()` does), but `vm.Script` takes the
 * code cache V8 makes of a script: the build runs each bundle over the samples and keeps what V8
 * compiled (scripts/code-cache.mjs), and a worker starts from that. V8 takes a cache only when its
 * version, its flags and the source's length are the ones it was made with; otherwise it compiles
 * as without one (`cachedDataRejected`), so a cache made for another Node or under other flags
 * costs only its reading. The build removes the cache before it bundles and makes it again after,
 * so that a cache never meets a bundle of the same length but other code.
 *
 * The bundle is CommonJS-shaped (esbuild's `cjs` format) with names given from outside: `require`
 * for Node's built-in modules, `module` and `exports` for what its entry exports (the exports stay
 * unused: a worker talks through its port), `__bundleUrl` for what the modules read as
 * `import.meta.url`, and `__import` for their dynamic imports (pdf.js, Node's `module` in
 * PDFium's loader): a script compiled by `vm` has no module loader of its own on Node 20.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { workerData, type MessagePort } from 'node:worker_threads';

/** The names the bundle is run with, in the order of the wrapper's parameters. */
export const SCRIPT_PARAMETERS = ['require', 'module', 'exports', '__bundleUrl', '__import'] as const;

/** The wrapper the bundle's source is compiled in (strict, as the ES modules it was made from). */
export function wrapScript(source: string): string {
  return `(function (${SCRIPT_PARAMETERS.join(', ')}) {"use strict";${source}\n})`;
}

/** Where a bundle's code cache is kept: beside it, named after it. */
export const codeCacheOf = (script: URL): URL => new URL(`${script.href}.cache`);

/** A bundle compiled from its source, with `cachedData` when there is a cache to try. */
export function compileScript(script: URL, cachedData?: Buffer): Script {
  return new Script(wrapScript(readFileSync(script, 'utf8')), { filename: script.href, ...(cachedData ? { cachedData } : {}) });
}

/**
 * What a worker tells the port its creator may give it (`workerData.codeCachePort`, a
 * MessagePort): asked `status`, whether V8 took the cache (null: there was none); asked
 * `write`, it writes its code cache and says how many bytes.
 */
export type CodeCacheReply = { cacheAccepted: boolean | null } | { codeCacheBytes: number };

/** Compiles and runs a bundle in this thread, with its code cache when there is one. */
export function runWorkerScript(script: URL): void {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCacheOf(script));
  } catch {
    cachedData = undefined;
  }
  const compiled = compileScript(script, cachedData);
  // The build asks for the cache once the worker has read its documents: V8 then writes what it
  // compiled so far, the functions those documents called included. A port apart from the
  // worker's own, so that the parse worker's messages stay as they are.
  const port = (workerData as { codeCachePort?: MessagePort } | undefined)?.codeCachePort;
  port?.on('message', (message: unknown) => {
    if (message === 'status') port.postMessage({ cacheAccepted: cachedData ? !compiled.cachedDataRejected : null } satisfies CodeCacheReply);
    if (message !== 'write') return;
    const data = compiled.createCachedData();
    writeFileSync(codeCacheOf(script), data);
    port.postMessage({ codeCacheBytes: data.length } satisfies CodeCacheReply);
  });
  port?.unref();
  const run = compiled.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  run(createRequire(script), module, module.exports, script.href, (specifier: string) => import(specifier));
}
