/**
 * The alignment HTML of PDFExtract, which Bitextor and other aligners read: a head with the
 * document's default language and language distribution (and the permissions with `getperms`),
 * then per page a `<div id="pageN" class="page">` holding its paragraphs as
 * `<p id="pageNpM" lang fontname data-role>`, one sentence per line (`<br />` after each with
 * `keepbrtags`). `data-role` is the block's role, which PDFExtract does not write and Bitextor's
 * parsers ignore; only the selected roles are written (lib/formats/selection.ts: by default all but
 * running headers, footers and page numbers). A paragraph that runs on across a page or column
 * break or a left-out block (`continues`) is cut at a sentence boundary: a sentence belongs to the
 * paragraph it starts in, so no sentence is split. Stretches of another language inside a
 * paragraph are `<span lang>`. A failed document is PDFExtract's error form. Everything is
 * escaped and the output is well-formed XML.
 *
 * Direction: a right-to-left paragraph (its block's `dir`, the most common direction of its lines)
 * gets `dir="rtl"` after PDFExtract's attributes, so that a browser sets it right to left and
 * aligners that read PDFExtract's attributes see them unchanged; left-to-right paragraphs get
 * nothing (left to right is HTML's default). A language span whose first strong character runs
 * the other way than its paragraph gets `dir` too ("Google Maps" in Hebrew: `dir="ltr"`), which
 * isolates it, so neutral characters at its edges stay with it.
 */
import { blockId, pageId } from './ids.js';
import type { Block, DocRecord, Outcome, PageRecord } from '../protocol/records.js';
import { LTR_STRONG, RTL_STRONG } from '../scripts/rtl.js';
import { sentences } from '../lang/sentences.js';
import { blockRuns, type PlacedBlock, type RoleOptions } from './selection.js';

/** The options the HTML writer reads: which roles it writes (lib/formats/selection.ts), and how. */
export interface HtmlOptions extends RoleOptions {
  /** Write `<br />` after every line. */
  keepbrtags: boolean;
  /** Write the permissions block in the head. */
  getperms: boolean;
}

/** Text without the characters XML cannot hold (C0 controls but tab and line ends, U+FFFE/F, lone surrogates). */
function xmlChars(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/gu, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu, '\ufffd');
}

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return xmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function cdata(text: string): string {
  // Inside CDATA nothing is escaped: only `]]>` must be split across two sections.
  return `<![CDATA[\n${xmlChars(text).replace(/]]>/g, ']]]]><![CDATA[>')}\n]]>`;
}

/**
 * The permission flags (pdf.js PermissionFlag values) each entry of PDFExtract's permissions block
 * needs, all of them, as PDFExtract's PDF library reads `P`: `canprint` is printing at full
 * quality (bits 3 and 12), `canprintdegraded` printing at all (bit 3).
 */
const PERMISSIONS: [string, number[]][] = [
  ['canassemply', [1024]],
  ['cancopy', [16]],
  ['canmodified', [8]],
  ['canmodifyannotations', [32]],
  ['canprint', [4, 2048]],
  ['canprintdegraded', [4]],
  ['canfillinform', [256]],
  ['canscreenreader', [512]],
];

function permissionsBlock(doc: DocRecord | null): string {
  const flags = doc?.meta?.permissions ?? null;
  const encrypted = Boolean(doc?.meta?.encrypted);
  const rows = PERMISSIONS.map(([name, needed]) => `<${name}>${flags === null ? true : needed.every((f) => flags.includes(f))}</${name}>`);
  return `<permission isencrypted="${encrypted}">\n${rows.join('\n')}\n</permission>\n`;
}

/** The direction of a text's first strong character, or null when it has none. */
export function firstStrong(text: string): 'ltr' | 'rtl' | null {
  for (const char of text) {
    if (RTL_STRONG.test(char)) return 'rtl';
    if (LTR_STRONG.test(char)) return 'ltr';
  }
  return null;
}

/** One text piece of a paragraph with its language spans applied, escaped, whitespace collapsed. */
function markup(block: Block, start: number, end: number): string {
  let out = '';
  let at = start;
  const own = block.dir === 'rtl' ? 'rtl' : 'ltr';
  for (const span of block.spans ?? []) {
    if (span.end <= at || span.start >= end) continue;
    const s = Math.max(span.start, at);
    const e = Math.min(span.end, end);
    out += escapeXml(block.text.slice(at, s));
    const text = block.text.slice(s, e);
    const dir = firstStrong(text);
    out += `<span lang="${escapeXml(span.lang)}"${dir && dir !== own ? ` dir="${dir}"` : ''}>${escapeXml(text)}</span>`;
    at = e;
  }
  out += escapeXml(block.text.slice(at, end));
  return out.replace(/\s+/gu, ' ').trim();
}

interface Piece {
  block: Block;
  page: number;
  /** Lines (sentences) of the paragraph, marked up. */
  lines: string[];
}

/**
 * The sentences of a run of blocks (a paragraph and those that continue it), each given to the
 * block it starts in: a block's text range in the joined run is [offset, offset + text length).
 */
function runPieces(run: readonly PlacedBlock[], lang: string): Piece[] {
  const offsets: number[] = [];
  let joined = '';
  for (const [index, { block }] of run.entries()) {
    if (index > 0) joined += block.joiner ?? ' ';
    offsets.push(joined.length);
    joined += block.text;
  }
  const pieces: Piece[] = run.map(({ block, page }) => ({ block, page, lines: [] }));
  let at = 0;
  for (const sentence of sentences(joined, lang)) {
    const start = joined.indexOf(sentence, at);
    const begin = start < 0 ? at : start;
    const end = begin + sentence.length;
    at = end;
    // The block the sentence starts in; the sentence's text may run into the following blocks.
    let owner = 0;
    for (let i = 0; i < offsets.length; i++) if (offsets[i]! <= begin) owner = i;
    const parts: string[] = [];
    for (let i = owner; i < run.length; i++) {
      const blockStart = offsets[i]!;
      const blockEnd = blockStart + run[i]!.block.text.length;
      if (blockStart >= end) break;
      const s = Math.max(begin, blockStart) - blockStart;
      const e = Math.min(end, blockEnd) - blockStart;
      if (e > s) parts.push(markup(run[i]!.block, s, e));
    }
    const line = parts.filter(Boolean).join(' ');
    if (line) pieces[owner]!.lines.push(line);
  }
  return pieces;
}

/** The alignment HTML of one document (pure). */
export function documentHtml(doc: DocRecord | null, pages: readonly PageRecord[], outcome: Outcome, options: HtmlOptions): string {
  if (outcome.type === 'error') {
    return `<html>\n<error>\n<code>${escapeXml(outcome.code)}</code>\n<message>\n${cdata(outcome.message)}\n</message>\n</error>\n</html>\n`;
  }
  const defaultLang = doc?.lang ?? 'und';
  let out = '<html>\n<head>\n';
  out += `<defaultLang abbr="${escapeXml(defaultLang)}" />\n<languages>\n`;
  for (const share of doc?.languages ?? []) {
    out += `<language abbr="${escapeXml(share.lang)}" percent="${share.percent}" rows="${share.blocks}" />\n`;
  }
  out += '</languages>\n';
  if (options.getperms) out += permissionsBlock(doc);
  out += '</head>\n<body>\n';

  // Runs of blocks joined by `continues`, in reading order across pages; only the selected roles.
  const runs = blockRuns(pages, options);
  const byPage = new Map<number, Piece[]>();
  for (const run of runs) {
    for (const piece of runPieces(run, run[0]!.block.lang ?? defaultLang)) {
      const list = byPage.get(piece.page) ?? [];
      list.push(piece);
      byPage.set(piece.page, list);
    }
  }
  const br = options.keepbrtags ? '<br />' : '';
  for (const page of pages) {
    out += `<div id="${pageId(page.page)}" class="page">\n`;
    let n = 0;
    for (const piece of byPage.get(page.page) ?? []) {
      if (piece.lines.length === 0) continue;
      const lang = piece.block.lang ?? defaultLang;
      const dir = piece.block.dir === 'rtl' ? ' dir="rtl"' : '';
      out += `<p id="${blockId(page.page, ++n)}" lang="${escapeXml(lang)}" fontname="${escapeXml(piece.block.font)}" data-role="${escapeXml(piece.block.role)}"${dir}>\n`;
      for (const line of piece.lines) out += `${line}${br}\n`;
      out += '</p>\n';
    }
    out += '</div>\n';
  }
  return out + '</body>\n</html>\n';
}
