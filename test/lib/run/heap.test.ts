/**
 * Between documents, a thread whose heap has grown by COLLECT_AFTER_MIB collects its garbage: the
 * dead records of documents already written do not stay resident until V8's own limit. A parse
 * worker running the stages collects once they have all let the document go.
 */
import t from 'tap';
import { getHeapStatistics } from 'node:v8';
import { Readable, Writable } from 'node:stream';
import { collectBetweenDocuments, COLLECT_AFTER_MIB } from '../../../lib/run/heap.js';
import { analysisChain } from '../../../lib/run/extract.js';
import type { PdfRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { samplePdf, wildFile } from '../../helpers.js';

const MIB = 1024 * 1024;
const used = (): number => getHeapStatistics().used_heap_size;

t.test('dead records of past documents are collected once the heap has grown enough', async (t) => {
  collectBetweenDocuments();
  const start = used();
  // Records of a long document, kept alive across collections of the young generation (so they
  // move to the old one), then dropped as the document is written.
  let pages: { text: string; x: number; y: number }[][] = [];
  while (used() - start < 2 * COLLECT_AFTER_MIB * MIB) {
    pages.push(Array.from({ length: 2000 }, (_, i) => ({ text: `word ${i} ${pages.length}`, x: i, y: pages.length })));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const grown = used() - start;
  pages = [];
  t.equal(pages.length, 0);
  collectBetweenDocuments();
  t.ok(used() - start < grown / 4, `heap after the document: ${((used() - start) / MIB).toFixed(0)} MiB above the start, from ${(grown / MIB).toFixed(0)}`);
});

const walden = wildFile('pdfcpu__WaldenFull.pdf');

t.test('a worker collects after a long document once the stages have let it go: what it reports is what stays alive', { skip: walden.skip }, async (t) => {
  // The outcome record comes out of the last stage while the stages before still hold the
  // document; a collection made there would keep all of it (100+ MiB for this one).
  const [parse] = analysisChain({ jobs: 1, ocr: 'never' });
  const heaps: number[] = [];
  parse!.on('worker-memory', (m: { heapUsed: number }) => heaps.push(m.heapUsed));
  const outcomes: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const short: PdfRecord = { type: 'pdf', id: 'one-column', path: samplePdf('one-column') };
    Readable.from([short, { type: 'pdf', id: 'walden', path: walden.path } satisfies PdfRecord])
      .pipe(parse!)
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { if (r.type === 'end' || r.type === 'error') outcomes.push(r.type); done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  t.same(outcomes, ['end', 'end']);
  t.equal(heaps.length, 2, 'one report per document, with its outcome');
  const [afterShort = 0, afterLong = 0] = heaps;
  t.ok(afterLong - afterShort < COLLECT_AFTER_MIB * MIB / 2, `the worker's heap after one page ${(afterShort / MIB).toFixed(0)} MiB, after 249 more ${(afterLong / MIB).toFixed(0)} MiB`);
});
