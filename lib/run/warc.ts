/**
 * `pdfpipe warc`: a WARC filter for crawl pipelines (Bitextor's place for its PDF converter, before
 * `warc2text`). WARC in (files or stdin; plain, gzip per record or whole-file gzip), WARC out on
 * stdout, gzip per record: a `warcinfo` record first, then every record in input order, the PDF
 * records replaced by HTML records of their text (lib/formats/warc.ts says how), all others
 * byte for byte as they came.
 *
 * Records are framed here on the raw bytes rather than through a parser that rebuilds headers, so
 * that a record passed through keeps repeated header lines (Set-Cookie) and its exact bytes. A
 * PDF record is then read with warcio (chunked and compressed HTTP payloads decoded). Damage in
 * the input (a record cut by the end of the file, a Content-Length that does not end where the
 * next record starts, bytes without a WARC header, broken gzip) is one line on stderr; the
 * damaged record is dropped and reading goes on at the next record header.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { WARCParser } from 'warcio';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../protocol/options.js';
import type { DocRecord, PageRecord, PdfRecord, PipeRecord } from '../protocol/records.js';
import { documentText } from '../formats/text.js';
import { documentHtml, escapeXml } from '../formats/html.js';
import { convertedRecord, gzipMember, headerValue, holdsPdf, parseWarcHeader, targetUri, warcinfoRecord, type HeaderField } from '../formats/warc.js';
import { EXIT, quietOnBrokenPipe, refuseTerminal, stderrLine } from './filter.js';
import { truncation } from './inputs.js';
import { DEFAULTS as EXTRACT_DEFAULTS, OPTIONS as EXTRACT_OPTIONS, analysisChain, type ExtractOptions } from './extract.js';

/** One framed record: where it starts (uncompressed bytes), its parsed WARC header, its bytes whole. */
export interface RawRecord {
  offset: number;
  version: string;
  fields: HeaderField[];
  /** The record's content block (after the header's blank line, Content-Length bytes). */
  block: Buffer;
  /** The record as it was read: header, block and the two CRLFs after it. */
  raw: Buffer;
}

/** Damage found while framing: where, and what. */
export interface Damage {
  offset: number;
  message: string;
}

export type Framed = { record: RawRecord } | { damage: Damage };

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const WARC_START = Buffer.from('WARC/1.', 'latin1');
/** A header block longer than this is not a header: the bytes are damaged. */
const MAX_HEADER_BYTES = 1 << 20;

/** The next `WARC/1.0` or `WARC/1.1` line at a line start, at or after `from`, or -1. */
function nextRecordStart(buf: Buffer, from: number): number {
  for (let at = buf.indexOf(WARC_START, from); at >= 0; at = buf.indexOf(WARC_START, at + 1)) {
    const lineStart = at === 0 || buf[at - 1] === 0x0a;
    const version = buf[at + 7];
    if (lineStart && (version === 0x30 || version === 0x31) && buf[at + 8] === 0x0d) return at;
  }
  return -1;
}

/** The uncompressed bytes of a WARC source: gzip (one member per record or the whole file) is inflated. */
async function* uncompressed(source: Readable): AsyncGenerator<Buffer> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  if (first.done) return;
  const rest = async function* (): AsyncGenerator<Buffer> {
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  };
  if (first.value[0] === 0x1f && first.value[1] === 0x8b) yield* Readable.from(rest()).pipe(createGunzip());
  else yield* rest();
}

/**
 * Frames the records of a WARC stream on its raw bytes. A record whose Content-Length does not end
 * at `\r\n\r\n` before the next record (too short or too long), or that the stream cuts, is damage:
 * reading goes on at the next `WARC/1.x` line after its header.
 */
export async function* frameRecords(source: Readable): AsyncGenerator<Framed> {
  const input = uncompressed(source);
  let buf: Buffer = Buffer.alloc(0);
  let base = 0; // uncompressed offset of buf[0]
  let ended = false;
  let streamError: string | null = null;
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    try {
      const next = await input.next();
      if (next.done) ended = true;
      else buf = buf.byteLength === 0 ? next.value : Buffer.concat([buf, next.value]);
    } catch (error) {
      ended = true;
      streamError = (error as Error).message;
    }
    return !ended;
  };
  const drop = (n: number): void => {
    buf = buf.subarray(n);
    base += n;
  };
  /** Skips to the next record header at or after `from`; true when one was found. */
  const resync = async (from: number): Promise<boolean> => {
    for (;;) {
      const at = nextRecordStart(buf, from);
      if (at >= 0) {
        drop(at);
        return true;
      }
      if (!(await more())) {
        drop(buf.byteLength);
        return false;
      }
    }
  };

  for (;;) {
    // The blank lines between records.
    let skip = 0;
    for (;;) {
      while (skip < buf.byteLength && (buf[skip] === 0x0d || buf[skip] === 0x0a)) skip++;
      if (skip < buf.byteLength || !(await more())) break;
    }
    drop(skip);
    if (buf.byteLength === 0) break;
    let headerEnd = buf.indexOf(HEADER_END);
    while (headerEnd < 0 && buf.byteLength < MAX_HEADER_BYTES && (await more())) headerEnd = buf.indexOf(HEADER_END);
    const offset = base;
    if (buf.subarray(0, 5).toString('latin1') !== 'WARC/' || headerEnd < 0) {
      const found = await resync(1);
      const what = headerEnd < 0 && buf.byteLength === 0 ? 'bytes without a complete WARC header up to the end' : 'bytes without a WARC header';
      yield { damage: { offset, message: `${what} (${found ? base - offset : 'all remaining'} bytes skipped)` } };
      if (!found) break;
      continue;
    }
    const header = parseWarcHeader(buf.subarray(0, headerEnd).toString('latin1'));
    const length = Number(headerValue(header.fields, 'Content-Length'));
    const blockStart = headerEnd + HEADER_END.byteLength;
    if (!Number.isInteger(length) || length < 0) {
      const found = await resync(blockStart);
      yield { damage: { offset, message: `a record without a valid Content-Length (${headerValue(header.fields, 'Content-Length') ?? 'none'}); dropped` } };
      if (!found) break;
      continue;
    }
    const recordEnd = blockStart + length + HEADER_END.byteLength;
    while (buf.byteLength < recordEnd && (await more()));
    const ends = buf.byteLength >= blockStart + length && buf.subarray(blockStart + length, recordEnd).equals(HEADER_END.subarray(0, Math.min(4, buf.byteLength - blockStart - length)));
    const cut = buf.byteLength < blockStart + length;
    const next = nextRecordStart(buf, blockStart);
    if (ends && (next < 0 || next >= blockStart + length)) {
      const end = Math.min(recordEnd, buf.byteLength);
      yield { record: { offset, version: header.version, fields: header.fields, block: Buffer.from(buf.subarray(blockStart, blockStart + length)), raw: Buffer.from(buf.subarray(0, end)) } };
      drop(end);
      continue;
    }
    const uri = targetUri(header.fields) || headerValue(header.fields, 'WARC-Record-ID') || 'no URI';
    if (cut && next < 0) {
      const why = streamError ? `the gzip data breaks off (${streamError})` : 'the input ends';
      yield { damage: { offset, message: `${uri}: ${why} ${buf.byteLength - blockStart} bytes into the ${length} its Content-Length declares; dropped` } };
      break;
    }
    const found = await resync(blockStart);
    yield { damage: { offset, message: `${uri}: its Content-Length (${length}) does not end where the next record starts${found ? ` (${base - offset - blockStart} bytes)` : ''}; dropped` } };
    if (!found) break;
  }
  if (streamError) yield { damage: { offset: base, message: `the gzip data is damaged: ${streamError}` } };
}

/** What to do with a PDF record whose text could not be extracted. */
export const ON_FAILURE = ['drop', 'pass'] as const;
/** The HTML written for a PDF: PDFExtract's alignment HTML, or plain paragraphs. */
export const HTML_STYLES = ['alignment', 'paragraphs'] as const;

export interface WarcOptions extends ExtractOptions {
  onFailure: (typeof ON_FAILURE)[number];
  html: (typeof HTML_STYLES)[number];
  maxRecordSize: number;
}

export const DEFAULTS: WarcOptions = {
  ...EXTRACT_DEFAULTS,
  // Bitextor drops a record whose conversion fails: a binary PDF passed on is no use to warc2text.
  onFailure: 'drop',
  html: 'alignment',
  // Bitextor's limit: larger records are skipped.
  maxRecordSize: 5 * 1024 * 1024,
};

const WARC_OPTIONS: readonly OptionSpec[] = [
  { key: 'html', type: 'string', choices: HTML_STYLES, description: "the HTML of a PDF: PDFExtract's alignment HTML (Bitextor's pdfextract route) or plain <p> paragraphs" },
  { key: 'onFailure', type: 'string', choices: ON_FAILURE, description: 'a PDF record that fails: drop it (as Bitextor) or pass it on unchanged' },
  { key: 'maxRecordSize', type: 'number', min: 0, description: 'PDF records whose WARC Content-Length is over this many bytes are skipped (dropped), as Bitextor' },
];

export const OPTIONS: readonly OptionSpec[] = [...WARC_OPTIONS, ...EXTRACT_OPTIONS.filter((o) => !['format', 'outDir'].includes(o.key))];

/** Plain HTML of a document's text: a `<p>` per paragraph. */
export function paragraphsHtml(doc: DocRecord | null, pages: readonly PageRecord[], options: ExtractOptions): string {
  const text = documentText(pages, { ...options, blankLines: true });
  const lang = doc?.lang && doc.lang !== 'und' ? ` lang="${escapeXml(doc.lang)}"` : '';
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
  return `<html${lang}>\n<head>\n<meta charset="utf-8">\n</head>\n<body>\n${paragraphs.map((p) => `<p>${escapeXml(p)}</p>\n`).join('')}</body>\n</html>\n`;
}

/** The raw HTTP header block of a response record's block (up to its blank line), or null. */
function httpHeaderOf(block: Buffer): string | null {
  if (block.subarray(0, 5).toString('latin1') !== 'HTTP/') return null;
  const end = block.indexOf(HEADER_END);
  return end < 0 ? null : block.subarray(0, end).toString('latin1');
}

/** An item of the output, in input order: bytes ready to write, or a PDF waiting for its text. */
type Pending = { bytes: Buffer } | { pdf: RawRecord; id: string; uri: string; httpHeader: string | null };

export const USAGE = 'pdfpipe warc [options] [WARC ...]   (stdin when no file is given)';
export const SUMMARY = "WARC filter for Bitextor: PDF records replaced by HTML records of their text, other records passed on; WARC out.";

/** Runs the filter over `sources`, writing gzipped records to `output`. Returns the number of failures. */
export async function filterWarc(sources: AsyncIterable<Framed>, output: NodeJS.WritableStream, options: WarcOptions, report: (line: string) => void): Promise<number> {
  let failures = 0;
  const write = (bytes: Buffer): Promise<void> =>
    new Promise((resolve) => (output.write(gzipMember(bytes)) ? resolve() : output.once('drain', () => resolve())));
  const pending: Pending[] = [];
  let inFlight = 0;
  let count = 0;
  /** Writes a record now when no document before it is still being extracted, else queues it behind them. */
  const emit = async (bytes: Buffer): Promise<void> => {
    if (inFlight === 0) await write(bytes);
    else pending.push({ bytes });
  };
  const fail = async (item: Extract<Pending, { pdf: RawRecord }>, why: string): Promise<void> => {
    failures += 1;
    report(`pdfpipe warc: ${item.uri}: ${why}; ${options.onFailure === 'pass' ? 'passed on unchanged' : 'dropped'}`);
    if (options.onFailure === 'pass') await emit(item.pdf.raw);
  };

  async function* pdfs(): AsyncGenerator<PdfRecord> {
    for await (const framed of sources) {
      if ('damage' in framed) {
        failures += 1;
        report(`pdfpipe warc: input byte ${framed.damage.offset}: ${framed.damage.message}`);
        continue;
      }
      const record = framed.record;
      const type = headerValue(record.fields, 'WARC-Type') ?? '';
      const httpHeader = type === 'response' ? httpHeaderOf(record.block) : null;
      const httpType = httpHeader === null ? undefined : headerValue(parseWarcHeader(httpHeader).fields, 'Content-Type');
      const uri = targetUri(record.fields);
      const payloadType = type === 'resource' ? headerValue(record.fields, 'Content-Type') : httpType;
      if (!holdsPdf(type, uri, payloadType)) {
        await emit(record.raw);
        continue;
      }
      const item = { pdf: record, id: String(++count), uri, httpHeader };
      if (record.block.byteLength > options.maxRecordSize) {
        // Skipped as Bitextor skips it: not converted, not passed.
        report(`pdfpipe warc: ${uri}: ${record.block.byteLength} bytes, over --max-record-size ${options.maxRecordSize}; skipped`);
        continue;
      }
      const parsed = await new WARCParser(Readable.from([record.raw])).parse();
      const payload = parsed ? await parsed.readFully(true) : new Uint8Array();
      const cut = parsed ? truncation(parsed, payload) : 'no record';
      if (cut !== null) {
        await fail(item, `truncated: ${cut}`);
        continue;
      }
      inFlight += 1;
      pending.push(item);
      yield { type: 'pdf', id: item.id, source: uri, data: Buffer.from(payload).toString('base64') };
    }
  }

  const chain = analysisChain(options);
  let tail: NodeJS.ReadableStream = Readable.from(pdfs()).pipe(chain[0]!);
  for (const stage of chain.slice(1)) tail = tail.pipe(stage);
  let doc: DocRecord | null = null;
  let pages: PageRecord[] = [];
  for await (const record of tail as AsyncIterable<PipeRecord>) {
    if (record.type === 'doc') {
      doc = record;
      pages = [];
    } else if (record.type === 'page') pages.push(record);
    else if (record.type === 'end' || record.type === 'error') {
      // Everything before this document goes out first, in input order.
      while (pending.length > 0) {
        const item = pending.shift()!;
        if ('bytes' in item) {
          await write(item.bytes);
          continue;
        }
        inFlight -= 1;
        if (item.id !== record.doc) throw new Error(`document ${record.doc} came back out of order (expected ${item.id})`);
        if (record.type === 'error') {
          failures += 1;
          report(`pdfpipe warc: ${item.uri}: ${record.code}: ${record.message}; ${options.onFailure === 'pass' ? 'passed on unchanged' : 'dropped'}`);
          if (options.onFailure === 'pass') await write(item.pdf.raw);
        }
        else {
          const own = doc?.id === record.doc ? doc : null;
          const html = options.html === 'paragraphs' ? paragraphsHtml(own, pages, options) : documentHtml(own, pages, record, options);
          await write(convertedRecord(item.pdf.fields, item.httpHeader, html));
        }
        break;
      }
      doc = null;
      pages = [];
    }
  }
  for (const item of pending) if ('bytes' in item) await write(item.bytes);
  return failures;
}

/** The framed records of every source in turn: files by name, `-` or none for stdin. */
async function* framedSources(paths: readonly string[], stdin: Readable): AsyncGenerator<Framed> {
  if (paths.length === 0) yield* frameRecords(stdin);
  for (const path of paths) {
    if (path === '-') {
      yield* frameRecords(stdin);
      continue;
    }
    const stream = createReadStream(path);
    try {
      await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    } catch (error) {
      yield { damage: { offset: 0, message: `cannot read ${path}: ${(error as Error).message}` } };
      continue;
    }
    yield* frameRecords(stream);
  }
}

export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  if (positionals.length === 0) refuseTerminal(process.stdin, 'WARC');
  if (!Number.isFinite(options.maxRecordSize)) throw new UsageError('--max-record-size expects a number of bytes');
  quietOnBrokenPipe();
  const output = process.stdout;
  output.write(gzipMember(warcinfoRecord('pdfpipe warc')));
  const failures = await filterWarc(framedSources(positionals, process.stdin), output, { ...options, format: 'html' }, (line) => {
    if (!options.quiet) stderrLine(line);
  });
  return failures > 0 ? EXIT.documentsFailed : EXIT.completed;
}
