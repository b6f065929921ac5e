/**
 * CPU time of each stage after parse, per page: where the chain's time goes.
 *
 *     npm run bench:stages -- [DIR] [--min-pages N] [--engine auto|pdfium|pdfjs] [--repeats N]
 *
 * Parses DIR's PDFs of at least --min-pages pages once (MANIFEST.tsv's `pages` column when DIR
 * has one; default: ../shared/corpus/wild and 100 pages, as bench:speed), then runs the stages
 * after parse over them in this process, a document at a time and a stage at a time (a stage's
 * whole output for the document is collected before the next stage starts), so that each
 * stage's CPU time (user + system, with its garbage collection) is its own. Pages are parsed without
 * OCR (`--ocr never`), so the input is the same in every run. Every stage is run --repeats times (default 3) on fresh
 * stages and copies of the records; the table gives the least time of each.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable, Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { workerChain } from '../lib/run/extract.js';
import type { PipeRecord } from '../lib/protocol/records.js';
import * as parseStage from '../stages/parse.js';
import { inputsFromArgs } from '../lib/run/inputs.js';

/** The stages of `workerChain`, in its order. */
const STAGES = ['order', 'lines', 'bidi', 'repair', 'resegment', 'paragraphs', 'join', 'roles', 'langid'];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { values, positionals } = parseArgs({
  options: { 'min-pages': { type: 'string' }, engine: { type: 'string' }, repeats: { type: 'string' } },
  allowPositionals: true,
});
const dir = resolve(positionals[0] ?? join(ROOT, '../shared/corpus/wild'));
const minPages = Number(values['min-pages'] ?? (positionals[0] ? 0 : 100));
const engine = values.engine === 'pdfjs' ? 'pdfjs' : values.engine === 'pdfium' ? 'pdfium' : 'auto';
const repeats = Math.max(1, Number(values.repeats ?? 3));

async function files(): Promise<string[]> {
  const manifest = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8').catch(() => '');
  const [header, ...rows] = manifest.trim().split('\n');
  const cols = (header ?? '').split('\t');
  const [file, pages] = [cols.indexOf('file'), cols.indexOf('pages')];
  if (file < 0 || pages < 0) return (await readdir(dir)).filter((f) => f.endsWith('.pdf')).map((f) => join(dir, f));
  return rows.map((r) => r.split('\t')).filter((r) => Number(r[pages]) >= minPages).map((r) => join(dir, r[file]!));
}

/** Runs records through one stage and returns everything it wrote. */
async function through(stage: Transform, records: readonly PipeRecord[]): Promise<PipeRecord[]> {
  const out: PipeRecord[] = [];
  await pipeline([Readable.from(records), stage, new Writable({ objectMode: true, write: (r: PipeRecord, _e, done) => (out.push(r), done()) })]);
  return out;
}

const inputs = await files();
if (inputs.length === 0) {
  process.stdout.write(`no PDFs of ${minPages}+ pages in ${dir}\n`);
  process.exit(0);
}
const parsed: PipeRecord[] = [];
await pipeline([
  Readable.from(inputsFromArgs(inputs)),
  parseStage.parse({ jobs: 1, engine, ocr: 'never' }),
  new Writable({ objectMode: true, write: (r: PipeRecord, _e, done) => (parsed.push(r), done()) }),
]);
const pages = parsed.filter((r) => r.type === 'page').length;

// One document at a time through the stages, as in a run (a stage holds at most one document).
const documents: PipeRecord[][] = [];
for (const record of parsed) {
  if (record.type === 'doc' || documents.length === 0) documents.push([]);
  documents[documents.length - 1]!.push(record);
}

const least = new Map<string, number>();
for (let repeat = 0; repeat < repeats; repeat++) {
  const used = new Map<string, number>();
  for (const document of documents) {
    const stages = workerChain({});
    if (stages.length !== STAGES.length) throw new Error(`the chain has ${stages.length} stages; this benchmark names ${STAGES.length}`);
    let records = structuredClone(document);
    for (const [i, stage] of stages.entries()) {
      const before = process.cpuUsage();
      records = await through(stage, records);
      const { user, system } = process.cpuUsage(before);
      used.set(STAGES[i]!, (used.get(STAGES[i]!) ?? 0) + (user + system) / 1000);
    }
  }
  for (const [name, ms] of used) least.set(name, Math.min(least.get(name) ?? Infinity, ms));
}

const total = [...least.values()].reduce((a, b) => a + b, 0);
const rows = [...least.entries()].map(([name, ms]) => `| ${name} | ${ms.toFixed(0)} | ${(ms / pages).toFixed(2)} | ${((100 * ms) / total).toFixed(1)} % |`);
process.stdout.write(
  [
    `${inputs.length} files, ${pages} pages, parsed with ${engine}; least of ${repeats} runs`,
    '',
    '| stage | CPU ms | ms/page | share |',
    '| --- | --- | --- | --- |',
    ...rows,
    `| all | ${total.toFixed(0)} | ${(total / pages).toFixed(2)} | 100 % |`,
    '',
  ].join('\n'),
);
