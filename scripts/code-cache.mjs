/**
 * Makes the V8 code cache of each worker bundle (lib/run/worker-script.ts): a worker of each kind
 * reads the samples as `extract` and `parse` read them, then writes what V8 compiled for it
 * beside its script (NAME.script.js.cache).
 *
 *     node scripts/code-cache.mjs      (after scripts/bundle-worker.mjs; `npm run build` runs it)
 *
 * The cache is V8's own: it holds for this Node's V8 and the command's V8 flags, which are set
 * here first, as the command sets them (lib/run/v8-flags.ts). A worker running under another
 * Node or other flags compiles as it would without a cache.
 */
import '../dist/lib/run/v8-flags.js';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { CHAIN_URL, currentBundle, WORKER_MODULES } from '../dist/lib/run/worker-start.js';
import { DEFAULTS as EXTRACT_DEFAULTS } from '../dist/lib/run/extract.js';
import { DEFAULTS as PARSE_DEFAULTS } from '../dist/stages/parse.js';
import { normalizeOptions as serializeOptions } from '../dist/stages/serialize.js';
import { recordsRender } from '../dist/lib/run/render.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const samples = readdirSync(join(root, 'samples'))
  .filter((name) => name.endsWith('.pdf'))
  .sort()
  .map((name) => join(root, 'samples', name));

/** The next message of `port` that `wanted` accepts; rejects when the worker fails first. */
function next(port, wanted) {
  return new Promise((resolvePromise, reject) => {
    const onMessage = (message) => {
      if (!wanted(message)) return;
      port.off('message', onMessage);
      port.off('error', reject);
      resolvePromise(message);
    };
    port.on('message', onMessage);
    port.on('error', reject);
  });
}

for (const [kind, { bundle }] of Object.entries(WORKER_MODULES)) {
  if (!currentBundle(bundle)) throw new Error(`${kind}: no current bundle (run scripts/bundle-worker.mjs first)`);
  const options = { ...EXTRACT_DEFAULTS, ocr: 'never' };
  // As the commands run them: `extract`'s stages writing each document, `parse` writing its records.
  const chain = kind === 'chain' ? { module: CHAIN_URL, options, render: { ...serializeOptions(options), outDir: '', stage: 'extract' } } : undefined;
  const render = kind === 'parse' ? recordsRender('parse') : undefined;
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(bundle, { workerData: { engine: 'pdfium', chain, codeCachePort: port2 }, transferList: [port2] });
  const started = await next(worker, (m) => 'ready' in m || 'chainError' in m);
  if ('chainError' in started) throw new Error(`${kind}: ${started.chainError}`);
  for (const [task, path] of samples.entries()) {
    const done = next(worker, (m) => m.task === task && m.done === true);
    worker.postMessage({ task, id: `sample-${task}`, source: path, path, options: { ...PARSE_DEFAULTS, engine: 'auto', ocr: 'never' }, ...(render ? { render } : {}) });
    await done;
  }
  const written = next(port1, (m) => 'codeCacheBytes' in m);
  port1.postMessage('write');
  const { codeCacheBytes } = await written;
  process.stdout.write(`code cache of the ${kind} worker: ${(codeCacheBytes / 1024 / 1024).toFixed(2)} MiB after ${samples.length} samples\n`);
  port1.close();
  await worker.terminate();
}
