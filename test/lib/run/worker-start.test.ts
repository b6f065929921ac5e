/**
 * The parse worker a command starts before loading its own modules: the pool takes it as its
 * first worker when its heap limit is the one asked for, and the documents come out as from a
 * worker the pool started itself; with another limit it is stopped, unused. And the bundles the
 * build makes of the workers: used only while current, and reading every document as the
 * modules do.
 */
import t from 'tap';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { extract } from '../../../lib/run/extract.js';
import { parsePool } from '../../../lib/run/parse-pool.js';
import { CHAIN_URL, currentBundle, DEFAULT_WORKER_MEMORY_MIB, digestOf, startEarlyWorker, takeEarlyWorker, WORKER_MODULES, type BundleInputs, type WorkerKind } from '../../../lib/run/worker-start.js';
import type { PdfRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { DEFAULTS } from '../../../stages/parse.js';
import { repoRoot, sampleNames, samplePdf } from '../../helpers.js';
import { inflatedCount } from '../../hostile-pdfs.js';

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

t.test('a bundle is used while its modules hold what it was made from: not once one changes, even to a text of the same length, or is gone', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-bundle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = pathToFileURL(join(dir, 'worker.bundle.js'));
  writeFileSync(join(dir, 'a.js'), 'export const share = 0.5;\n');
  writeFileSync(join(dir, 'b.js'), 'export const gap = 1;\n');
  t.equal(currentBundle(bundle), null, 'no bundle');
  writeFileSync(join(dir, 'worker.bundle.js'), '');
  t.equal(currentBundle(bundle), null, 'a bundle without its list of modules');
  const inputs = ['./a.js', './b.js'];
  const made: BundleInputs = { inputs, sha256: digestOf(inputs.map((input) => new URL(input, bundle))) };
  writeFileSync(join(dir, 'worker.bundle.js.inputs.json'), JSON.stringify(made));
  t.equal(currentBundle(bundle)?.href, bundle.href, 'the modules as they were');
  const later = Date.now() / 1000 + 3600;
  utimesSync(join(dir, 'b.js'), later, later);
  t.equal(currentBundle(bundle)?.href, bundle.href, 'a module written again with the same text, later (as a package manager unpacks it)');
  writeFileSync(join(dir, 'a.js'), 'export const share = 0.6;\n');
  t.equal(currentBundle(bundle), null, 'a module changed, to a text of the same length');
  writeFileSync(join(dir, 'a.js'), 'export const share = 0.5;\n');
  t.equal(currentBundle(bundle)?.href, bundle.href, 'and back');
  rmSync(join(dir, 'b.js'));
  t.equal(currentBundle(bundle), null, 'a module gone');
  t.end();
});

/** What a pool of workers running `url` makes of the PDFs, `ms` left out. */
async function records(url: URL, kind: WorkerKind, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const chain = kind === 'chain' ? { module: CHAIN_URL, options: { ocr: 'never' } } : undefined;
  await new Promise<void>((resolve, reject) => {
    Readable.from(paths.map((path): PdfRecord => ({ type: 'pdf', path })))
      .pipe(parsePool({ ...DEFAULTS, engine: 'auto', jobs: 1 }, { workerUrl: url, chain }))
      .on('error', reject)
      .pipe(
        new Writable({
          objectMode: true,
          write(record: PipeRecord, _e, done) {
            out.push(JSON.stringify(record).replace(/"ms":\d+/gu, '"ms":0'));
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject);
  });
  return out;
}

t.test('the bundles the build makes are current, and read documents as the modules do', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-bundle-pdfs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // One whose last pages pdf.js reads (imported from outside the bundle), and scripts that take
  // the parts of the stages the samples leave out (font programs, Nastaliq, Korean line ends).
  const fallback = join(dir, 'count.pdf');
  writeFileSync(fallback, inflatedCount(1000));
  const fixtures = ['fontsweep/devanagari-xelatex-freeserif.pdf', 'fontsweep/urdu-chromium-notonastaliqurdu.pdf', 'korean/line-breaks.pdf'].map((name) => join(repoRoot, 'test/fixtures', name));
  const paths = [...sampleNames.map(samplePdf), fallback, ...fixtures];
  for (const kind of ['parse', 'chain'] as const) {
    const { module, bundle } = WORKER_MODULES[kind];
    t.ok(currentBundle(bundle), `${kind}: the bundle is there and current (npm run build makes it)`);
    if (!currentBundle(bundle)) continue;
    const fromModules = await records(module, kind, paths);
    t.equal(fromModules.filter((r) => r.startsWith('{"type":"end"')).length, paths.length, `${kind}: every document ends`);
    t.same(await records(bundle, kind, paths), fromModules, `${kind}: the bundle's records are the modules'`);
  }
});
