/**
 * The last step of `extract`'s workers: each document written out where its records are, so that
 * what crosses to the main thread is its output (a string) and its summary, not its records. The
 * main thread's `serialize` then only adds the separators and writes files, and its accounting
 * counts from the summary (lib/run/batch.ts). The bodies are those `serialize` writes from the
 * records, byte for byte; the `no-text` diagnostic that the accounting adds to a document with no
 * text is added here, in the same place (just before the outcome).
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { DocRecord, Outcome, PageRecord, PipeRecord } from '../protocol/records.js';
import { documentHtml } from '../formats/html.js';
import { documentPairsTsv } from '../formats/pairs.js';
import { documentText } from '../formats/text.js';
import { documentXml } from '../formats/xml.js';
import { OUTPUT_DEFAULTS } from '../formats/output.js';
import { NoTextWatch, noTextDiagnostic } from './no-text.js';
import type { RenderOptions, WrittenDocument, WrittenPart } from './worker-task.js';

/**
 * What `serialize` writes for one document, before any separator: to stdout, or the body of its
 * file under `outDir` (NDJSON there holds the header, pages and outcome; base64 there is the text).
 * `lines` are the document's records as NDJSON lines, which stdout's NDJSON writes all of.
 */
export function documentBody(doc: DocRecord | null, pages: readonly PageRecord[], outcome: Outcome, lines: readonly string[], options: RenderOptions): string {
  const own = doc?.id === outcome.doc ? doc : null;
  switch (options.format) {
    case 'ndjson':
      if (!options.outDir) return lines.join('');
      return [own, ...pages, outcome].filter((r) => r !== null).map((r) => JSON.stringify(r)).join('\n') + '\n';
    case 'xml':
      return documentXml(own, pages, outcome);
    case 'html':
      return documentHtml(own, pages, outcome, options);
    case 'pairs':
      return outcome.type === 'end' ? documentPairsTsv(own, outcome.doc, pages) : '';
    default: {
      const text = outcome.type === 'end' ? documentText(pages, options) : '';
      return options.format === 'base64' && !options.outDir ? Buffer.from(text).toString('base64') + '\n' : text;
    }
  }
}

/**
 * How `parse`'s workers write a document: its records as NDJSON lines, as the main thread would
 * (the options of the other formats are their defaults, and unused).
 */
export function recordsRender(stage: string): RenderOptions {
  return { ...OUTPUT_DEFAULTS, format: 'ndjson', outDir: '', stage };
}

/**
 * Characters of NDJSON lines a document holds before they go ahead as a `WrittenPart`: a page of
 * a long document is a few thousand; held whole, the largest output in the wild corpus (17 MB)
 * lived in the worker as lines, as one string and as the copy that crossed.
 */
export const PART_CHARS = 1 << 20;

/**
 * Records in, one `WrittenDocument` per document out (records of no document are dropped: a
 * worker has none); NDJSON to stdout also sends its lines ahead in `WrittenPart`s of about
 * PART_CHARS.
 */
export function renderDocuments(options: RenderOptions): Transform {
  const watch = new NoTextWatch();
  const streamsRecords = options.format === 'ndjson' && !options.outDir;
  let doc: DocRecord | null = null;
  let pages: PageRecord[] = [];
  let lines: string[] = [];
  let lineChars = 0;
  let pageCount = 0;
  let garbledPages = 0;
  return new Transform({
    objectMode: true,
    transform(record: PipeRecord, _enc: BufferEncoding, done: TransformCallback) {
      const noText = watch.note(record);
      if (record.type !== 'end' && record.type !== 'error') {
        if (record.type === 'doc') {
          doc = record;
          pages = [];
        } else if (record.type === 'page') {
          pageCount += 1;
          // serialize's NDJSON files take every page since the header, its other formats those of the
          // header's document; NDJSON to stdout takes the lines alone, and the page is garbage once written.
          if (doc !== null && !streamsRecords && (record.doc === doc.id || options.format === 'ndjson')) pages.push(record);
        } else if (record.type === 'diagnostic' && record.code === 'garbled-text') {
          garbledPages += 1;
        }
        if (streamsRecords) {
          const line = JSON.stringify(record) + '\n';
          lines.push(line);
          lineChars += line.length;
          if (lineChars >= PART_CHARS && doc !== null) {
            this.push({ type: 'written-part', doc: doc.id, body: lines.join('') } satisfies WrittenPart);
            lines = [];
            lineChars = 0;
          }
        }
        return done();
      }
      if (noText !== null && streamsRecords) lines.push(JSON.stringify(noTextDiagnostic(record.doc, options.stage, noText)) + '\n');
      if (streamsRecords) lines.push(JSON.stringify(record) + '\n');
      const written: WrittenDocument = { type: 'written', doc: record.doc, outcome: record, pages: pageCount, garbledPages, noText, body: null };
      try {
        written.body = documentBody(doc, pages, record, lines, options);
      } catch (error) {
        written.failure = (error as Error)?.message ?? String(error);
      }
      doc = null;
      pages = [];
      lines = [];
      lineChars = 0;
      pageCount = 0;
      garbledPages = 0;
      done(null, written);
    },
  });
}
