/**
 * The whole chain in one process: parse → order → lines → bidi → repair → resegment → paragraphs →
 * join → roles → langid → serialize, objects passed
 * between stages with no JSON round trip. Its output is the same as the stages run as separate
 * processes joined by pipes.
 */
import { Readable, type Transform } from 'node:stream';
import { helpText, parseArgs, type OptionSpec } from '../protocol/options.js';
import { runDocuments } from './batch.js';
import { inputsFromArgs, withIds } from './inputs.js';
import { prepareOutputFolder } from './preflight.js';
import { CHAIN_URL } from './worker-start.js';
import type { RenderOptions } from './worker-task.js';
import type { DocRecord, ErrorRecord, EndRecord, PageRecord, PdfRecord, PipeRecord } from '../protocol/records.js';
import { documentText } from '../formats/text.js';
import { documentOutput } from '../formats/output.js';
import * as parseStage from '../../stages/parse.js';
import * as orderStage from '../../stages/order.js';
import * as linesStage from '../../stages/lines.js';
import * as bidiStage from '../../stages/bidi.js';
import * as repairStage from '../../stages/repair.js';
import * as resegmentStage from '../../stages/resegment.js';
import * as paragraphsStage from '../../stages/paragraphs.js';
import * as serializeStage from '../../stages/serialize.js';
import * as joinStage from '../../stages/join.js';
import * as rolesStage from '../../stages/roles.js';
import * as langidStage from '../../stages/langid.js';

export type ExtractOptions = parseStage.ParseOptions &
  orderStage.OrderOptions &
  linesStage.LinesOptions &
  bidiStage.BidiOptions &
  repairStage.RepairOptions &
  resegmentStage.ResegmentOptions &
  paragraphsStage.ParagraphsOptions &
  serializeStage.SerializeOptions &
  joinStage.JoinOptions &
  rolesStage.RolesOptions &
  langidStage.LangidOptions;

export const DEFAULTS: ExtractOptions = {
  ...parseStage.DEFAULTS,
  ...orderStage.DEFAULTS,
  ...linesStage.DEFAULTS,
  ...bidiStage.DEFAULTS,
  ...repairStage.DEFAULTS,
  ...resegmentStage.DEFAULTS,
  ...paragraphsStage.DEFAULTS,
  ...serializeStage.DEFAULTS,
  ...joinStage.DEFAULTS,
  ...rolesStage.DEFAULTS,
  ...langidStage.DEFAULTS,
};

/** Every stage's options; one that several stages share (`--explain`) is listed once and reaches them all. */
export const OPTIONS: readonly OptionSpec[] = [
  ...parseStage.OPTIONS,
  ...orderStage.OPTIONS,
  ...linesStage.OPTIONS,
  ...bidiStage.OPTIONS,
  ...repairStage.OPTIONS,
  ...resegmentStage.OPTIONS,
  ...paragraphsStage.OPTIONS,
  ...serializeStage.OPTIONS,
  ...joinStage.OPTIONS,
  ...rolesStage.OPTIONS,
  ...langidStage.OPTIONS,
].filter((spec, index, all) => all.findIndex((other) => other.key === spec.key) === index);

export { workerChain } from './chain.js';

/**
 * The record stages of the chain, from PDF inputs to blocks: parse, whose workers run the stages
 * after parse over their own documents. So the whole chain scales with the jobs (on the main
 * thread, those stages would cap a run at what one core can analyse), and a document's time and
 * memory limits cover all of its work, with one job as with many.
 */
export function analysisChain(options: Partial<ExtractOptions> = {}, render?: RenderOptions): Transform[] {
  // The workers build these stages; the pool ends the run with a usage error, before any
  // document, when the first worker cannot (a file an option names cannot be read, a model
  // cannot be loaded). With `render`, they also write each document out (lib/run/render.ts).
  return [parseStage.parse(options, { chain: { module: CHAIN_URL, options: { ...options }, ...(render ? { render } : {}) } })];
}

/**
 * The whole chain, parse to serialize, as a list of transforms: `pdf` records in, the documents in
 * `format` out (strings, or records for `ndjson`). `compose(...fullChain(options))` is `extract`
 * as one stream. Throws a UsageError for a bad option (an unknown `format`) before any stage starts.
 */
export function fullChain(options: Partial<ExtractOptions> = {}): Transform[] {
  const writer = serializeStage.serialize(options);
  return [...analysisChain(options), writer];
}

/** One extracted document, as the library's iterator yields it. */
export interface ExtractedDocument {
  id: string;
  doc: DocRecord | null;
  pages: PageRecord[];
  outcome: EndRecord | ErrorRecord;
  /** The document's text as `serialize --format text` writes it ('' for a failed document). */
  text: string;
  /** The document in the `format` asked for, as `serialize` writes it (HTML, XML and NDJSON carry a failure). */
  output: string;
}

/**
 * Extracts documents from paths (files or folders) or `pdf` records, yielding each in input order.
 * Options are checked before any document: a bad one (an unknown `format`) throws a UsageError.
 */
export async function* extract(
  inputs: readonly (string | PdfRecord)[],
  options: Partial<ExtractOptions> = {},
): AsyncGenerator<ExtractedDocument> {
  const writer = serializeStage.normalizeOptions(options);
  const paths = inputs.filter((i): i is string => typeof i === 'string');
  const records = inputs.filter((i): i is PdfRecord => typeof i !== 'string');
  async function* given(): AsyncGenerator<PdfRecord | ErrorRecord> {
    yield* inputsFromArgs(paths);
    yield* records;
  }
  const source = (): AsyncGenerator<PdfRecord | ErrorRecord> => withIds(given());
  const chain = analysisChain(options);
  const stream = Readable.from(source()).pipe(chain[0]!);
  let tail: NodeJS.ReadableStream = stream;
  for (const stage of chain.slice(1)) tail = tail.pipe(stage);
  let doc: DocRecord | null = null;
  let pages: PageRecord[] = [];
  for await (const record of tail as AsyncIterable<PipeRecord>) {
    if (record.type === 'doc') {
      doc = record;
      pages = [];
    } else if (record.type === 'page') {
      pages.push(record);
    } else if (record.type === 'end' || record.type === 'error') {
      const text = record.type === 'end' ? documentText(pages, writer) : '';
      const output = writer.format === 'text' ? text : documentOutput(doc, pages, record, writer);
      yield { id: record.doc, doc: doc?.id === record.doc ? doc : null, pages, outcome: record, text, output };
      doc = null;
      pages = [];
    }
  }
}

export const USAGE = 'pdfpipe extract [options] FILE|DIR|WARC|- ...  (or pdf records, --from-list paths, --base64 lines on stdin)';
export const SUMMARY = 'Runs parse → order → lines → bidi → repair → resegment → paragraphs → join → roles → langid → serialize in one process.';

export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  // The writer first: it checks its options (an unknown role) before any worker starts.
  const writer = serializeStage.serialize(options);
  if (options.outDir) prepareOutputFolder(options.outDir, 'out-dir');
  // The workers write the documents; this thread adds the separators, writes the files and counts.
  const chain = analysisChain(options, { ...serializeStage.normalizeOptions(options), stage: 'extract' });
  // The formats that serialize writes to stdout with a form feed between documents.
  const separator = ['text', 'xml', 'html'].includes(options.format) && !options.outDir ? '\f\n' : '';
  return runDocuments({ stage: 'extract', positionals, options, transforms: chain, serializer: writer, separator, outDir: options.outDir });
}
