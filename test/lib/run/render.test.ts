/**
 * `extract`'s workers write each document themselves (lib/run/render.ts) and send the main thread
 * its output, not its records: what serialize then writes must be what it writes from the
 * records, in every format, to stdout and to `--out-dir`.
 */
import t from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisChain } from '../../../lib/run/extract.js';
import { normalizeOptions, serialize } from '../../../stages/serialize.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import type { WrittenDocument, WrittenPart } from '../../../lib/run/worker-task.js';
import { PART_CHARS, renderDocuments } from '../../../lib/run/render.js';
import { samplePdf, through } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-render-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = ['paper', 'parallel-columns', 'rtl-mixed'];
const inputs = [...NAMES.map((name) => ({ type: 'pdf', id: name, path: samplePdf(name) })), { type: 'pdf', id: 'missing', path: join(dir, 'missing.pdf') }];

/** What serialize writes of these objects (records, or documents a worker wrote): stdout's text, or the files under `outDir`, with no time. */
async function written(objects: readonly unknown[], format: string, outDir: string): Promise<string> {
  const out = await through(serialize({ format: format as never, outDir, quiet: true }), objects);
  const text = outDir ? readdirSync(outDir).sort().map((name) => `${name}\n${readFileSync(join(outDir, name), 'utf8')}`).join('\n') : out.map(String).join('');
  // The two runs took their own time: the only clock reading in the output.
  return text.replace(/"ms":[0-9]+/g, '"ms":0');
}

t.test('a document written in its worker is written out as from its records', async (t) => {
  const records = (await through(analysisChain({ jobs: 1 })[0]!, inputs)) as PipeRecord[];
  t.ok(records.some((r) => r.type === 'page'), 'the records hold pages');
  const cases: [string, boolean][] = [
    ...['text', 'ndjson', 'html', 'xml', 'base64', 'pairs'].map((format): [string, boolean] => [format, false]),
    ['ndjson', true],
    ['base64', true],
    ['xml', true],
  ];
  for (const [format, toFiles] of cases) {
    const render = { ...normalizeOptions({ format: format as never }), outDir: toFiles ? 'any' : '', stage: 'extract' };
    const documents = (await through(analysisChain({ jobs: 1 }, render)[0]!, inputs)) as WrittenDocument[];
    t.same(documents.map((d) => [d.type, d.doc]), inputs.map((i) => ['written', i.id]), `${format}: one written document per input, in order`);
    const name = `${format}-${toFiles ? 'files' : 'stdout'}`;
    const fromRecords = await written(records, format, toFiles ? join(dir, `${name}-records`) : '');
    const fromDocuments = await written(documents, format, toFiles ? join(dir, `${name}-documents`) : '');
    t.ok(fromRecords.length > 0);
    t.equal(fromDocuments, fromRecords, `${name}: the same bytes`);
  }
});

t.test("a long document's NDJSON to stdout goes ahead in parts, which with the rest are its records' lines", async (t) => {
  const records = (await through(analysisChain({ jobs: 1 })[0]!, inputs.slice(0, 1))) as PipeRecord[];
  const [doc, ...rest] = records;
  const pages = rest.filter((r) => r.type === 'page');
  const outcome = rest.at(-1)!;
  // The paper's pages again and again: a document of about three parts.
  const long: PipeRecord[] = [doc!];
  while (long.reduce((n, r) => n + JSON.stringify(r).length, 0) < 3 * PART_CHARS) long.push(...pages.map((p) => ({ ...p, page: long.length })));
  long.push(outcome);
  const render = { ...normalizeOptions({ format: 'ndjson' }), outDir: '', stage: 'parse' };
  const out = (await through(renderDocuments(render), long)) as (WrittenPart | WrittenDocument)[];
  const parts = out.filter((o): o is WrittenPart => o.type === 'written-part');
  const last = out.at(-1) as WrittenDocument;
  t.ok(parts.length >= 2, `${parts.length} parts`);
  t.same(out.map((o) => o.type), [...parts.map(() => 'written-part'), 'written'], 'the parts, then the document');
  const longestLine = Math.max(...long.map((r) => JSON.stringify(r).length + 1));
  t.ok(parts.every((p) => p.body.length < PART_CHARS + longestLine), 'each part about PART_CHARS');
  t.equal(parts.map((p) => p.body).join('') + last.body, long.map((r) => JSON.stringify(r) + '\n').join(''), 'the lines of the records, in order');
  t.equal(last.pages, long.length - 2, 'the document counts all its pages');
});
