/**
 * WARC records as bytes, for `pdfpipe warc`: the header block of a record, which records hold a
 * PDF, the HTML record that replaces one, and a record serialized as its own gzip member.
 *
 * The replacement follows Bitextor's WARC filter (the step before `warc2text` in its pipeline), so
 * that what reads Bitextor's WARC reads pdfpipe's: a `response` or `resource` record whose target
 * URI ends in `.pdf` or whose payload type is `application/pdf` becomes a `response` record with
 * the PDF's text as HTML; its URI gets `.converted` when it ends in `.pdf` (so that a later step
 * does not take it for the PDF again); its HTTP header lines are kept in their order with the new
 * Content-Type and Content-Length; its WARC Content-Type and WARC-Date are kept.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** One `Name: value` line of a header block, as written (names keep their case, repeats are kept). */
export interface HeaderField {
  name: string;
  value: string;
}

/** A record's WARC header block: the version line and its fields. */
export interface WarcHeader {
  version: string;
  fields: HeaderField[];
}

const CRLF = '\r\n';

/** The header lines of a block (latin1 text without its blank line), continuation lines joined to the field they continue. */
function headerLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && lines.length > 1) lines[lines.length - 1] += ` ${line.trim()}`;
    else if (line !== '') lines.push(line);
  }
  return lines;
}

/** A field line split at its first colon; a line without one is kept whole as a name with no value. */
function field(line: string): HeaderField {
  const colon = line.indexOf(':');
  return colon < 0 ? { name: line, value: '' } : { name: line.slice(0, colon), value: line.slice(colon + 1).trim() };
}

/** Reads a WARC header block (the bytes before its blank line, as latin1 text). */
export function parseWarcHeader(text: string): WarcHeader {
  const [version = '', ...rest] = headerLines(text);
  return { version, fields: rest.map(field) };
}

/** The value of the first field of this name (any case), or undefined. */
export function headerValue(fields: readonly HeaderField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return fields.find((f) => f.name.toLowerCase() === lower)?.value;
}

/** The media type of a Content-Type value, lower case without parameters. */
export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A WARC-Target-URI without the angle brackets WARC 1.0 examples put around it. */
export function targetUri(fields: readonly HeaderField[]): string {
  return (headerValue(fields, 'WARC-Target-URI') ?? '').replace(/^<(.*)>$/, '$1');
}

/**
 * Whether a record holds a PDF to convert: a `response` or `resource` whose URI ends in `.pdf` or
 * whose payload's Content-Type (the HTTP one of a response, the record's own for a resource) is
 * `application/pdf`, as Bitextor decides.
 */
export function holdsPdf(warcType: string, uri: string, payloadContentType: string | undefined): boolean {
  if (warcType !== 'response' && warcType !== 'resource') return false;
  return uri.endsWith('.pdf') || (payloadContentType ?? '').toLowerCase().includes('application/pdf');
}

/** The URI of a converted record: `.converted` after a URI ending in `.pdf`, as Bitextor names it. */
export function convertedUri(uri: string): string {
  return uri.endsWith('.pdf') ? `${uri}.converted` : uri;
}

/** The HTTP header fields that no longer describe the new payload: it is neither chunked nor compressed. */
const DROPPED_HTTP_FIELDS = new Set(['transfer-encoding', 'content-encoding']);

/** The media type of the HTML that replaces a PDF. UTF-8 said outright, so no reader has to guess it from a short text. */
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * The HTTP header block of the converted record (latin1 text ending in its blank line): the
 * response's status line and fields in their order, Content-Type and Content-Length replaced in
 * place (added at the end when missing), Transfer-Encoding and Content-Encoding dropped. Without
 * an HTTP header (a `resource` record, or a response whose block is not HTTP) one is made:
 * `HTTP/1.1 200 OK`, so that the next step tells the converted text from a binary document.
 */
export function convertedHttpHeader(httpHeader: string | null, htmlLength: number): string {
  const lines = httpHeader === null ? [] : headerLines(httpHeader);
  const status = lines[0]?.startsWith('HTTP/') ? lines[0] : 'HTTP/1.1 200 OK';
  const fields = lines[0]?.startsWith('HTTP/') ? lines.slice(1).map(field) : [];
  const wanted = new Map([['content-type', HTML_CONTENT_TYPE], ['content-length', String(htmlLength)]]);
  const written = new Set<string>();
  const out: string[] = [status];
  for (const f of fields) {
    const lower = f.name.toLowerCase();
    if (DROPPED_HTTP_FIELDS.has(lower) || written.has(lower)) continue;
    const value = wanted.get(lower);
    if (value !== undefined) written.add(lower);
    out.push(`${f.name}: ${value ?? f.value}`);
  }
  if (!written.has('content-type')) out.push(`Content-Type: ${HTML_CONTENT_TYPE}`);
  if (!written.has('content-length')) out.push(`Content-Length: ${htmlLength}`);
  return out.join(CRLF) + CRLF + CRLF;
}

/** A new record id. */
export function recordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** A record's bytes: version line, fields, blank line, block, and the two CRLFs that end a record. */
export function serializeRecord(fields: readonly HeaderField[], block: Buffer, version = 'WARC/1.0'): Buffer {
  const head = [version, ...fields.map((f) => `${f.name}: ${f.value}`), `Content-Length: ${block.byteLength}`].join(CRLF) + CRLF + CRLF;
  return Buffer.concat([Buffer.from(head, 'latin1'), block, Buffer.from(CRLF + CRLF, 'latin1')]);
}

/** The WARC date of now: ISO 8601 in UTC to the second. */
export function warcDate(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The `response` record that replaces a PDF record: the original's WARC header (`fields`, whose
 * WARC-Date and Content-Type are kept) and HTTP header (null when it has none), and the HTML.
 */
export function convertedRecord(fields: readonly HeaderField[], httpHeader: string | null, html: string): Buffer {
  const body = Buffer.from(html, 'utf8');
  const http = Buffer.from(convertedHttpHeader(httpHeader, body.byteLength), 'latin1');
  const hadHttp = httpHeader !== null && httpHeader.startsWith('HTTP/');
  const out: HeaderField[] = [
    { name: 'WARC-Type', value: 'response' },
    { name: 'WARC-Record-ID', value: recordId() },
    { name: 'WARC-Date', value: headerValue(fields, 'WARC-Date') ?? warcDate() },
    { name: 'WARC-Target-URI', value: convertedUri(targetUri(fields)) },
    // A resource had no HTTP header and now has one: its block is an HTTP response.
    { name: 'Content-Type', value: hadHttp ? headerValue(fields, 'Content-Type') ?? 'application/http; msgtype=response' : 'application/http; msgtype=response' },
  ];
  return serializeRecord(out, Buffer.concat([http, body]));
}

/** The `warcinfo` record that opens the output: who wrote the file and in which format. */
export function warcinfoRecord(software: string, filename = ''): Buffer {
  const fields: HeaderField[] = [
    { name: 'WARC-Type', value: 'warcinfo' },
    { name: 'WARC-Record-ID', value: recordId() },
    { name: 'WARC-Date', value: warcDate() },
    ...(filename ? [{ name: 'WARC-Filename', value: filename }] : []),
    { name: 'Content-Type', value: 'application/warc-fields' },
  ];
  return serializeRecord(fields, Buffer.from(`software: ${software}${CRLF}format: WARC File Format 1.0${CRLF}`, 'latin1'));
}

/** A record as its own gzip member, so that readers can seek to a record and a damaged member loses only one. */
export function gzipMember(record: Buffer): Buffer {
  return gzipSync(record);
}
