/**
 * The pdf.js engine: PDF bytes in, engine-neutral records out.
 *
 * pdf.js runs with eval disabled, no font faces, no system fonts and no network; cMaps and the
 * standard fonts come from the package's own folders. Pages are yielded one at a time and cleaned
 * up, so memory is bounded by a page. Text items keep pdf.js's run splitting; whitespace-only runs
 * are dropped because the line stage measures gaps itself.
 */
import { PageObjects, pageRange, repeatedPageMessage, type OpenOptions } from './open.js';
import bidiModule, { type Bidi } from 'bidi-js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DiagnosticRecord, DocMeta, DocRecord, Direction, Item, OutlineEntry, PageRecord } from '../protocol/records.js';
import { diagnostic, SCHEMA_VERSION } from '../protocol/records.js';
import { keepStrayFailures } from './stray-failures.js';
import { keepingBuiltins } from './builtins.js';
import { importWithoutCanvas } from './pdfjs-canvas.js';
import { activate, BUDGET_GLOBAL, DecodeBudget } from './decode-budget.js';
import { EngineError } from './errors.js';
import { angleOf } from '../layout/frames.js';
import { pdfjsTags, type PdfjsStructNode } from './structure.js';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = dirname(require.resolve('pdfjs-dist/package.json'));
const CMAP_DIR = join(PDFJS_ROOT, 'cmaps') + '/';
const STANDARD_FONT_DIR = join(PDFJS_ROOT, 'standard_fonts') + '/';

export interface PdfjsOptions extends OpenOptions {
  /** Apply pdf.js's normalisation of ligatures, presentation forms and spaces (NFKC on a curated set). */
  normalize: boolean;
  /** The memory limit in MiB: what the document's streams may decode is budgeted from it (decode-budget.ts). */
  memory: number;
}

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/*
 * Two changes to pdf.js's worker code, each applied only when its anchor is found (another pdf.js
 * version runs unmodified and the doc record's `meta.engine` says which changes are in force):
 *
 * split-runs: pdf.js fills gaps between glyphs of 0.1–0.6 em with a space inside one text run, and
 * the glyph positions are lost: a letter-spaced "D e c l a r a t i o n o f" cannot then be told
 * from its word gaps. With that branch turned off, every gap wider than 0.1 em ends the run and the
 * line stage measures the gaps itself.
 *
 * actual-text: a marked-content span's /ActualText is the text its glyphs stand for. Generators
 * use it where glyphs do not map to characters one to one: Chromium and others shape Devanagari,
 * Bengali or Tamil so that a vowel sign drawn before its consonant has no Unicode of its own (its
 * ToUnicode entry is U+0000) and the span carries the true text. pdf.js reports marked content but
 * drops the property; we pass it on and replace the span's glyph runs with it (spanText below).
 */
const IN_FLOW_SPACE_BRANCH =
  'if (textOrientation * textContentItem.spaceInFlowMin <= width && width <= textOrientation * textContentItem.spaceInFlowMax) {';
const MARKED_CONTENT_PROPS_ITEM = 'type: "beginMarkedContentProps",';
const WITH_ACTUAL_TEXT =
  'type: "beginMarkedContentProps", actualText: args[1] instanceof Dict && typeof args[1].get("ActualText") === "string" ? stringToPDFString(args[1].get("ActualText")) : null,';
const workerChanges: string[] = [];

/*
 * decode-budget: a decoded stream grows its buffer in DecodeStream.ensureBuffer, or (Flate and
 * Brotli through the platform's DecompressionStream) gathers chunks in
 * asyncGetBytesFromDecompressionStream; at both places the budget of lib/engines/decode-budget.ts
 * is asked first, so a Flate bomb stops at the memory limit instead of filling the machine. The
 * CFF compiler's output (CFFCompiler.compile) and the dictionaries its parser reads
 * (CFFParser.parseDict) ask it too, bounded by the font program's length,
 * and so does each range a CMap maps (CMap.mapBfRange and its kin), bounded per CMap.
 */
const BUDGET_PATCHES: readonly (readonly [string, string])[] = [
  ['    const buffer2 = new Uint8Array(size);\n', `    globalThis.${BUDGET_GLOBAL}?.grow(buffer.byteLength, size);\n`],
  ['        totalLength += chunk.byteLength;\n', `        globalThis.${BUDGET_GLOBAL}?.grow(totalLength, totalLength + chunk.byteLength);\n`],
  // The CFF parser notes its program's length; the compiler asks the budget before it writes an
  // index (whose entries may overlap in a damaged program) and as its output grows; the parser
  // asks it before each dictionary it reads.
  ['    const header = this.parseHeader();\n', '    cff.programLength = this.bytes.length;\n'],
  // The parser counts the bytes of the dictionaries it reads (the top, font and private ones),
  // which in a damaged program may all be the whole program, once per font dictionary.
  ['    let pos = 0;\n    function parseOperand() {\n', `    if (this.cff?.programLength !== undefined) this.cff.dictBytes = globalThis.${BUDGET_GLOBAL}?.readFontDicts(this.cff.programLength, this.cff.dictBytes ?? 0, dict.length);\n`],
  ['    let offsetSize;\n', `    if (this.cff.programLength !== undefined) globalThis.${BUDGET_GLOBAL}?.rewriteFont(this.cff.programLength, lastOffset);\n`],
  ['        try {\n          this.data.push(...data);\n', `        if (cff.programLength !== undefined) globalThis.${BUDGET_GLOBAL}?.rewriteFont(cff.programLength, this.length + data.length);\n`],
  // A CMap counts the codes its ranges map (pdf.js skips a range that throws and reads on).
  ...['mapCidRange', 'mapBfRange', 'mapBfRangeToArray'].map((method): [string, string] => [
    `    if (high - low > MAX_MAP_RANGE) {\n      throw new Error("${method} - ignoring data above MAX_MAP_RANGE.");\n`,
    `    this.mappedCodes = globalThis.${BUDGET_GLOBAL}?.mapCodes(this.mappedCodes ?? 0, high - low + 1);\n`,
  ]),
];

/*
 * empty-owner-password: the standard security handler authenticates a password as user password
 * or as owner password (ISO 32000-2, 7.6.4.4, Algorithms 6 and 7, 11 and 12 for AES-256), and a
 * reader without a password has the empty one. When the owner password is empty, the empty
 * password opens the document: poppler, qpdf and Ghostscript read such a file without a password.
 * Some writers make one for a document meant to need its user password (Bluebeam's PDF library:
 * pdf.js's own test file pr6531_2.pdf, whose user password is asdfasdf). pdf.js tries a password
 * as owner password only when one is given, at every revision (so does PDFium, which cannot be
 * patched: `--engine auto` hands the document PDFium refused to pdf.js). With these changes the
 * empty password is tried as owner password too, after failing as user password, and the
 * document's OpenReport says when it opened the document, which becomes an `empty-owner-password`
 * warning. A password that was given is never replaced: when it fails as user and as owner
 * password, the document stays closed, as it does in poppler and qpdf.
 *
 * R5 and R6 (AES-256): #createEncryptionKey20's owner check goes without `password.length`.
 * R2–R4: the user password is recovered from /O with the empty owner password, as it is with a
 * given one, instead of giving up for want of a password.
 */
const OPEN_REPORT_GLOBAL = 'pdfpipeOpenReport';
const EMPTY_OWNER_PASSWORD_PATCHES: readonly (readonly [string, string])[] = [
  [
    '    } else if (password.length && pdfAlgorithm.checkOwnerPassword(password, ownerValidationSalt, uBytes, ownerPassword)) {\n',
    '    } else if (pdfAlgorithm.checkOwnerPassword(password, ownerValidationSalt, uBytes, ownerPassword)) {\n' +
      `      if (!password.length && globalThis.${OPEN_REPORT_GLOBAL}) globalThis.${OPEN_REPORT_GLOBAL}.emptyOwnerPassword = true;\n`,
  ],
  [
    '      if (!password) {\n' +
      '        throw new PasswordException("No password given", PasswordResponses.NEED_PASSWORD);\n' +
      '      }\n' +
      '      const decodedPassword = this.#decodeUserPassword(passwordBytes, ownerPassword, revision, keyLength);\n' +
      '      encryptionKey = this.#prepareKeyData(fileIdBytes, decodedPassword, ownerPassword, userPassword, flags, revision, keyLength, encryptMetadata);\n',
    '      const decodedPassword = this.#decodeUserPassword(passwordBytes ?? new Uint8Array(0), ownerPassword, revision, keyLength);\n' +
      '      encryptionKey = this.#prepareKeyData(fileIdBytes, decodedPassword, ownerPassword, userPassword, flags, revision, keyLength, encryptMetadata);\n' +
      '      if (!password && !encryptionKey) {\n' +
      '        throw new PasswordException("No password given", PasswordResponses.NEED_PASSWORD);\n' +
      '      }\n' +
      `      if (!password && globalThis.${OPEN_REPORT_GLOBAL}) globalThis.${OPEN_REPORT_GLOBAL}.emptyOwnerPassword = true;\n`,
  ],
];

/** How the patched worker opened the current document (see empty-owner-password above). */
interface OpenReport {
  /** No password was given, the empty one is not the user password, and the empty owner password opened it. */
  emptyOwnerPassword: boolean;
}

/** The diagnostic of a document the empty owner password opened. */
const EMPTY_OWNER_PASSWORD_MESSAGE =
  'The PDF is encrypted with a user password, and its owner password is empty: it was opened with the empty owner password, as poppler and qpdf open it';

/*
 * pdf.js also reorders each run on its own with a simplified BiDi pass and deletes `<` and `>` from
 * runs that hold right-to-left characters. A line is often several runs, so that pass cannot give the
 * line's reading order, and what it deleted cannot be restored. We keep each run's text in the order
 * its glyphs are drawn (for right-to-left scripts that is visual order, left to right on the page),
 * still with pdf.js's `dir`, and leave the reordering to the `bidi` stage, which sees whole lines.
 * The doc record's `meta.engine` says `glyph-order` when this is in effect.
 */
const PER_RUN_BIDI = 'const bidiResult = bidi(text, -1, textChunk.vertical);';

/*
 * whole-glyph-category: pdf.js classes a glyph as whitespace, a zero-width mark or an invisible
 * format character with `/^(\s)|(\p{Mn})|(\p{Cf})$/u`, whose `^` and `$` bind only the first and
 * last alternative. A glyph whose text merely contains a nonspacing mark then counts as a mark: an
 * Indic conjunct such as श्व (one glyph for श, virama, व) or a syllable with its vowel sign gets no
 * advance, and every glyph after it in the run sits too far left: in LibreOffice's Hindi a line's
 * words drift up to 30 pt from where they are drawn, leaving a false gap before the next run.
 * Grouping the alternatives classes a glyph by all of its text.
 */
const GLYPH_CATEGORY_PATTERN = String.raw`new RegExp("^(\\s)|(\\p{Mn})|(\\p{Cf})$", "u")`;
const WHOLE_GLYPH_CATEGORY_PATTERN = String.raw`new RegExp("^(?:(\\s+)|(\\p{Mn}+)|(\\p{Cf}+))$", "u")`;

let pdfjsPromise: Promise<PdfjsModule> | null = null;
async function loadPatchedWorker(): Promise<void> {
  let source = readFileSync(join(PDFJS_ROOT, 'legacy/build/pdf.worker.mjs'), 'utf8');
  const changes: string[] = [];
  let unlisted = false;
  if (source.includes(IN_FLOW_SPACE_BRANCH)) {
    source = source.replace(IN_FLOW_SPACE_BRANCH, 'if (false) {');
    changes.push('split-runs');
  }
  if (source.split(MARKED_CONTENT_PROPS_ITEM).length === 2) {
    source = source.replace(MARKED_CONTENT_PROPS_ITEM, WITH_ACTUAL_TEXT);
    changes.push('actual-text');
  }
  if (source.includes(PER_RUN_BIDI)) {
    source = source.replace(PER_RUN_BIDI, 'const bidiResult = { str: text, dir: bidi(text, -1, textChunk.vertical).dir };');
    changes.push('glyph-order');
  }
  if (source.includes(GLYPH_CATEGORY_PATTERN)) {
    source = source.replace(GLYPH_CATEGORY_PATTERN, WHOLE_GLYPH_CATEGORY_PATTERN);
    changes.push('whole-glyph-category');
  }
  // Not listed in meta.engine: it changes no text, only where reading stops.
  for (const [anchor, check] of BUDGET_PATCHES) {
    if (source.split(anchor).length !== 2) continue;
    source = source.replace(anchor, check + anchor);
    unlisted = true;
  }
  // Not listed either: it changes which documents open, and the one it opens says so in a diagnostic.
  for (const [anchor, replacement] of EMPTY_OWNER_PASSWORD_PATCHES) {
    if (source.split(anchor).length !== 2) continue;
    source = source.replace(anchor, replacement);
    unlisted = true;
  }
  if (changes.length === 0 && !unlisted) return;
  // The source-map comment must go: relative to a data: URL it is an invalid URL, and with source
  // maps enabled (node --enable-source-maps, NODE_OPTIONS) Node throws on it and the import fails.
  const patched = source.replace(/^\/\/# sourceMappingURL=.*$/gm, '');
  const url = `data:text/javascript;base64,${Buffer.from(patched).toString('base64')}`;
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(url);
  workerChanges.push(...changes);
}
/** pdf.js, loaded once; its core-js must not replace the built-ins the thread runs on (builtins.ts). */
const loadPdfjs = (): Promise<PdfjsModule> => (pdfjsPromise ??= keepingBuiltins(() => loadPatchedWorker().then(importWithoutCanvas)));

/** Loads pdf.js ahead of the first document, so that a worker's start-up is not charged to it. */
export async function preloadEngine(): Promise<void> {
  await loadPdfjs();
}

interface TextItemLike {
  str: string;
  hasEOL?: boolean;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
}

function multiply(m: number[], n: number[]): number[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
  const [p = 0, q = 0, r = 0, s = 0, t = 0, u = 0] = n;
  return [a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f];
}

const round = (v: number): number => Math.round(v * 100) / 100;

/**
 * pdf.js names fonts `g_d<N>_f<M>`, N counting the documents its worker has loaded: the same PDF
 * would get other names in a worker that read other documents first. Without that prefix the name
 * depends on the document alone, so output does not change with --jobs, a restart or a split run.
 */
export function stableFontName(name: string): string {
  return name.replace(/^g_d\d+_/, '');
}

/** Maps pdf.js's text item to an item in page coordinates (see lib/protocol/records.ts). */
export function toItem(raw: TextItemLike, viewportTransform: number[], fontFamily: string, keepNul = false): Item | null {
  // U+0000 is what a ToUnicode map gives a glyph that stands for no character of its own (a shaped
  // vowel sign, a ligature part): never text, though inside an ActualText span its position counts.
  const text = raw.str.includes('\0') && !keepNul ? raw.str.replaceAll('\0', '') : raw.str;
  if (text.trim() === '') return null;
  const m = multiply(viewportTransform, raw.transform);
  const size = Math.hypot(m[2] ?? 0, m[3] ?? 0);
  const dir: Direction = raw.dir === 'rtl' ? 'rtl' : raw.dir === 'ttb' ? 'ttb' : 'ltr';
  const item: Item = {
    text,
    x: round(m[4] ?? 0),
    y: round(m[5] ?? 0),
    w: round(Math.abs(raw.width)),
    size: round(size),
    font: fontFamily ? `${stableFontName(raw.fontName)}:${fontFamily}` : stableFontName(raw.fontName),
    dir,
  };
  // The baseline's direction on the page, as the PDFium engine gives it: horizontal within a tenth.
  const dx = m[0] ?? 1;
  const dy = m[1] ?? 0;
  if (!(dx > 0 && Math.abs(dy) <= 0.1 * dx)) item.angle = angleOf(dx, dy);
  return item;
}

/** A marked-content boundary as the patched worker reports it (see actual-text above). */
interface MarkedContentLike {
  type: string;
  actualText?: string | null;
  /** The marked-content id (`p12R_mc3`) when the sequence has an MCID, and its tag (`P`, `Artifact`). */
  id?: string | null;
  tag?: string;
}

/**
 * Items from pdf.js's text content, in content order. The glyph runs inside a marked-content span
 * with /ActualText become one item carrying that text over the runs' extent (outermost span wins;
 * an empty ActualText means the glyphs stand for nothing). A span whose runs sit on different
 * baselines keeps its runs: one position cannot stand for two lines.
 *
 * `tags` (a tagged PDF's marked-content ids → structure tags, lib/engines/structure.ts): each item
 * gets the `tag` of the innermost marked content around it that the tree knows, or `Artifact`.
 */
export function itemsWithActualText(
  entries: Iterable<TextItemLike | MarkedContentLike>,
  convert: (raw: TextItemLike, insideSpan: boolean) => Item | null,
  tags?: ReadonlyMap<string, string>,
): Item[] {
  const items: Item[] = [];
  let depth = 0;
  let span: { text: string; depth: number; runs: Item[] } | null = null;
  // The tag in force at each marked-content depth (index 0: outside any).
  const tagAt: (string | undefined)[] = [undefined];
  for (const entry of entries) {
    if ('str' in entry) {
      const item = convert(entry, span !== null);
      const tag = tagAt[tagAt.length - 1];
      if (item && tag !== undefined) item.tag = tag;
      const target = span ? span.runs : items;
      if (item) target.push(item);
      // An end-of-line flag, or a whitespace-only run pdf.js made up for a wide gap, is kept as
      // the `after` mark of the run before it.
      const last = target[target.length - 1];
      if (last && entry.hasEOL) last.after = 'break';
      else if (last && !item && entry.str !== '' && last.after === undefined) last.after = 'space';
    } else if (entry.type === 'beginMarkedContent' || entry.type === 'beginMarkedContentProps') {
      depth++;
      if (!span && typeof entry.actualText === 'string') span = { text: entry.actualText, depth, runs: [] };
      if (tags) tagAt.push(entry.tag === 'Artifact' ? 'Artifact' : ((entry.id ? tags.get(entry.id) : undefined) ?? tagAt[tagAt.length - 1]));
    } else if (entry.type === 'endMarkedContent') {
      if (tagAt.length > 1) tagAt.pop();
      if (span && span.depth === depth) {
        items.push(...spanItems(span.text, span.runs));
        span = null;
      }
      depth = Math.max(0, depth - 1);
    }
  }
  if (span) items.push(...withoutNul(span.runs));
  return items;
}

function withoutNul(runs: Item[]): Item[] {
  return runs.map((run) => ({ ...run, text: run.text.replaceAll('\0', '') })).filter((run) => run.text.trim() !== '');
}

function spanItems(actualText: string, runs: Item[]): Item[] {
  const first = runs[0];
  if (!first) return [];
  if (runs.some((run) => Math.abs(run.y - first.y) > 0.5 * first.size)) return withoutNul(runs);
  const text = actualText.replaceAll('\0', '').trim();
  if (text === '') return [];
  const left = Math.min(...runs.map((run) => run.x));
  const right = Math.max(...runs.map((run) => run.x + run.w));
  const merged: Item = { text, x: left, y: first.y, w: round(right - left), size: first.size, font: first.font, dir: first.dir };
  if (first.tag !== undefined) merged.tag = first.tag;
  const after = runs[runs.length - 1]?.after;
  if (after) merged.after = after;
  return [merged];
}

// bidi-js is a CommonJS module whose export is the factory; its typings declare it as an ES default.
const uba = (bidiModule as unknown as () => Bidi)();
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]/u;

/** The fields of a pdf.js annotation that can carry visible text. */
interface AnnotationLike {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  textContent?: unknown;
  rect?: number[];
  hidden?: boolean;
  noView?: boolean;
}

/**
 * Text shown by annotations, which the page's content stream does not hold: free-text notes
 * (their appearance's lines) and filled-in form fields (a text field's value, a choice field's
 * selection). One item per line of text, stacked from the top of the annotation's rectangle.
 */
export function annotationItems(annotations: readonly AnnotationLike[], toPage: (rect: number[]) => number[]): Item[] {
  const items: Item[] = [];
  for (const annotation of annotations) {
    if (annotation.hidden || annotation.noView || !Array.isArray(annotation.rect) || annotation.rect.length !== 4) continue;
    let lines: string[] = [];
    if (annotation.subtype === 'FreeText' && Array.isArray(annotation.textContent)) lines = annotation.textContent.filter((l): l is string => typeof l === 'string');
    else if (annotation.subtype === 'Widget' && annotation.fieldType === 'Tx' && typeof annotation.fieldValue === 'string') lines = annotation.fieldValue.split(/\r\n|\r|\n/u);
    else if (annotation.subtype === 'Widget' && annotation.fieldType === 'Ch') {
      const value = annotation.fieldValue;
      lines = (Array.isArray(value) ? value : [value]).filter((l): l is string => typeof l === 'string');
    }
    lines = lines.map((l) => l.replaceAll('\0', '').trim()).filter((l) => l !== '');
    if (lines.length === 0) continue;
    const [a = 0, b = 0, c = 0, d = 0] = toPage(annotation.rect);
    const left = Math.min(a, c);
    const top = Math.min(b, d);
    const width = Math.abs(c - a);
    // The font size is not known here: a line's share of the box height, at most 12 pt.
    const size = Math.max(1, Math.min(12, Math.abs(d - b) / lines.length));
    lines.forEach((logical, k) => {
      // Annotation text is stored in logical order; runs from the content stream, and so the
      // lines and bidi stages, hold right-to-left text in drawing (visual) order.
      const rtl = RIGHT_TO_LEFT.test(logical);
      const text = rtl ? uba.getReorderedString(logical, uba.getEmbeddingLevels(logical)) : logical;
      items.push({ text, x: round(left), y: round(top + (k + 0.8) * size), w: round(Math.min(width, [...text].length * 0.5 * size)), size: round(size), font: 'annotation', dir: rtl ? 'rtl' : 'ltr' });
    });
  }
  return items;
}

function classify(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const name = (error as { name?: string })?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return new EngineError('password-required', `The PDF is encrypted and needs a password (${message})`);
  if (name === 'InvalidPDFException') {
    return new EngineError('corrupt', `The PDF structure is invalid: ${message}`);
  }
  // A parser that recurses per nesting level runs out of stack on an object nested thousands deep.
  if (/Maximum call stack size exceeded/u.test(message)) {
    return new EngineError('corrupt', `The PDF nests its objects too deeply to be read (the parser ran out of stack: ${message})`);
  }
  return new EngineError('corrupt', `The PDF could not be read: ${message}`);
}

async function readOutline(doc: import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy): Promise<OutlineEntry[]> {
  const raw = await doc.getOutline().catch(() => null);
  if (!raw) return [];
  const seen = new Set<unknown>();
  const convert = async (nodes: typeof raw, depth: number): Promise<OutlineEntry[]> => {
    const out: OutlineEntry[] = [];
    // Outlines can loop or nest absurdly deep in hostile files.
    if (depth > 32) return out;
    for (const node of nodes) {
      if (seen.has(node)) continue;
      seen.add(node);
      let page: number | null = null;
      try {
        const dest = typeof node.dest === 'string' ? await doc.getDestination(node.dest) : node.dest;
        const ref = Array.isArray(dest) ? dest[0] : null;
        if (ref && typeof ref === 'object') page = (await doc.getPageIndex(ref as never)) + 1;
        else if (typeof ref === 'number') page = ref + 1;
      } catch {
        page = null;
      }
      out.push({ title: String(node.title ?? ''), page, children: await convert(node.items ?? [], depth + 1) });
    }
    return out;
  };
  return convert(raw, 0);
}

function stringInfo(info: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (info && typeof info === 'object') {
    for (const [key, value] of Object.entries(info)) {
      if (typeof value === 'string') out[key] = value;
    }
  }
  return out;
}

/** The XMP packet's properties as strings (pdf.js parses the packet; lists are joined by "; "). */
function xmpProperties(xmp: Iterable<[string, unknown]> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    for (const [key, value] of xmp ?? []) {
      if (typeof value === 'string') out[key] = value;
      else if (Array.isArray(value)) out[key] = value.filter((v) => typeof v === 'string').join('; ');
    }
  } catch {
    // A malformed packet is no metadata.
  }
  return out;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** How far into a file readers look for its header, and from its end for its cross-reference pointer. */
const HEADER_WINDOW = 1024;
/** An indirect object's opening (`12 0 obj`). */
const INDIRECT_OBJECT = /\d+\s+\d+\s+obj\b/;
/** What ends a PDF: the pointer to its cross-reference section, a trailer, the end-of-file mark. */
const PDF_TAIL = /startxref|trailer|%%EOF/;

/**
 * True when the bytes look like a PDF: the header may sit anywhere in the first KiB. A writer
 * that left the header out still wrote a PDF when the first KiB opens an indirect object and the
 * last KiB ends the file as PDFs end; pdf.js and poppler read those (PDFium does not, and
 * `--engine auto` hands them to pdf.js).
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = buffer.subarray(0, HEADER_WINDOW);
  if (head.indexOf(PDF_MAGIC) !== -1) return true;
  return INDIRECT_OBJECT.test(head.toString('latin1')) && PDF_TAIL.test(buffer.subarray(Math.max(0, buffer.length - HEADER_WINDOW)).toString('latin1'));
}

/**
 * Yields the `doc` record, then one `page` record per page. Throws EngineError on failure; the
 * caller turns it into the document's `error` record.
 */
export async function* extractRecords(
  bytes: Uint8Array,
  id: string,
  source: string,
  options: PdfjsOptions,
): AsyncGenerator<DocRecord | PageRecord | DiagnosticRecord> {
  if (bytes.byteLength === 0) throw new EngineError('not-a-pdf', 'The file is empty');
  if (!looksLikePdf(bytes)) throw new EngineError('not-a-pdf', 'No %PDF- header in the first 1024 bytes: this is not a PDF');
  const pdfjs = await loadPdfjs();
  const budget = new DecodeBudget(options.memory);
  activate(budget);
  const stray = keepStrayFailures();
  try {
    yield* readDocument(pdfjs, bytes, id, source, options, budget);
    // A failure on the side surfaces a turn of the event loop after its cause.
    await new Promise((resolve) => setImmediate(resolve));
    for (const failure of stray.failures) {
      yield diagnostic(id, 'parse', 'engine-error', `pdf.js failed on a part of the document it reads aside from its pages (${failure}); the pages read are kept`, { severity: 'warning' });
    }
  } finally {
    stray.release();
  }
}

/** The records of one document as pdf.js reads it (see extractRecords). */
async function* readDocument(
  pdfjs: PdfjsModule,
  bytes: Uint8Array,
  id: string,
  source: string,
  options: PdfjsOptions,
  budget: DecodeBudget,
): AsyncGenerator<DocRecord | PageRecord | DiagnosticRecord> {
  const opened: OpenReport = { emptyOwnerPassword: false };
  (globalThis as Record<string, unknown>)[OPEN_REPORT_GLOBAL] = opened;
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    isOffscreenCanvasSupported: false,
    cMapUrl: CMAP_DIR,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_DIR,
    verbosity: 0,
    stopAtErrors: false,
    ...(options.password ? { password: options.password } : {}),
  });
  // pdf.js asks for a password through a callback; answering with an error ends the load cleanly.
  task.onPassword = () => {
    void task.destroy();
  };
  let doc: import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    budget.check();
    const message = error instanceof Error ? error.message : String(error);
    if (/destroyed|password/i.test(message) || (error as { name?: string })?.name === 'PasswordException') {
      throw new EngineError('password-required', options.password ? 'The PDF is encrypted, and the password given does not open it' : 'The PDF is encrypted with a user password (give it with --password)');
    }
    throw classify(error);
  }
  try {
    const metadata = await doc.getMetadata().catch(() => null);
    let lang: string | null = null;
    const info = stringInfo(metadata?.info);
    if (typeof (metadata?.info as Record<string, unknown> | undefined)?.Language === 'string') {
      lang = (metadata?.info as Record<string, string>).Language ?? null;
    }
    const meta: DocMeta = {
      pages: doc.numPages,
      info,
      lang,
      outline: await readOutline(doc),
      encrypted: Boolean((metadata?.info as Record<string, unknown> | undefined)?.EncryptFilterName),
      engine: ['pdfjs', pdfjs.version, ...workerChanges].join(' '),
      normalization: options.normalize ? 'pdfjs-nfkc-subset' : 'none',
      xmp: xmpProperties(metadata?.metadata),
      permissions: await doc.getPermissions().catch(() => null),
    };
    yield { type: 'doc', id, source, schema: SCHEMA_VERSION, meta };
    if (opened.emptyOwnerPassword) yield diagnostic(id, 'parse', 'empty-owner-password', EMPTY_OWNER_PASSWORD_MESSAGE);
    // A tagged PDF's structure tree gives each run its `tag`; an untagged one is not read.
    const tagged = (await doc.getMarkInfo().catch(() => null))?.Marked === true;
    const range = pageRange(doc.numPages, options);
    const pageObjects = new PageObjects();
    let repeats = 0;
    for (let n = range.first; n <= range.last; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const firstShown = pageObjects.seenBefore(page.ref ? `${page.ref.num} ${page.ref.gen}` : null, n);
      if (firstShown !== undefined) {
        page.cleanup();
        yield { type: 'page', doc: id, page: n, width: round(viewport.width), height: round(viewport.height), items: [] };
        if (repeats++ === 0) yield diagnostic(id, 'parse', 'page-repeated', repeatedPageMessage(n, firstShown), { place: { page: n } });
        continue;
      }
      const content = await page.getTextContent({ disableNormalization: !options.normalize, includeMarkedContent: true });
      const tags = tagged ? pdfjsTags((await page.getStructTree().catch(() => null)) as PdfjsStructNode | null) : undefined;
      const items = itemsWithActualText(
        content.items as Iterable<TextItemLike | MarkedContentLike>,
        (raw, insideSpan) => toItem(raw, viewport.transform, content.styles[raw.fontName]?.fontFamily ?? '', insideSpan),
        tags,
      );
      const annotations = await page.getAnnotations({ intent: 'display' }).catch(() => []);
      items.push(...annotationItems(annotations as AnnotationLike[], (rect) => viewport.convertToViewportRectangle(rect)));
      page.cleanup();
      budget.check();
      yield { type: 'page', doc: id, page: n, width: round(viewport.width), height: round(viewport.height), items };
    }
  } catch (error) {
    budget.check();
    throw classify(error);
  } finally {
    await doc.destroy();
  }
}
