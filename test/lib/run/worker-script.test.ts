/**
 * The worker bundles run as scripts with the code cache the build made: V8 takes the cache under
 * the command's V8 flags (a cache it refused would only cost its reading, silently), and refuses
 * one made of other code, which then compiles and runs as without a cache.
 */
import '../../../lib/run/v8-flags.js';
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { currentBundle, WORKER_MODULES } from '../../../lib/run/worker-start.js';
import { compileScript, type CodeCacheReply } from '../../../lib/run/worker-script.js';

/** What a worker running `bundle` says of its code cache. */
async function cacheStatus(bundle: URL): Promise<CodeCacheReply> {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(bundle, { workerData: { early: true, codeCachePort: port2 }, transferList: [port2] });
  try {
    const reply = new Promise<CodeCacheReply>((resolve, reject) => {
      port1.once('message', resolve);
      worker.once('error', reject);
    });
    port1.postMessage('status');
    return await reply;
  } finally {
    port1.close();
    await worker.terminate();
  }
}

t.test("each worker bundle starts from the build's code cache", async (t) => {
  for (const [kind, { bundle }] of Object.entries(WORKER_MODULES)) {
    if (!currentBundle(bundle)) {
      t.fail(`${kind}: no current bundle (npm run build makes it)`);
      continue;
    }
    t.same(await cacheStatus(bundle), { cacheAccepted: true }, `${kind}: V8 took the cache`);
  }
});

t.test('a cache made of other code is refused and the script runs as without one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-script-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = pathToFileURL(join(dir, 'worker.script.js'));
  writeFileSync(script, 'module.exports.answer = 6 * 7;\n');
  const cache = compileScript(script).createCachedData();
  t.equal(compileScript(script, cache).cachedDataRejected, false, 'the same source: taken');
  writeFileSync(script, 'module.exports.answer = 6 * 7 + 1 - 1 + [].length;\n');
  const other = compileScript(script, cache);
  t.equal(other.cachedDataRejected, true, 'another source: refused');
  const module = { exports: {} as { answer?: number } };
  (other.runInThisContext() as (...args: unknown[]) => void)(null, module, module.exports, script.href, null);
  t.equal(module.exports.answer, 42, 'and the script still runs');
  t.end();
});
