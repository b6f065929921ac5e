/**
 * Between documents, a thread whose heap has grown by COLLECT_AFTER_MIB collects its garbage: the
 * dead records of documents already written do not stay resident until V8's own limit.
 */
import t from 'tap';
import { getHeapStatistics } from 'node:v8';
import { collectBetweenDocuments, COLLECT_AFTER_MIB } from '../../../lib/run/heap.js';

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
