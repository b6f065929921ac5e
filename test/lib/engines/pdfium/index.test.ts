/**
 * The PDFium engine's entry (lib/engines/pdfium/index.ts) called directly: the heap limit.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import * as pdfium from '../../../../lib/engines/pdfium/index.js';
import type { PipeRecord } from '../../../../lib/protocol/records.js';
import { samplePdf } from '../../../helpers.js';

t.test('pdfium: a document that grows the heap past the memory limit ends with out-of-memory; the next one parses', async (t) => {
  const bytes = new Uint8Array(readFileSync(samplePdf('one-column')));
  const drain = async (memory: number): Promise<PipeRecord[]> => {
    const out: PipeRecord[] = [];
    for await (const record of pdfium.extractRecords(bytes, 'one-column', 'one-column.pdf', { normalize: true, memory })) out.push(record);
    return out;
  };
  // The WebAssembly heap starts above 1 MiB, so the first page already passes this limit.
  await t.rejects(drain(1), { name: 'EngineError', code: 'out-of-memory' });
  const records = await drain(2048);
  t.same(records.map((r) => r.type), ['doc', 'page']);
});
