/**
 * The parse worker's engine `auto`: when PDFium fails part way through a document whose first
 * pages it streamed, pdf.js reads the rest instead of the document being lost.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLines, run } from '../../helpers.js';
import { circularPageTree, deepNesting, inflatedCount } from '../../hostile-pdfs.js';

t.test('auto: PDFium fails on page 2 of a /Count of a million over one page; the document ends, with a warning', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-auto-'));
  const file = join(dir, 'count.pdf');
  writeFileSync(file, inflatedCount(1_000_000));
  const records = parseLines((await run(['parse', '--engine', 'auto', file])).stdout);
  const pages = records.filter((r) => r.type === 'page');
  t.equal(pages.length, 1, 'the one real page');
  t.ok(records.some((r) => r.type === 'diagnostic' && r.code === 'engine-fallback'), 'a warning says pdf.js read the rest');
  t.equal(records[records.length - 1]?.type, 'end', 'the document ends');
  const text = await run(['extract', '--engine', 'auto', file]);
  t.match(text.stdout, /The only page/u);
});

t.test('an object nested 200,000 deep: pdf.js\'s error names the nesting, not only the stack', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-deep-'));
  const file = join(dir, 'deep.pdf');
  writeFileSync(file, deepNesting(200_000));
  const records = parseLines((await run(['parse', '--engine', 'pdfjs', file])).stdout);
  const outcome = records[records.length - 1];
  t.equal(outcome?.type === 'error' && outcome.code, 'corrupt');
  t.match(outcome?.type === 'error' && outcome.message, /nests its objects too deeply/u);
});

t.test('a circular page tree: PDFium reads its one real page once, keeps the repeats as empty pages, and says why', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-cycle-'));
  const file = join(dir, 'cycle.pdf');
  writeFileSync(file, circularPageTree());
  for (const engine of ['pdfium', 'auto']) {
    const records = parseLines((await run(['parse', '--engine', engine, file])).stdout);
    const pages = records.filter((r) => r.type === 'page');
    t.same(pages.map((r) => (r.type === 'page' && (r.items?.length ?? 0) > 0 ? 'text' : 'empty')), ['text', 'empty', 'empty'], `${engine}: page 1 has the text, the repeats are empty`);
    const warning = records.find((r) => r.type === 'diagnostic' && r.code === 'page-repeated');
    t.match(warning?.type === 'diagnostic' && warning.message, /Page 2 is page 1 again/u, `${engine}: a warning names the cause`);
    t.equal(records[records.length - 1]?.type, 'end', `${engine}: the document ends`);
    const text = (await run(['extract', '--engine', engine, file])).stdout;
    t.equal(text.match(/The one real page/gu)?.length, 1, `${engine}: the text once`);
  }
});
