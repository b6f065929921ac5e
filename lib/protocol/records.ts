/**
 * The record protocol: every record that flows between stages, in one place.
 *
 * A stream is NDJSON, one record per line. Each document's records are contiguous and in order:
 * one `doc` header, its `page` records in page order (interleaved with `diagnostic` records),
 * then exactly one outcome, `end` or `error`. Stages rewrite the representation they own and pass
 * every other field and record type through unchanged. See docs/records.md for examples.
 *
 * Coordinates are PDF points (1/72 in) on the page as displayed (after /Rotate), origin at the
 * top-left corner, x to the right, y downwards. A glyph run's `y` is its baseline; the run's ink
 * lies roughly between `y - size` and `y + size / 4`.
 */

/** Bumped whenever a record changes shape incompatibly. */
export const SCHEMA_VERSION = 1;

export type Direction = 'ltr' | 'rtl' | 'ttb';

/** An input document: a path on this machine, or the PDF bytes in base64. */
export interface PdfRecord {
  type: 'pdf';
  id?: string;
  path?: string;
  data?: string;
  /** Where the bytes came from when not from `path` (a WARC record's target URI); becomes the doc's `source`. */
  source?: string;
}

export interface OutlineEntry {
  title: string;
  /** 1-based page number the entry points to, or null when the destination cannot be resolved. */
  page: number | null;
  children: OutlineEntry[];
}

export interface DocMeta {
  pages: number;
  /** The Info dictionary, string values only. */
  info: Record<string, string>;
  /** The catalog's /Lang, when present. */
  lang: string | null;
  outline: OutlineEntry[];
  encrypted: boolean;
  /** Which parse engine produced the items, and how it normalised text (e.g. "pdfjs"). */
  engine: string;
  normalization: string;
  /** The XMP metadata packet's properties (`dc:title`, `dc:creator`, …), lists joined by "; ". */
  xmp?: Record<string, string>;
  /** The permission flags the PDF grants (pdf.js PermissionFlag values), or null when it sets none. */
  permissions?: number[] | null;
}

export interface DocRecord {
  type: 'doc';
  id: string;
  source: string;
  schema: number;
  meta: DocMeta;
  /** The document's primary language and language distribution, most frequent first (`langid`). */
  lang?: string;
  languages?: LanguageShare[];
}

/** An extent along a line: left edge and width, page coordinates. */
export interface Extent {
  x: number;
  w: number;
}

/** A run of glyphs as the parse engine reports it. */
export interface Item {
  text: string;
  /** Left edge and baseline, page coordinates. */
  x: number;
  y: number;
  /** Advance width along the baseline. */
  w: number;
  /** Font size in points (the em height on the page). */
  size: number;
  font: string;
  /**
   * `ttb` on an upright glyph that `order` found standing in a vertical line (CJK set top to
   * bottom; lib/layout/frames.ts), or from an engine's vertical font.
   */
  dir: Direction;
  /**
   * The direction the run's baseline reads on the page, degrees counterclockwise from left to
   * right (90: bottom to top, -90: top to bottom, 180: upside down); absent on horizontal runs.
   * `x`, `y` are then the start of its baseline and `w` its length along it.
   */
  angle?: number;
  /** Index of the layout block the item belongs to, in reading order (written by `order`). */
  block?: number;
  /** Set by `order` on running headers, footers and page numbers. */
  role?: Role;
  /**
   * In a tagged PDF: the structure type (after the /RoleMap) of the element that says what the run
   * is (`P`, `H2`, `Caption`, `TD`, `LI`, `Note`, …; lib/engines/structure.ts), or `Artifact` for
   * page furniture drawn outside the structure tree. Absent in untagged PDFs.
   */
  tag?: string;
  /**
   * What the engine inferred right after this run, never a glyph on the page: a word space or a
   * line break (PDFium's generated characters; pdf.js's end-of-line flag). Advisory: `lines`
   * measures gaps itself.
   */
  after?: 'space' | 'break';
  /**
   * The space glyph drawn on the page right after this run in the engine's order (not a space the
   * engine made up for a gap): its left edge and advance (0 when its font gives it almost none:
   * see lib/layout/lines.ts, movedSpace). A word space whatever the gaps show:
   * `lines` reads the words of sloping Nastaliq lines from it, where the runs of one word overlap
   * and words overhang each other.
   */
  space?: Extent;
  /**
   * On a right-to-left run of Arabic script: its last letter is drawn in the form that joins no
   * letter after it, though it is a letter that joins both ways (lib/engines/pdfium/forms.ts).
   * Where the next run goes on the same word, a zero-width non-joiner stands between them.
   */
  endsUnjoined?: true;
  /** Set by `order` (lib/layout/initials.ts) on a run that begins with a drop cap joined to it: the drop cap's ink box. */
  initial?: Box;
  /** Set by `order` (lib/layout/tables.ts) on a run inside a table: the cell it stands in. */
  cell?: CellPlace;
  /** `ocr` on a word read from the page's image by OCR (lib/ocr/), not from its text layer. */
  source?: 'ocr';
  /** On an OCR word: the recogniser's confidence in it, 0 to 1. */
  confidence?: number;
}

/**
 * Where a run or line stands in a table found by `order`: the table's number on its page, its
 * row and column (0-based, columns in reading order), how many columns the cell spans, and
 * whether the row is the header row.
 */
export interface CellPlace {
  table: number;
  row: number;
  col: number;
  span: number;
  header?: boolean;
}

/** One table row as a block (written by `paragraphs`): its cells as stretches of the block's text. */
export interface TableRow {
  /** The table's number on its page, and the row's (0-based). */
  table: number;
  row: number;
  header: boolean;
  /** The cells in column order: column, columns spanned, and UTF-16 offsets in the text (end exclusive). */
  cells: { col: number; span: number; start: number; end: number }[];
}

/** Something the analysis inserted between glyphs: a word space or a line break, never a glyph. */
export interface InferredMark {
  /** UTF-16 offset in the text where the inserted character stands. */
  at: number;
  kind: 'space' | 'break' | 'join';
  /** The rule that decided it (e.g. "gap", "letter-spacing", "dehyphenate"). */
  rule: string;
}

/**
 * A note's reference mark (a raised small digit or note symbol after a word), taken out of the
 * text and kept here: its label, the UTF-16 offset in the text where it stood, and, once `roles`
 * has found the notes, the index among the page's blocks of the note it points to.
 */
export interface NoteRef {
  label: string;
  at: number;
  note?: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Line {
  text: string;
  box: Box;
  /** Baseline of the line. */
  base: number;
  font: string;
  size: number;
  dir: Direction;
  block: number;
  role?: Role;
  inferred: InferredMark[];
  /** The structure tag of most of its runs' characters, when they have one. */
  tag?: string;
  /** The ink box of the drop cap that opens the line (from its first run's `initial`). */
  initial?: Box;
  /** The table cell the line stands in (from its runs' `cell`). */
  cell?: CellPlace;
  /** Reference marks taken out of the line's text (lib/layout/notemarks.ts). */
  refs?: NoteRef[];
  /** The label a note line opens with, taken out of its text when a mark on the page points to it. */
  label?: string;
}

/**
 * What a block is on its page. `paragraphs` sets body, heading, list-item and footnote; `order`
 * the furniture (header, footer, page-number); `roles` the rest, from the document's own
 * statistics (docs/records.md#roles says how each is decided).
 */
export type Role =
  | 'title'
  | 'front-matter'
  | 'abstract'
  | 'heading'
  | 'body'
  | 'list-item'
  | 'caption'
  | 'table'
  | 'formula'
  | 'footnote'
  | 'endnote'
  | 'reference'
  | 'toc'
  | 'margin-note'
  | 'header'
  | 'footer'
  | 'page-number'
  | 'other';

/**
 * An item as an engine makes it: every field parse may set is there from the start, undefined
 * where absent, in the order the records are written. V8 gives objects built alike one hidden
 * class; fields added one by one give each combination its own, and the PDFium character loop,
 * optimised for the classes it had seen, was thrown out and compiled again at every new one.
 * JSON leaves undefined fields out, so the records read the same.
 */
export function engineItem(text: string, x: number, y: number, w: number, size: number, font: string, dir: Direction, angle?: number, tag?: string): Item {
  return { text, x, y, w, size, font, dir, angle, tag, after: undefined, space: undefined, endsUnjoined: undefined };
}

/** Every role, in the order docs/records.md lists them. */
export const ROLES: readonly Role[] = [
  'title', 'front-matter', 'abstract', 'heading', 'body', 'list-item', 'caption', 'table', 'formula',
  'footnote', 'endnote', 'reference', 'toc', 'margin-note', 'header', 'footer', 'page-number', 'other',
];

/** Roles that are page furniture: dropped from text output unless asked for. */
export const FURNITURE_ROLES: ReadonlySet<Role> = new Set(['header', 'footer', 'page-number']);

export interface Block {
  text: string;
  box: Box;
  role: Role;
  font: string;
  size: number;
  /** The most common `dir` of its lines (the first line's on a tie); `rtl` blocks get `dir="rtl"` in the HTML and XML outputs. */
  dir: Direction;
  /** A heading's depth: 1 for a top-level section, 2 for its subsections, … (written by `roles`). */
  level?: number;
  /** True when this paragraph runs on from the previous page or column. */
  continues: boolean;
  lines: number;
  inferred: InferredMark[];
  /** The rule that decided `continues` when `join` re-decided it (e.g. "absolute-eof", "pdf2xml", "lm"). */
  joinRule?: string;
  /** What goes between the previous block and this one when `continues` (default: a space). */
  joiner?: string;
  /** ISO 639-1 code (639-3 where there is none) of the block's language, or "und" (written by `langid`). */
  lang?: string;
  /** Stretches of the text in another language than the block's (UTF-16 offsets, end exclusive). */
  spans?: LangSpan[];
  /** With `langid --lang xx --mark`: whether the block is in the wanted language. */
  selected?: boolean;
  /**
   * Parallel text (written by `langid`, lib/regions/parallel.ts): this block and the blocks of the
   * same `group` on the other `side` say the same thing in two languages, side by side on the page
   * (two columns, or the cells of a table row). `group` is unique within the document; side `a` is
   * the left one, whatever the direction of its script.
   */
  parallel?: { group: number; side: 'a' | 'b' };
  /** The structure tag of most of its lines' characters, when they have one (written by `paragraphs`). */
  tag?: string;
  /** A table row (role `table`): its place in the table and its cells (written by `paragraphs`). */
  table?: TableRow;
  /** Reference marks taken out of the text (from its lines; `note` set by `roles`). */
  refs?: NoteRef[];
  /** A note's label, taken out of its text (from its first line). */
  label?: string;
}

/** A stretch of a block's text in another language, e.g. Latin-script names inside Arabic text. */
export interface LangSpan {
  start: number;
  end: number;
  lang: string;
}

/** One language's share of a document's text (written by `langid` on the `doc` record). */
export interface LanguageShare {
  lang: string;
  /** Percent of the document's characters in body text, 0–100. */
  percent: number;
  /** Number of blocks in this language, or with a span in it. */
  blocks: number;
}

export interface PageRecord {
  type: 'page';
  doc: string;
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  items?: Item[];
  lines?: Line[];
  blocks?: Block[];
}

export interface EndRecord {
  type: 'end';
  doc: string;
  stats: { pages: number; items: number; chars: number; ms: number };
}

export type ErrorCode =
  | 'not-a-pdf'
  | 'password-required'
  | 'corrupt'
  | 'timeout'
  | 'out-of-memory'
  | 'worker-crashed'
  | 'not-found'
  | 'unreadable'
  | 'bad-record'
  | 'bad-json'
  | 'schema-mismatch'
  | 'stage-failed'
  | 'truncated'
  | 'write-failed';

export interface ErrorRecord {
  type: 'error';
  doc: string;
  code: ErrorCode;
  message: string;
  stage: string;
  /** Where it happened: an input line number, a page. */
  place?: { line?: number; page?: number };
}

export interface DiagnosticRecord {
  type: 'diagnostic';
  doc: string | null;
  severity: 'warning' | 'info';
  stage: string;
  code: string;
  message: string;
  place?: { line?: number; page?: number };
  count?: number;
}

export type PipeRecord =
  | PdfRecord
  | DocRecord
  | PageRecord
  | EndRecord
  | ErrorRecord
  | DiagnosticRecord;

/** Records that end a document. */
export type Outcome = EndRecord | ErrorRecord;

export function isOutcome(record: PipeRecord): record is Outcome {
  return record.type === 'end' || record.type === 'error';
}

/** Builds an error record; keys always in the same order. */
export function errorRecord(
  doc: string,
  stage: string,
  code: ErrorCode,
  message: string,
  place?: ErrorRecord['place'],
): ErrorRecord {
  const record: ErrorRecord = { type: 'error', doc, code, message, stage };
  if (place) record.place = place;
  return record;
}

/** Builds a diagnostic record. */
export function diagnostic(
  doc: string | null,
  stage: string,
  code: string,
  message: string,
  extra: { place?: DiagnosticRecord['place']; count?: number; severity?: 'warning' | 'info' } = {},
): DiagnosticRecord {
  const record: DiagnosticRecord = {
    type: 'diagnostic',
    doc,
    severity: extra.severity ?? 'warning',
    stage,
    code,
    message,
  };
  if (extra.place) record.place = extra.place;
  if (extra.count !== undefined) record.count = extra.count;
  return record;
}

const KNOWN_TYPES = new Set(['pdf', 'doc', 'page', 'end', 'error', 'diagnostic']);

/**
 * Checks a parsed JSON value against the protocol's required fields.
 * Returns a message saying what is wrong ("Unexpected X, expected Y"), or null when it is valid.
 * Only the fields every stage relies on are checked; representations are checked by their owners.
 */
export function validateRecord(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `Unexpected ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, expected a record object`;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.type !== 'string') return 'Unexpected record without `type`';
  if (!KNOWN_TYPES.has(record.type)) {
    return `Unexpected record type "${record.type}", expected one of ${[...KNOWN_TYPES].join(', ')}`;
  }
  switch (record.type) {
    case 'pdf':
      if (typeof record.path !== 'string' && typeof record.data !== 'string') {
        return 'Unexpected `pdf` record without `path` or `data`';
      }
      return null;
    case 'doc':
      if (typeof record.id !== 'string') return 'Unexpected `doc` record without string `id`';
      if (record.schema !== SCHEMA_VERSION) {
        return `Unexpected schema version ${JSON.stringify(record.schema)}, expected ${SCHEMA_VERSION}`;
      }
      if (typeof record.meta !== 'object' || record.meta === null) {
        return 'Unexpected `doc` record without `meta`';
      }
      return null;
    case 'page':
      if (typeof record.doc !== 'string') return 'Unexpected `page` record without string `doc`';
      if (typeof record.page !== 'number') return 'Unexpected `page` record without number `page`';
      if (typeof record.width !== 'number' || typeof record.height !== 'number') {
        return 'Unexpected `page` record without `width` and `height`';
      }
      for (const key of ['items', 'lines', 'blocks'] as const) {
        const list = record[key];
        if (list === undefined) continue;
        if (!Array.isArray(list)) return `Unexpected \`${key}\` that is not an array`;
        // Every stage reads the text of what it is given: an entry without string text is refused here.
        const bad = list.findIndex((entry: unknown) => typeof entry !== 'object' || entry === null || typeof (entry as { text?: unknown }).text !== 'string');
        if (bad !== -1) return `Unexpected \`${key}[${bad}]\` that is not an object with string \`text\``;
      }
      return null;
    case 'end':
    case 'error':
      if (typeof record.doc !== 'string') {
        return `Unexpected \`${record.type}\` record without string \`doc\``;
      }
      return null;
    default:
      return null;
  }
}
