/**
 * NDJSON in and out, with the protocol guard that keeps documents whole.
 *
 * Why not the `ndjson` package: it is unmaintained and drops unparsable lines silently. Here a bad
 * line becomes an `error` record for the document it was in (with its line number), the rest of
 * that document is skipped, and the stream goes on with the next document. Lines are split on
 * bytes (a newline byte is never inside a UTF-8 sequence), each line's chunks gathered and decoded
 * once, so framing is linear in the input however long a line is; a line past the cap is skipped
 * to its end and becomes one error.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { errorRecord, SCHEMA_VERSION, validateRecord, type ErrorCode, type PipeRecord } from './records.js';

/** Lines longer than this are rejected rather than buffered without bound (a page of items is far less). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

type ParsedLine = { line: number; value?: unknown; problem?: string; code?: ErrorCode };

const NEWLINE = 0x0a;

/** Splits bytes into lines and parses each as JSON, reporting (not dropping) bad lines. */
export function jsonLines(maxLineBytes = MAX_LINE_BYTES): Transform {
  let lineNumber = 0;
  let parts: Buffer[] = [];
  let length = 0;
  let overlong = false;
  const finishLine = (stream: Transform): void => {
    lineNumber += 1;
    const chunks = parts;
    parts = [];
    length = 0;
    if (overlong) {
      overlong = false;
      stream.push({ line: lineNumber, code: 'bad-record', problem: `Unexpected line ${lineNumber} longer than ${maxLineBytes} bytes; it was skipped` } satisfies ParsedLine);
      return;
    }
    const parsed = parseLine(Buffer.concat(chunks).toString('utf8'), lineNumber);
    if (parsed) stream.push(parsed);
  };
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; start = end + 1, end = chunk.indexOf(NEWLINE, start)) {
        take(chunk.subarray(start, end));
        finishLine(this);
      }
      take(chunk.subarray(start));
      done();
    },
    flush(done: TransformCallback) {
      if (length > 0 || overlong) finishLine(this);
      done();
    },
  });
  function take(piece: Buffer): void {
    if (overlong || piece.length === 0) return;
    length += piece.length;
    if (length > maxLineBytes) {
      overlong = true;
      parts = [];
      return;
    }
    parts.push(piece);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

function parseLine(raw: string, line: number): ParsedLine | undefined {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.trim() === '') return undefined;
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    // V8 quotes a snippet of the line, which may end inside a surrogate pair: the lone half would
    // make the error record itself invalid JSON text for strict readers.
    return { line, problem: `Unexpected invalid JSON on line ${line}: ${(error as Error).message}`.replace(LONE_SURROGATE, '\uFFFD') };
  }
}

/**
 * Keeps the document structure whole: every `doc` gets exactly one outcome, records of a
 * document that already failed are dropped, and a bad line outside any document becomes an
 * error record of its own (a `pdf` input that could not be read is a lost document otherwise).
 */
class ProtocolGuard extends Transform {
  private openDoc: string | null = null;
  private failedDoc: string | null = null;

  constructor(private readonly stage: string) {
    super({ objectMode: true });
  }

  override _transform(parsed: ParsedLine, _enc: BufferEncoding, done: TransformCallback): void {
    if (parsed.problem !== undefined) {
      this.fail(parsed.problem, parsed.line, parsed.code ?? 'bad-json');
      return done();
    }
    const problem = validateRecord(parsed.value);
    if (problem !== null) {
      const header = parsed.value as { type?: unknown; id?: unknown; schema?: unknown } | null;
      if (header?.type === 'doc' && typeof header.id === 'string') {
        // A header we cannot accept still names its document: that document fails as a whole,
        // with one error record, and the rest of its records are dropped.
        this.closeUnfinished(parsed.line);
        const code: ErrorCode = header.schema !== SCHEMA_VERSION ? 'schema-mismatch' : 'bad-record';
        this.push(errorRecord(header.id, this.stage, code, problem, { line: parsed.line }));
        this.failedDoc = header.id;
        return done();
      }
      this.fail(problem, parsed.line, 'bad-record');
      return done();
    }
    const record = parsed.value as PipeRecord;
    if (record.type === 'doc') {
      this.closeUnfinished(parsed.line);
      // A stray record of this document came before its header and already gave it its error:
      // the document is dropped to its outcome, or it would have two.
      if (this.failedDoc === record.id) return done();
      this.openDoc = record.id;
      this.failedDoc = null;
      this.push(record);
      return done();
    }
    const docOf = 'doc' in record && typeof record.doc === 'string' ? record.doc : null;
    if (this.failedDoc !== null && docOf === this.failedDoc) {
      if (record.type === 'end' || record.type === 'error') this.failedDoc = null;
      return done();
    }
    // A bare `error` outside any document is the outcome of a document that never opened.
    if (record.type === 'error' && this.openDoc === null) {
      this.push(record);
      return done();
    }
    if ((record.type === 'page' || record.type === 'end' || record.type === 'error') && docOf !== this.openDoc) {
      this.fail(`Unexpected ${record.type} record for document "${docOf}" outside its document`, parsed.line, 'bad-record', docOf);
      return done();
    }
    if (record.type === 'end' || record.type === 'error') this.openDoc = null;
    this.push(record);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.closeUnfinished(null);
    done();
  }

  private closeUnfinished(line: number | null): void {
    if (this.openDoc === null) return;
    const message = line === null ? 'Unexpected end of input inside the document, expected its end or error record'
      : `Unexpected new document on line ${line} before the previous one ended`;
    this.push(errorRecord(this.openDoc, this.stage, 'bad-record', message, line === null ? undefined : { line }));
    this.openDoc = null;
  }

  private fail(message: string, line: number, code: ErrorCode, docId: string | null = null): void {
    const doc = docId ?? this.openDoc;
    if (doc !== null && doc === this.openDoc) {
      this.push(errorRecord(doc, this.stage, code, message, { line }));
      this.failedDoc = doc;
      this.openDoc = null;
      return;
    }
    // Outside any document: the line may have been an input document; it must not vanish.
    this.push(errorRecord(doc ?? `line-${line}`, this.stage, code, message, { line }));
    // A stray document gets one error record, not one per record it still has.
    if (doc !== null) this.failedDoc = doc;
  }
}

/** Returns the two streams that turn NDJSON bytes into checked records. */
export function parseNdjson(stage: string): [Transform, Transform] {
  return [jsonLines(), new ProtocolGuard(stage)];
}

/** Serialises records as NDJSON, one per line. */
export function stringifyNdjson(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(record: unknown, _enc, done) {
      done(null, JSON.stringify(record) + '\n');
    },
  });
}
