/**
 * A parse worker for tests that fails on purpose: a document whose id starts with `exit` ends the
 * worker thread, one starting with `throw` throws outside any promise, one starting with `hog`
 * takes 3 GiB outside the V8 heap in one synchronous loop; the rest
 * go to the real worker. They stand for a crash of pdf.js or of Node, or a decoder gone wild.
 */
import { parentPort } from 'node:worker_threads';
// Imported first, so the real worker is listening before any task arrives.
import '../lib/run/parse-worker.js';

parentPort!.on('message', (task: { id?: string }) => {
  if (task.id?.startsWith('exit')) process.exit(3);
  if (task.id?.startsWith('hog')) {
    // Synchronous, as a decoder's loop is: only the pool's own check can stop it.
    const held: Buffer[] = [];
    while (held.length < 48) held.push(Buffer.alloc(64 * 1024 * 1024, 1));
  }
  if (task.id?.startsWith('throw')) {
    setImmediate(() => {
      throw new Error('the worker broke');
    });
  }
});
