/**
 * Input readers: where the documents of a `parse` or `extract` run come from.
 *
 * Each reader yields one input record per document, in a fixed order, so a run can be repeated
 * (and resumed) and gives the same ids: a `pdf` record for a document to parse, or an `error`
 * record for a document that is lost before parsing (a base64 line that does not decode, a WARC
 * record whose payload was cut). Readers are async generators: they read ahead only as far as the
 * parse stage asks, so memory stays flat however long the input is.
 *
 * - files and folders (`inputsFromArgs`): a folder is searched recursively, PDFs are picked by
 *   content (`%PDF-` in the first KiB) as well as by name, and WARC files are opened;
 * - a list of paths, one a line (`inputsFromList`, the CLI's `--from-list`);
 * - Bitextor-style base64 lines, one PDF a line (`inputsFromBase64`, the CLI's `--base64`): line N
 *   is document `line-N`, and every line is a document, so the output has a line for each;
 * - WARC and WARC.gz (`inputsFromWarc`): `response` and `resource` records whose payload is a PDF
 *   (by Content-Type or by its first bytes), with the record id as the document id and the
 *   WARC-Target-URI as its source.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { WARCParser, WARCRecord } from 'warcio';
import { shortHash } from '../formats/ids.js';
import { errorRecord, type ErrorRecord, type PdfRecord, type PipeRecord } from '../protocol/records.js';

/** What an input reader yields: a document to parse, or the outcome of one lost before parsing. */
export type InputRecord = PdfRecord | ErrorRecord;

/** The stage name on error records made while reading inputs. */
const STAGE = 'parse';

/** Derives a document id from a path: its name (or its path below `root`) without the .pdf extension. */
export function idFromPath(path: string, root?: string): string {
  const name = root ? relative(root, path) : basename(path);
  return extname(name).toLowerCase() === '.pdf' ? name.slice(0, -4) : name;
}

const WARC_NAME = /\.warc(\.gz)?$/i;
/** The record types of the WARC 1.0 and 1.1 standards; a record without one has no WARC header. */
const WARC_TYPES = new Set(['warcinfo', 'response', 'resource', 'request', 'metadata', 'revisit', 'conversion', 'continuation']);

/** The first bytes of a file, or null when it cannot be read. */
async function head(path: string, length = 1024): Promise<Buffer | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** True for a WARC file: named `.warc`/`.warc.gz`, or starting with a `WARC/` version line. */
export async function isWarcFile(path: string): Promise<boolean> {
  if (WARC_NAME.test(path)) return true;
  const bytes = await head(path, 8);
  return bytes !== null && bytes.subarray(0, 5).toString('latin1') === 'WARC/';
}

/** True when the file's first KiB holds a `%PDF-` header. */
export async function isPdfFile(path: string): Promise<boolean> {
  const bytes = await head(path);
  return bytes !== null && bytes.includes('%PDF-');
}

/**
 * The files under a folder, sorted, symbolic links followed: a link to a file is that file, a
 * link to a folder is walked, each real folder once (a link back up the tree would loop), and a
 * broken link is listed like a file, so that a PDF it named gets its `not-found` outcome.
 */
async function* walk(dir: string, visited = new Set<string>()): AsyncGenerator<string> {
  const real = await realpath(dir).catch(() => dir);
  if (visited.has(real)) return;
  visited.add(real);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const target = entry.isSymbolicLink() ? await stat(path).catch(() => null) : entry;
    if (target?.isDirectory()) yield* walk(path, visited);
    else if (target === null || target.isFile()) yield path;
  }
}

/** Reads stdin whole, as one PDF. */
async function stdinDocument(stdin: Readable): Promise<PdfRecord> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return { type: 'pdf', id: 'stdin', data: Buffer.concat(chunks).toString('base64') };
}

/**
 * Turns command-line arguments into input records: files as given (WARC files opened), folders
 * searched for PDFs and WARC files, `-` for one PDF on stdin. A path that does not exist still
 * becomes a document, so it gets its `not-found` error record.
 */
export async function* inputsFromArgs(args: readonly string[], stdin: Readable = process.stdin): AsyncGenerator<InputRecord> {
  for (const arg of args) {
    if (arg === '-') {
      yield await stdinDocument(stdin);
      continue;
    }
    const info = await stat(arg).catch(() => null);
    if (info?.isDirectory()) {
      for await (const path of walk(arg)) {
        if (WARC_NAME.test(path)) yield* inputsFromWarc(path);
        else if (path.toLowerCase().endsWith('.pdf') || (await isPdfFile(path))) yield { type: 'pdf', id: idFromPath(path, arg), path };
      }
    } else if (info?.isFile() && (await isWarcFile(arg))) {
      yield* inputsFromWarc(arg);
    } else {
      yield { type: 'pdf', id: idFromPath(arg), path: arg };
    }
  }
}

/** Lines of a stream, with their 1-based numbers; a last line without a newline counts too. */
async function* numberedLines(input: Readable): AsyncGenerator<[number, string]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) yield [++n, line];
}

/** A list of paths, one a line (blank lines skipped); each path is read as a command-line argument. */
export async function* inputsFromList(input: Readable): AsyncGenerator<InputRecord> {
  for await (const [, line] of numberedLines(input)) {
    const path = line.trim();
    if (path !== '') yield* inputsFromArgs([path]);
  }
}

const BASE64_LINE = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Bitextor-style input: each line is one document's bytes in base64. Line N is document
 * `line-N`; every line, blank or broken, is a document with exactly one outcome, so a filter
 * that writes a line per outcome writes as many lines as it read.
 */
export async function* inputsFromBase64(input: Readable): AsyncGenerator<InputRecord> {
  for await (const [n, raw] of numberedLines(input)) {
    const line = raw.trim();
    const id = `line-${n}`;
    if (!BASE64_LINE.test(line) || line.length % 4 === 1) {
      yield errorRecord(id, STAGE, 'bad-record', `Unexpected characters on line ${n}, expected one document in base64`, { line: n });
    } else {
      yield { type: 'pdf', id, data: line };
    }
  }
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** The media type of a WARC record's payload: the HTTP Content-Type for a response, else the record's. */
function payloadType(record: WARCRecord): string {
  const http = record.httpHeaders?.headers.get('content-type');
  const type = record.warcType === 'response' ? http : record.warcContentType;
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why a payload is incomplete, or null when it is whole. */
export function truncation(record: WARCRecord, payload: Uint8Array): string | null {
  const flagged = record.warcHeader('WARC-Truncated');
  if (flagged) return `the crawler cut it (WARC-Truncated: ${flagged}) at ${payload.byteLength} bytes`;
  if (record.warcType === 'resource' && payload.byteLength < record.warcContentLength) {
    return `${payload.byteLength} of the ${record.warcContentLength} bytes its WARC Content-Length declares (the file ends early)`;
  }
  const declared = Number(record.httpHeaders?.headers.get('content-length') ?? NaN);
  const encoded = record.httpHeaders?.headers.get('content-encoding') || record.httpHeaders?.headers.get('transfer-encoding');
  if (!encoded && Number.isFinite(declared) && payload.byteLength < declared) {
    return `${payload.byteLength} of the ${declared} bytes its HTTP Content-Length declares`;
  }
  return null;
}

/**
 * Why a gzip file does not inflate to its end (damaged or cut), or null when it does. warcio's
 * inflater takes damaged bytes for an uncompressed tail and a cut member for the end of the file,
 * without an error; Node's zlib says so. Run once a WARC.gz is read, so no loss goes unreported.
 */
async function gzipDamage(path: string): Promise<string | null> {
  try {
    await pipeline(createReadStream(path), createGunzip(), new Writable({ write: (_chunk, _enc, done) => done() }));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The PDFs in one WARC or WARC.gz file. A record counts when it is a `response` or `resource`
 * whose payload is a PDF by media type or by its first bytes. Its id is the WARC-Record-ID (without
 * the angle brackets), its source the WARC-Target-URI. A cut payload gets a `truncated` outcome
 * instead of a parse. A file that breaks off or cannot be read ends with a `corrupt` outcome named
 * after the file and the offset where reading failed; the run goes on with the next input.
 */
export async function* inputsFromWarc(path: string): AsyncGenerator<InputRecord> {
  const name = basename(path);
  let parser: WARCParser;
  let gzipped = false;
  try {
    const stream = createReadStream(path);
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    const magic = await head(path, 2);
    gzipped = magic !== null && magic[0] === 0x1f && magic[1] === 0x8b;
    // warcio (and the zlib code it carries) is loaded on the first WARC file: a run over PDFs,
    // and every parse worker, starts without it.
    const { WARCParser: Parser } = await import('warcio');
    parser = new Parser(stream);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not-found' : 'unreadable';
    yield errorRecord(name, STAGE, code, `Cannot read the WARC file ${path}: ${(error as Error).message}`);
    return;
  }
  let count = 0;
  for (;;) {
    let record: WARCRecord | null;
    let payload: Uint8Array | null = null;
    let offset = parser.offset;
    try {
      record = await parser.parse();
      if (record === null) {
        const damage = gzipped ? await gzipDamage(path) : null;
        if (damage !== null) {
          yield errorRecord(`${name}@${parser.offset}`, STAGE, 'corrupt', `Unexpected damage in the gzip data of the WARC file ${path} (${damage}) after the record at (uncompressed) byte ${parser.offset}, after ${count} records; the rest of the file is lost`);
        }
        return;
      }
      offset = parser.offset;
      if (!WARC_TYPES.has(record.warcType ?? '')) {
        // No WARC header here: the record before declared more bytes than it had and took this
        // one's header with it (or the file is damaged here). What this record held is lost;
        // it must not be lost in silence.
        yield errorRecord(`${name}@${offset}`, STAGE, 'corrupt', `Unexpected bytes without a WARC header in the WARC file ${path} at (uncompressed) byte ${offset}, after ${count} records: the record before declares a wrong Content-Length, or the file is damaged; a document stored here is lost`);
        count += 1;
        continue;
      }
      if (record.warcType === 'response' || record.warcType === 'resource') payload = await record.readFully(true);
    } catch (error) {
      // The offset counts uncompressed bytes: where the record that could not be read starts.
      yield errorRecord(`${name}@${offset}`, STAGE, 'corrupt', `Unexpected end or damage in the WARC file ${path} in the record at (uncompressed) byte ${offset}, after ${count} records: ${(error as Error).message}`);
      return;
    }
    count += 1;
    if (payload === null) continue;
    const isPdf = payloadType(record) === 'application/pdf'
      || Buffer.from(payload.buffer, payload.byteOffset, Math.min(payload.byteLength, 1024)).indexOf(PDF_MAGIC) !== -1;
    if (!isPdf) continue;
    const id = (record.warcHeader('WARC-Record-ID') ?? `${name}#${count}`).replace(/^<|>$/g, '');
    const source = record.warcTargetURI ?? `${path}#${count}`;
    const cut = truncation(record, payload);
    if (cut !== null) {
      yield errorRecord(id, STAGE, 'truncated', `The payload of ${source} is incomplete: ${cut}`);
      continue;
    }
    yield { type: 'pdf', id, source, data: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64') };
  }
}

/**
 * Gives every `pdf` record an id (the one `parse` would give it), unique within the run, and
 * drops the documents a previous run finished (`done`), so ids are the same in a resumed run.
 *
 * Crawls are full of `download.pdf` and WARC files repeat record ids, and two documents with one
 * id would share an output file and a resume entry. A document whose id an earlier one took gets
 * the id with a short hash of where it came from (`doc-1a2b3c4d`), so the first keeps its name
 * and the same inputs in the same order give the same ids. An error record for a document lost
 * before parsing is made unique the same way.
 */
export async function* withIds<R extends PipeRecord>(records: AsyncIterable<R>, done: ReadonlySet<string> = new Set()): AsyncGenerator<R> {
  let counter = 0;
  const taken = new Set<string>();
  const unique = (id: string, origin: string): string => {
    let candidate = id;
    for (let n = 0; taken.has(candidate); n++) candidate = `${id}-${shortHash(n === 0 ? origin : `${origin}#${n}`)}`;
    taken.add(candidate);
    return candidate;
  };
  for await (const record of records) {
    if (record.type === 'pdf') {
      counter += 1;
      const given = record.id === undefined || record.id === null ? (record.path ? idFromPath(record.path) : `document-${counter}`) : String(record.id);
      record.id = unique(given, record.path ?? record.source ?? `#${counter}`);
      if (done.has(record.id)) continue;
    } else if (record.type === 'error') {
      record.doc = unique(String(record.doc), `${record.message}#${counter}`);
      if (done.has(record.doc)) continue;
    }
    yield record;
  }
}
