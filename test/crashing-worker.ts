/**
 * A parse worker for tests that fails on purpose: a document whose id starts with `exit` ends the
 * worker thread, one starting with `throw` throws outside any promise; the rest go to the real
 * worker. It stands for a crash of pdf.js or of Node inside a worker.
 */
import { parentPort } from 'node:worker_threads';
// Imported first, so the real worker is listening before any task arrives.
import '../lib/run/parse-worker.js';

parentPort!.on('message', (task: { id?: string }) => {
  if (task.id?.startsWith('exit')) process.exit(3);
  if (task.id?.startsWith('throw')) {
    setImmediate(() => {
      throw new Error('the worker broke');
    });
  }
});
