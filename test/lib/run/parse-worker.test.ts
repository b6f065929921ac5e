/**
 * The parse worker's engine `auto`: when PDFium fails part way through a document whose first
 * pages it streamed, pdf.js reads the rest instead of the document being lost. And the order of
 * its messages when the stages it runs cannot be built.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseLines, run, samplePdf } from '../../helpers.js';
import { DEFAULTS } from '../../../stages/parse.js';
import type { WorkerTask } from '../../../lib/run/worker-task.js';
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

t.test('stages that cannot be built: the worker says so before it fails any document', async (t) => {
  // A task posted as the worker starts arrives while its stages load; its failure, posted first,
  // would let the parent count the document done and the run end before the check's message.
  const worker = new Worker(new URL('../../../lib/run/parse-worker.js', import.meta.url), {
    workerData: { engine: 'pdfium', chain: { module: new URL('../../../lib/run/chain.js', import.meta.url).href, options: { config: join(tmpdir(), 'pdfpipe-no-such-rules.json') } } },
  });
  t.teardown(() => worker.terminate());
  const task: WorkerTask = { task: 0, id: 'one-column', source: samplePdf('one-column'), path: samplePdf('one-column'), options: { ...DEFAULTS, engine: 'pdfium' }, chain: { module: new URL('../../../lib/run/chain.js', import.meta.url).href, options: { config: join(tmpdir(), 'pdfpipe-no-such-rules.json') } } };
  worker.postMessage(task);
  const messages: unknown[] = [];
  await new Promise<void>((resolve) => {
    worker.on('message', (message: Record<string, unknown>) => {
      messages.push(message);
      if (messages.length === 2) resolve();
    });
  });
  t.match(messages[0], { chainError: /no-such-rules/u, usage: true }, 'first, the stages that could not be built');
  t.match(messages[1], { task: 0, done: true }, 'then the document');
});
