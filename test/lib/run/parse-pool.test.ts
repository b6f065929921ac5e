/**
 * The parse worker pool (lib/run/parse-pool.ts): a bounded intake, and a worker that crashes (its
 * document gets worker-crashed, a fresh worker takes the next, input order is kept).
 */
import t from 'tap';
import { Readable, Writable } from 'node:stream';
import { parsePool } from '../../../lib/run/parse-pool.js';
import { DEFAULTS } from '../../../stages/parse.js';
import type { PdfRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { samplePdf } from '../../helpers.js';

t.test('bounded intake: parse takes only a few inputs ahead of a reader that does not read', async (t) => {
  let pulled = 0;
  async function* many(): AsyncGenerator<PdfRecord> {
    for (let i = 0; i < 2000; i++) {
      pulled += 1;
      yield { type: 'pdf', id: `d${i}`, path: samplePdf('letter-spaced') };
    }
  }
  const stage = parsePool({ ...DEFAULTS, jobs: 2 });
  Readable.from(many()).pipe(stage);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  t.ok(pulled > 2, `documents were taken in (${pulled})`);
  t.ok(pulled < 60, `but not many more than the pool and the output buffer hold (${pulled} of 2000)`);
  stage.destroy();
  // And with a reader, everything arrives.
  let ends = 0;
  async function* few(): AsyncGenerator<PdfRecord> {
    for (let i = 0; i < 12; i++) yield { type: 'pdf', id: `e${i}`, path: samplePdf('letter-spaced') };
  }
  await new Promise<void>((resolve, reject) => {
    Readable.from(few())
      .pipe(parsePool({ ...DEFAULTS, jobs: 2 }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { if (r.type === 'end') ends += 1; done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  t.equal(ends, 12);
});

t.test('a worker that crashes: that document gets worker-crashed, a fresh worker takes the next, order kept', async (t) => {
  const workerUrl = new URL('../../crashing-worker.js', import.meta.url);
  const ids = ['ok-1', 'exit-1', 'ok-2', 'throw-1', 'ok-3', 'exit-2', 'ok-4'];
  const records: PipeRecord[] = [];
  await new Promise<void>((resolve, reject) => {
    Readable.from(ids.map((id): PdfRecord => ({ type: 'pdf', id, path: samplePdf('letter-spaced') })))
      .pipe(parsePool({ ...DEFAULTS, jobs: 2 }, { workerUrl }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { records.push(r); done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.same(
    outcomes.map((r) => (r.type === 'error' ? `${r.doc}:${r.code}` : `${r.type === 'end' && r.doc}:end`)),
    ['ok-1:end', 'exit-1:worker-crashed', 'ok-2:end', 'throw-1:worker-crashed', 'ok-3:end', 'exit-2:worker-crashed', 'ok-4:end'],
    'one outcome per document, in input order',
  );
});

t.test('a worker that holds more than recycleMemory after a document is replaced; the records stay the same', async (t) => {
  const run = async (recycleMemory: number): Promise<{ workers: number[]; records: string }> => {
    const workers: number[] = [];
    const records: PipeRecord[] = [];
    const pool = parsePool({ ...DEFAULTS, jobs: 1, recycleMemory });
    pool.on('worker-memory', (m: { worker: number }) => workers.push(m.worker));
    await new Promise<void>((resolve, reject) => {
      Readable.from(['one-column', 'paper', 'cjk'].map((name): PdfRecord => ({ type: 'pdf', id: name, path: samplePdf(name) })))
        .pipe(pool)
        .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { records.push(r); done(); } }))
        .on('finish', resolve)
        .on('error', reject);
    });
    return { workers, records: JSON.stringify(records).replace(/"ms":[0-9]+/g, '"ms":0') };
  };
  const kept = await run(0);
  const replaced = await run(1);
  t.same(kept.workers, [1, 1, 1], 'without a limit one worker reads every document');
  t.same(replaced.workers, [1, 2, 3], 'past the limit each document gets a fresh worker');
  t.equal(replaced.records, kept.records);
});
