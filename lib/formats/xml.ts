/**
 * The XML output: one document's structure (lib/formats/structure.ts) as DocBook-like markup, valid
 * against docs/pdfpipe.rng. An `article` holds `info` (the chosen metadata, then each source as
 * found, and which one was used), `note`s for what was guessed, the blocks before the first
 * section, then the `section` tree. Every block is a `para` with its id (lib/formats/ids.ts, the same as
 * in the HTML output), role, language, page and box, so a reader can find it on the page; a
 * right-to-left paragraph (Arabic, Hebrew) also has `dir="rtl"`, as its heading's `title` does.
 *
 * Everything is escaped: markup characters, and the characters XML 1.0 forbids (C0 controls other
 * than tab and line breaks, lone surrogates, U+FFFE, U+FFFF) become U+FFFD.
 */
import type { DocRecord, EndRecord, ErrorRecord, PageRecord } from '../protocol/records.js';
import type { MetaSource } from './metadata.js';
import { documentStructure, type Paragraph, type Section, type Structure } from './structure.js';

/** Characters XML 1.0 does not allow anywhere in a document. */
const INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content, escaped. */
export function escapeText(text: string): string {
  return text.replace(INVALID, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (for double quotes), escaped; tabs and line breaks kept as references. */
export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

type Attributes = Record<string, string | number | boolean | null | undefined>;

function attributes(attrs: Attributes): string {
  let out = '';
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    // A box from a hostile file may hold NaN; the schema wants a number.
    const shown = typeof value === 'number' && !Number.isFinite(value) ? 0 : value;
    out += ` ${key}="${escapeAttribute(String(shown))}"`;
  }
  return out;
}

const element = (indent: string, name: string, attrs: Attributes, text: string): string =>
  `${indent}<${name}${attributes(attrs)}>${escapeText(text)}</${name}>\n`;

function metaElements(meta: MetaSource, indent: string): string {
  let out = '';
  if (meta.title !== null) out += element(indent, 'title', {}, meta.title);
  for (const author of meta.authors) out += element(indent, 'author', {}, author);
  for (const affiliation of meta.affiliations) out += element(indent, 'affiliation', {}, affiliation);
  for (const email of meta.emails) out += element(indent, 'email', {}, email);
  if (meta.keywords.length > 0) {
    out += `${indent}<keywordset>\n`;
    for (const keyword of meta.keywords) out += element(`${indent}  `, 'keyword', {}, keyword);
    out += `${indent}</keywordset>\n`;
  }
  if (meta.abstract !== null) out += element(indent, 'abstract', {}, meta.abstract);
  return out;
}

function paragraph(p: Paragraph, indent: string): string {
  const attrs: Attributes = { id: p.id, role: p.role, page: p.page, x: p.box.x, y: p.box.y, w: p.box.w, h: p.box.h, lang: p.lang, dir: p.dir === 'rtl' ? 'rtl' : null, continues: p.continues ? 'true' : null };
  let out = `${indent}<para${attributes(attrs)}>\n`;
  if (p.keywords.length > 0) {
    out += `${indent}  <keywordset>\n`;
    for (const keyword of p.keywords) out += element(`${indent}    `, 'keyword', {}, keyword);
    out += `${indent}  </keywordset>\n`;
  }
  out += element(`${indent}  `, 'text', {}, p.text);
  if (p.row) {
    const { table, index, header, cells } = p.row;
    out += `${indent}  <row${attributes({ table, index, header: header ? 'true' : null })}>\n`;
    for (const cell of cells) out += element(`${indent}    `, 'cell', { col: cell.col, span: cell.span > 1 ? cell.span : null }, cell.text);
    out += `${indent}  </row>\n`;
  }
  return `${out}${indent}</para>\n`;
}

function section(s: Section, indent: string): string {
  let out = `${indent}<section${attributes({ id: s.id, level: s.level, from: s.from, number: s.number, page: s.page })}>\n`;
  const h = s.heading;
  const titleAttrs: Attributes = h
    ? { id: h.id, page: h.page, x: h.box.x, y: h.box.y, w: h.box.w, h: h.box.h, lang: h.lang, dir: h.dir === 'rtl' ? 'rtl' : null, more: s.more.length > 0 ? s.more.join(' ') : null }
    : { page: s.page };
  out += element(`${indent}  `, 'title', titleAttrs, s.title);
  for (const p of s.paragraphs) out += paragraph(p, `${indent}  `);
  for (const child of s.sections) out += section(child, `${indent}  `);
  return `${out}${indent}</section>\n`;
}

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The XML of one document's structure. */
export function structureXml(structure: Structure): string {
  let out = HEADER;
  out += `<article${attributes({ id: structure.id, source: structure.source, pages: structure.pages, lang: structure.lang, status: 'ok', sections: structure.sectionsFrom })}>\n`;
  out += `  <info${attributes({ from: structure.metaFrom })}>\n`;
  out += metaElements(structure.meta, '    ');
  out += `    <source name="info">\n${metaElements(structure.info, '      ')}    </source>\n`;
  out += `    <source name="xmp">\n${metaElements(structure.xmp, '      ')}    </source>\n`;
  out += `    <source name="layout">\n${metaElements(structure.layout, '      ')}    </source>\n`;
  out += '  </info>\n';
  for (const d of structure.diagnostics) out += element('  ', 'note', { code: d.code, severity: d.severity, page: d.place?.page }, d.message);
  for (const p of structure.front) out += paragraph(p, '  ');
  for (const s of structure.sections) out += section(s, '  ');
  return `${out}</article>\n`;
}

/** The XML of a document that failed: its error, so that every input still has a valid file. */
export function errorXml(doc: DocRecord | null, error: ErrorRecord): string {
  return (
    HEADER +
    `<article${attributes({ id: error.doc, source: doc?.source, status: 'error' })}>\n` +
    element('  ', 'error', { code: error.code, stage: error.stage }, error.message) +
    '</article>\n'
  );
}

/** One finished document's XML: its structure, or the error form for a failed document or one without a `doc` header. */
export function documentXml(doc: DocRecord | null, pages: readonly PageRecord[], outcome: EndRecord | ErrorRecord): string {
  return outcome.type === 'end' && doc ? structureXml(documentStructure(doc, pages)) : errorXml(doc, outcome.type === 'error' ? outcome : { type: 'error', doc: outcome.doc, code: 'bad-record', message: 'Unexpected document without a `doc` header', stage: 'serialize' });
}
