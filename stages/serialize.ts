/**
 * serialize: records → what a reader wants. `text`: each document's paragraphs in reading order,
 * one per line (or separated by blank lines with `blankLines`), running headers, footers and page
 * numbers dropped unless `keepFurniture`, paragraphs that run on across a page or column joined,
 * footnotes after the body (lib/formats/text.ts). `ndjson`: the records themselves. `xml`: the
 * document's structure (lib/formats/structure.ts, written by lib/formats/xml.ts). `html`:
 * PDFExtract's alignment HTML with each paragraph's role (lib/formats/html.ts). `roles` and
 * `bodyOnly` choose which roles text, HTML and base64 write (lib/formats/selection.ts); NDJSON and
 * XML always write every block. `pairs`: the parallel text `langid` paired, one aligned pair a line
 * in TSV (lib/formats/pairs.ts). With `outDir`, one file per document
 * (NAME.txt, NAME.ndjson, NAME.xml, NAME.html or NAME.tsv); a failed document still gets its file (empty, or in XML an
 * article holding the error), and its error goes to stderr, so every input leaves a trace.
 */
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter, stderrLine } from '../lib/run/filter.js';
import { prepareOutputFolder } from '../lib/run/preflight.js';
import { outputFileName } from '../lib/formats/ids.js';
import { errorRecord, ROLES, type DocRecord, type PageRecord, type PipeRecord } from '../lib/protocol/records.js';
import { documentHtml, type HtmlOptions } from '../lib/formats/html.js';
import { documentText, type TextOptions } from '../lib/formats/text.js';
import { documentXml } from '../lib/formats/xml.js';
import { documentPairsTsv } from '../lib/formats/pairs.js';
import { OUTPUT_DEFAULTS } from '../lib/formats/output.js';
import { ROLE_SETS, roleFilter } from '../lib/formats/selection.js';
import { ownOptions } from '../lib/protocol/stage.js';
import { isWritten, isWrittenPart, type WrittenDocument, type WrittenPart } from '../lib/run/worker-task.js';

/** The serialize stage's options: the format, the folder, and what the text and HTML writers read (lib/formats/text.ts, html.ts). */
export interface SerializeOptions extends TextOptions, HtmlOptions {
  format: 'text' | 'ndjson' | 'xml' | 'base64' | 'html' | 'pairs';
  /** Write one file per document into this folder instead of to stdout. */
  outDir: string;
  /** No per-document error lines on stderr. */
  quiet: boolean;
}

/** The file ending of each format under `outDir` (base64 writes the text itself there). */
const EXTENSIONS = { text: 'txt', base64: 'txt', ndjson: 'ndjson', xml: 'xml', html: 'html', pairs: 'tsv' } as const;

/** The output formats. */
const FORMATS: readonly SerializeOptions['format'][] = ['text', 'ndjson', 'xml', 'base64', 'html', 'pairs'];

/** Default options; the CLI's `--help` shows them. */
export const DEFAULTS: SerializeOptions = { ...OUTPUT_DEFAULTS, outDir: '', quiet: false };

/** The option table: command-line flags and their checks. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'format', type: 'string', choices: FORMATS, description: 'output format (base64: one line per document, its text in base64; html: PDFExtract alignment HTML; pairs: parallel text, an aligned pair a line in TSV)' },
  { key: 'blankLines', type: 'boolean', description: 'separate paragraphs with blank lines' },
  { key: 'keepFurniture', type: 'boolean', description: 'keep running headers, footers and page numbers (added to --roles too)' },
  { key: 'roles', type: 'string', description: `text, html, base64: write only blocks of these roles, comma-separated (${ROLES.join(', ')}) or sets (${Object.keys(ROLE_SETS).join(', ')}); default: all but headers, footers and page numbers` },
  { key: 'bodyOnly', type: 'boolean', description: 'short for --roles body-only: title, heading (without its section number), body, list-item' },
  { key: 'outDir', type: 'string', short: ['o'], description: 'write one file per document into this folder' },
  { key: 'quiet', type: 'boolean', short: ['q'], description: 'no per-document error lines on stderr' },
  { key: 'sentences', type: 'boolean', description: 'text: one sentence per line' },
  { key: 'keepbrtags', type: 'boolean', description: 'html: <br /> after every line' },
  { key: 'getperms', type: 'boolean', description: "html: the PDF's permissions in the head" },
];

/** Options completed from `DEFAULTS`, the format and the roles checked (an unknown role is a UsageError). */
export function normalizeOptions(partial: Partial<SerializeOptions> = {}): SerializeOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (!FORMATS.includes(options.format)) throw new UsageError(`Unknown format "${options.format}"`);
  roleFilter(options);
  return options;
}

/** Collects each document's pages and writes it when its outcome arrives. */
export function serialize(partial: Partial<SerializeOptions> = {}): Transform {
  const options = normalizeOptions(partial);
  let doc: DocRecord | null = null;
  let pages: PageRecord[] = [];
  let first = true;
  /**
   * Writes a document's file. A file the system refuses (no space, a name it will not take) is
   * that document's failure: reported as a `write-failed` error (the 'document-error' event,
   * which the batch run counts) while the run goes on with the next document.
   */
  const write = async (id: string, ext: string, body: string, outcome: PipeRecord): Promise<void> => {
    const path = join(options.outDir, outputFileName(id, ext));
    try {
      await writeWhole(path, body);
    } catch (error) {
      const failure = errorRecord(id, 'serialize', 'write-failed', `Cannot write ${path}: ${(error as Error).message}`);
      if (!options.quiet) stderrLine(`pdfpipe: ${failure.doc}: ${failure.code}: ${failure.message}`);
      stream.emit('document-error', failure, outcome);
    }
  };
  let written = 0;
  const writeWhole = async (path: string, body: string): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    // Written whole, then renamed: a run killed midway never leaves a partial file under the name.
    // (a short name of its own: the final name may already take the 255 bytes a name can have)
    const partial = join(dirname(path), `.pdfpipe-${process.pid}-${++written}.partial`);
    try {
      await writeFile(partial, body);
      await rename(partial, path);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
  };
  let failed = 0;
  /** A document its worker wrote (lib/run/render.ts): its error line, then its body to its file or, after the separator, to stdout. */
  const writeWritten = async (written: WrittenDocument): Promise<string> => {
    const { outcome, body } = written;
    if (outcome.type === 'error' && !options.quiet) stderrLine(`pdfpipe: ${outcome.doc}: ${outcome.code}: ${outcome.message}`);
    if (body === null) {
      failed += 1;
      process.stderr.write(`pdfpipe: ${outcome.doc}: bad-record: serialize could not write the document: ${written.failure ?? ''}\n`);
      return '';
    }
    if (options.outDir) {
      await write(outcome.doc, EXTENSIONS[options.format], body, outcome);
      return '';
    }
    if (options.format !== 'text' && options.format !== 'xml' && options.format !== 'html') return body;
    const out = (first ? '' : '\f\n') + body;
    first = false;
    return out;
  };
  const stream = new Transform({
    writableObjectMode: true,
    transform(input: PipeRecord | WrittenPart | WrittenDocument, _enc, done: TransformCallback) {
      if (isWritten(input)) return void writeWritten(input).then((out) => done(null, out || undefined), done);
      // The start of a document's NDJSON to stdout, written ahead by its worker.
      if (isWrittenPart(input)) return done(null, input.body);
      const record = input;
      void (async () => {
        if (record.type === 'error' && !options.quiet) {
          stderrLine(`pdfpipe: ${record.doc}: ${record.code}: ${record.message}`);
        }
        if (options.format === 'ndjson') {
          if (!options.outDir) return JSON.stringify(record) + '\n';
          if (record.type === 'doc') { doc = record; pages = []; }
          if (record.type === 'page') pages.push(record);
          if ((record.type === 'end' || record.type === 'error') && options.outDir) {
            const lines = [doc, ...pages, record].filter((r) => r !== null && (r.type !== 'doc' || r.id === record.doc));
            await write(record.doc, 'ndjson', lines.map((r) => JSON.stringify(r)).join('\n') + '\n', record);
            doc = null;
            pages = [];
          }
          return '';
        }
        if (record.type === 'doc') {
          doc = record;
          pages = [];
        } else if (record.type === 'page' && doc && record.doc === doc.id) {
          pages.push(record);
        } else if ((record.type === 'end' || record.type === 'error') && options.format === 'xml') {
          const xml = documentXml(doc?.id === record.doc ? doc : null, pages, record);
          doc = null;
          pages = [];
          if (options.outDir) {
            await write(record.doc, 'xml', xml, record);
            return '';
          }
          const out = (first ? '' : '\f\n') + xml;
          first = false;
          return out;
        } else if ((record.type === 'end' || record.type === 'error') && options.format === 'html') {
          const html = documentHtml(doc?.id === record.doc ? doc : null, pages, record, options);
          doc = null;
          pages = [];
          if (options.outDir) {
            await write(record.doc, 'html', html, record);
            return '';
          }
          const out = (first ? '' : '\f\n') + html;
          first = false;
          return out;
        } else if ((record.type === 'end' || record.type === 'error') && options.format === 'pairs') {
          const tsv = record.type === 'end' ? documentPairsTsv(doc?.id === record.doc ? doc : null, record.doc, pages) : '';
          doc = null;
          pages = [];
          if (options.outDir) await write(record.doc, 'tsv', tsv, record);
          return options.outDir ? '' : tsv;
        } else if (record.type === 'end' || record.type === 'error') {
          const text = record.type === 'end' ? documentText(pages, options) : '';
          doc = null;
          pages = [];
          if (options.outDir) {
            await write(record.doc, 'txt', text, record);
            return '';
          }
          // Bitextor style: a line per document, a failed one too (empty), so lines out = lines in.
          if (options.format === 'base64') return Buffer.from(text).toString('base64') + '\n';
          const out = (first ? '' : '\f\n') + text;
          first = false;
          return out;
        }
        return '';
      })().then(
        (out) => done(null, out || undefined),
        (error: unknown) => {
          // A document whose records the writers cannot read (a block without its fields) is that
          // document's failure, reported as a bad record; the stream goes on with the next one.
          if ((record.type !== 'end' && record.type !== 'error') || isWriteError(error)) return done(error as Error);
          doc = null;
          pages = [];
          failed += 1;
          process.stderr.write(`pdfpipe: ${record.doc}: bad-record: serialize could not write the document: ${(error as Error)?.message ?? String(error)}\n`);
          done();
        },
      );
    },
  });
  return Object.defineProperty(stream, 'failed', { get: () => failed });
}

/** A failure of the file system (writing under --out-dir), which is not the records' fault. */
const isWriteError = (error: unknown): boolean => typeof (error as NodeJS.ErrnoException)?.code === 'string';

/** The command line's usage line. */
export const USAGE = 'pdfpipe serialize [options] < paragraphs.ndjson';
/** One line on what the stage does, for `--help`. */
export const SUMMARY = 'Writes documents as text (paragraph per line, roles selectable), NDJSON, alignment HTML, XML, base64 lines or parallel pairs, to stdout or one file per document.';

/** The command line: reads records on stdin, writes the documents to stdout or `--out-dir`. */
export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  if (options.outDir) prepareOutputFolder(options.outDir, 'out-dir');
  const writer = serialize(options) as Transform & { failed: number };
  const code = await runFilter({ stage: 'serialize', transforms: [writer], writesBytes: true });
  return writer.failed > 0 ? Math.max(code, 1) : code;
}
