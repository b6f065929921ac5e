/**
 * The PDFium engine's entry (lib/engines/pdfium/index.ts): the heap limit, called directly; and a
 * document's reading that does not depend on the documents read before it in the same worker.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as pdfium from '../../../../lib/engines/pdfium/index.js';
import type { PipeRecord } from '../../../../lib/protocol/records.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, samplePdf, wildFile } from '../../../helpers.js';

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

const drawn = wildFile('pdfcpu__WaldenFull.pdf');
const notEmbedded = wildFile('pdfminer__dmca.pdf');
t.test('pdfium: a document reads the same after another whose pages were drawn (for their ink) in the same worker', { skip: drawn.skip || notEmbedded.skip }, async (t) => {
  // WaldenFull's first pages hold no text, so parse draws them; dmca's fonts are not embedded.
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-history-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(drawn.path, join(dir, 'a-drawn.pdf'));
  symlinkSync(notEmbedded.path, join(dir, 'b-not-embedded.pdf'));
  const pages = ['--last-page', '2'];
  const alone = (await run(['extract', '--quiet', '--ocr', 'auto', ...pages, notEmbedded.path])).stdout;
  const after = (await run(['extract', '--quiet', '--ocr', 'auto', '--jobs', '1', ...pages, '--out-dir', join(dir, 'out'), join(dir, 'a-drawn.pdf'), join(dir, 'b-not-embedded.pdf')])).stdout;
  t.equal(after, '', 'written to the folder');
  t.equal(readFileSync(join(dir, 'out', 'b-not-embedded.txt'), 'utf8'), alone);
  t.match(alone, /liability/u);
});
