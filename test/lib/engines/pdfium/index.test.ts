/**
 * The PDFium engine's entry (lib/engines/pdfium/index.ts): the heap limit, called directly; a
 * document's reading that does not depend on the documents read before it in the same worker; and
 * the pages without text, which decide whether pdf.js reads a document again.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
import * as pdfium from '../../../../lib/engines/pdfium/index.js';
import type { PipeRecord } from '../../../../lib/protocol/records.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, run, samplePdf, wildFile } from '../../../helpers.js';
import { onePage } from '../../../hostile-pdfs.js';

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

/** A page of five lines in a Brotli-compressed content stream (compressible, so that no line stands in it as plain text), which PDFium cannot decode and pdf.js can. */
const brotliPage = (): Buffer =>
  onePage(brotliCompressSync([250, 230, 210, 190, 170].map((y) => `BT /F1 12 Tf 20 ${y} Td (Read by the second engine) Tj ET`).join('\n')), '/Filter /BrotliDecode');

t.test('pdfium: the pages without text it read, and those of them that may hold text it could not read', async (t) => {
  const textless = async (pdf: Buffer): Promise<pdfium.TextlessPages> => {
    const tally: pdfium.TextlessPages = { read: 0, mayHoldText: 0 };
    for await (const _ of pdfium.extractRecords(new Uint8Array(pdf), 'd', 'd.pdf', { normalize: true, memory: 2048, ocr: 'never' }, tally));
    return tally;
  };
  t.same(await textless(readFileSync(join(repoRoot, 'test/fixtures/ocr/scan.pdf'))), { read: 1, mayHoldText: 0 }, 'a scan: an image alone');
  t.same(await textless(onePage(Buffer.from('1 w 20 20 m 280 280 l S 20 280 m 280 20 l S'))), { read: 1, mayHoldText: 0 }, 'a drawing alone');
  t.same(await textless(onePage(Buffer.from(''))), { read: 1, mayHoldText: 1 }, 'a page with nothing on it: its content may not have been read');
  t.same(await textless(brotliPage()), { read: 1, mayHoldText: 1 }, 'a content stream PDFium cannot decode');
  t.same(await textless(onePage(Buffer.from('BT /F1 12 Tf 20 250 Td (   ) Tj ET'))), { read: 1, mayHoldText: 1 }, 'a text object that reads as nothing');
  t.same(await textless(readFileSync(samplePdf('one-column'))), { read: 0, mayHoldText: 0 }, 'a page with text is not counted');
});

t.test('auto: pdf.js reads again a document whose content PDFium cannot decode, not a scan', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-textless-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const brotli = join(dir, 'brotli.pdf');
  writeFileSync(brotli, brotliPage());
  const engineOf = (stdout: string): string => (JSON.parse(stdout.split('\n')[0]!) as { meta?: { engine?: string } }).meta?.engine ?? '';
  const read = await run(['parse', '--ocr', 'never', brotli]);
  t.match(engineOf(read.stdout), /^pdfjs /u, 'the Brotli page: pdf.js');
  t.equal(read.stdout.match(/"text":"second"/gu)?.length, 5, 'and its five lines');
  const scan = await run(['parse', '--ocr', 'never', join(repoRoot, 'test/fixtures/ocr/scan.pdf')]);
  t.match(engineOf(scan.stdout), /^pdfium /u, 'the scan: PDFium');
});

t.test('pdfium: every item of a document is built with the same fields, in the order records are written', async (t) => {
  // A tagged Writer document: runs with and without a tag, before a space, a line end or nothing.
  const bytes = new Uint8Array(readFileSync(join(repoRoot, 'test/fixtures/tagged/writer.pdf')));
  const items: Record<string, unknown>[] = [];
  for await (const record of pdfium.extractRecords(bytes, 'writer', 'writer.pdf', { normalize: true, memory: 2048 })) {
    if (record.type === 'page') items.push(...((record.items ?? []) as unknown as Record<string, unknown>[]));
  }
  t.ok(items.some((item) => item.tag !== undefined) && items.some((item) => item.after === 'space') && items.some((item) => item.space !== undefined), 'tags, spaces and space glyphs are all there');
  const shapes = new Set(items.map((item) => Object.keys(item).join(',')));
  t.same([...shapes], ['text,x,y,w,size,font,dir,angle,tag,after,space,endsUnjoined'], 'one list of fields, absent ones undefined');
  // …which JSON leaves out: the records read as before.
  t.notOk(JSON.stringify(items[0]).includes('endsUnjoined'));
});
