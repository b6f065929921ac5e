/**
 * What `resegment` adds to the chain's time: the wall time of the whole chain (parse → … →
 * serialize, in one process, resegment included) on a folder's long PDFs, against the time the
 * resegment core spends on the same documents' lines, measured in the same run.
 *
 *     npm run bench:resegment -- [DIR] [--min-pages N]
 *
 * DIR defaults to ../shared/corpus/wild; files with fewer than --min-pages pages (MANIFEST.tsv's
 * `pages` column) are left out (default 100, as bench:speed does for that folder).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analysisChain } from '../lib/extract.js';
import type { DocRecord, EndRecord, PageRecord, PipeRecord } from '../lib/records.js';
import * as parseStage from '../stages/parse.js';
import * as orderStage from '../stages/order.js';
import * as linesStage from '../stages/lines.js';
import * as serializeStage from '../stages/serialize.js';
import { resegmentDocument } from '../stages/resegment.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { values, positionals } = parseArgs({ options: { 'min-pages': { type: 'string' } }, allowPositionals: true });
const dir = resolve(positionals[0] ?? join(ROOT, '../shared/corpus/wild'));
const minPages = Number(values['min-pages'] ?? 100);

async function longFiles(): Promise<string[]> {
  const manifest = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8').catch(() => '');
  const [header, ...rows] = manifest.trim().split('\n');
  const cols = (header ?? '').split('\t');
  const [file, pages] = [cols.indexOf('file'), cols.indexOf('pages')];
  if (file < 0 || pages < 0) return (await readdir(dir)).filter((f) => f.endsWith('.pdf')).map((f) => join(dir, f));
  return rows.map((r) => r.split('\t')).filter((r) => Number(r[pages]) >= minPages).map((r) => join(dir, r[file]!));
}

const sink = (): Writable => new Writable({ objectMode: true, write: (_r, _e, done) => done() });

const files = await longFiles();
const start = performance.now();
await pipeline([Readable.from(parseStage.inputsFromArgs(files)), ...analysisChain({ jobs: 1 }), serializeStage.serialize({}), sink()]);
const chain = performance.now() - start;

// The same documents' lines, then the resegment core alone over each of them.
const groups: Array<{ doc: DocRecord; pages: PageRecord[]; diagnostics: []; outcome: EndRecord }> = [];
let doc: DocRecord | null = null;
let pages: PageRecord[] = [];
await pipeline([
  Readable.from(parseStage.inputsFromArgs(files)),
  parseStage.parse({ jobs: 1 }),
  orderStage.order({}),
  linesStage.lines({}),
  new Writable({
    objectMode: true,
    write(record: PipeRecord, _e, done) {
      if (record.type === 'doc') [doc, pages] = [record, []];
      else if (record.type === 'page') pages.push(record);
      else if (record.type === 'end' && doc) groups.push({ doc, pages, diagnostics: [], outcome: record });
      done();
    },
  }),
]);
let core = 0;
for (const group of groups) {
  const t0 = performance.now();
  resegmentDocument(group);
  core += performance.now() - t0;
}
const pageCount = groups.reduce((n, g) => n + g.pages.length, 0);
process.stdout.write(
  `${groups.length} documents, ${pageCount} pages: chain ${(chain / 1000).toFixed(1)} s, resegment core ${(core / 1000).toFixed(2)} s = ${((100 * core) / chain).toFixed(1)} % of the chain\n`,
);
