/**
 * What `join` and `langid` add to the chain: the chain up to `paragraphs` runs once over a
 * folder's long PDFs, then each core runs alone over every document's blocks (as the chain gives
 * them: join on the paragraphs, langid on join's output), and the CPU time of each is reported in
 * milliseconds per page, beside the chain's own.
 *
 *     npm run bench:join -- [DIR] [--min-pages N] [--engine pdfjs|pdfium] [--runs N]
 *
 * DIR defaults to ../shared/corpus/wild; files with fewer than --min-pages pages (MANIFEST.tsv's
 * `pages` column) are left out (default 100, as bench:speed does for that folder). Each core runs
 * `--runs` times (default 5) after one warm-up run; CPU time (user + system of this process) is
 * steadier than wall time on a machine that other work shares.
 */
import { readFile, readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DocRecord, EndRecord, PageRecord, PipeRecord } from '../lib/records.js';
import * as parseStage from '../stages/parse.js';
import * as orderStage from '../stages/order.js';
import * as linesStage from '../stages/lines.js';
import * as bidiStage from '../stages/bidi.js';
import * as repairStage from '../stages/repair.js';
import * as resegmentStage from '../stages/resegment.js';
import * as paragraphsStage from '../stages/paragraphs.js';
import { joinDocument } from '../stages/join.js';
import { langidOfDocument } from '../stages/langid.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { values, positionals } = parseArgs({
  options: { 'min-pages': { type: 'string' }, engine: { type: 'string' }, runs: { type: 'string' } },
  allowPositionals: true,
});
const dir = resolve(positionals[0] ?? join(ROOT, '../shared/corpus/wild'));
const minPages = Number(values['min-pages'] ?? 100);
const runs = Math.max(1, Number(values.runs ?? 5));
const engine = values.engine === 'pdfium' ? 'pdfium' : 'pdfjs';

async function longFiles(): Promise<string[]> {
  const manifest = await readFile(join(dir, 'MANIFEST.tsv'), 'utf8').catch(() => '');
  const [header, ...rows] = manifest.trim().split('\n');
  const cols = (header ?? '').split('\t');
  const [file, pages] = [cols.indexOf('file'), cols.indexOf('pages')];
  if (file < 0 || pages < 0) return (await readdir(dir)).filter((f) => f.endsWith('.pdf')).map((f) => join(dir, f));
  return rows.map((r) => r.split('\t')).filter((r) => Number(r[pages]) >= minPages).map((r) => join(dir, r[file]!));
}

/** CPU milliseconds (user + system) of one call of `f`, averaged over `runs` after a warm-up. */
function cpuMs(f: () => unknown): number {
  f();
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / runs;
}

type Group = { doc: DocRecord; pages: PageRecord[]; diagnostics: []; outcome: EndRecord };

const files = await longFiles();
const groups: Group[] = [];
let doc: DocRecord | null = null;
let pages: PageRecord[] = [];
const options = { jobs: 1, engine } as const;
const chainStart = process.cpuUsage();
await pipeline([
  Readable.from(parseStage.inputsFromArgs(files)),
  parseStage.parse(options),
  orderStage.order({}),
  linesStage.lines({}),
  bidiStage.bidi({}),
  repairStage.repair({}),
  resegmentStage.resegment({}),
  paragraphsStage.paragraphs({}),
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
const chainUsage = process.cpuUsage(chainStart);
const chain = (chainUsage.user + chainUsage.system) / 1000;

const rows: string[][] = [];
let [allPages, allJoin, allLangid] = [0, 0, 0];
for (const group of groups) {
  const joined = { ...group, pages: joinDocument(group).pages };
  const joinMs = cpuMs(() => joinDocument(group));
  const langidMs = cpuMs(() => langidOfDocument(joined));
  const n = group.pages.length;
  [allPages, allJoin, allLangid] = [allPages + n, allJoin + joinMs, allLangid + langidMs];
  rows.push([basename(group.doc.source || group.doc.id), String(n), (joinMs / n).toFixed(3), (langidMs / n).toFixed(3)]);
}
rows.push(['all', String(allPages), (allJoin / Math.max(1, allPages)).toFixed(3), (allLangid / Math.max(1, allPages)).toFixed(3)]);
process.stdout.write('| file | pages | join ms/page | langid ms/page |\n| --- | --- | --- | --- |\n');
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.stdout.write(
  `\nparse → paragraphs (engine ${engine}, every thread of this process): ${(chain / Math.max(1, allPages)).toFixed(2)} ms/page of CPU\n`,
);
