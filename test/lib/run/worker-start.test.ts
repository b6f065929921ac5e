/**
 * The parse worker a command starts before loading its own modules: the pool takes it as its
 * first worker when its heap limit is the one asked for, and the documents come out as from a
 * worker the pool started itself; with another limit it is stopped, unused.
 */
import t from 'tap';
import { extract } from '../../../lib/run/extract.js';
import { DEFAULT_WORKER_MEMORY_MIB, startEarlyWorker, takeEarlyWorker } from '../../../lib/run/worker-start.js';
import { samplePdf } from '../../helpers.js';

const pdf = samplePdf('one-column');

async function texts(options: { memory?: number } = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const document of extract([pdf], { ocr: 'never', jobs: 1, ...options })) out.push(document.text);
  return out;
}

t.test('the pool takes the worker started early and reads the document with it', async (t) => {
  const expected = await texts();
  t.ok(expected.length === 1 && expected[0]!.length > 100, 'the document has text');
  const worker = startEarlyWorker();
  const posted: unknown[] = [];
  worker.on('message', (message) => posted.push(message));
  t.same(await texts(), expected, 'the same text as from a worker the pool started');
  t.ok(posted.some((m) => typeof m === 'object' && m !== null && 'record' in m), 'the early worker posted the records');
  t.equal(takeEarlyWorker(DEFAULT_WORKER_MEMORY_MIB), null, 'it was taken once');
});

t.test('a worker started early with another heap limit is stopped, unused', async (t) => {
  const expected = await texts({ memory: 512 });
  const worker = startEarlyWorker();
  const posted: unknown[] = [];
  worker.on('message', (message) => posted.push(message));
  const exited = new Promise<number>((resolve) => worker.on('exit', resolve));
  t.same(await texts({ memory: 512 }), expected);
  await exited;
  t.same(posted, [], 'it posted nothing');
});

t.test('a worker started early for parse alone still builds the stages its setup asks for', async (t) => {
  const expected = await texts();
  const worker = startEarlyWorker({ withStages: false });
  const posted: unknown[] = [];
  worker.on('message', (message) => posted.push(message));
  t.same(await texts(), expected);
  t.ok(posted.some((m) => typeof m === 'object' && m !== null && 'record' in m), 'the early worker read the document');
});
