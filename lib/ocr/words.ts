/**
 * Tesseract's words as the engines' items: one item per recognised word, in page coordinates
 * (points, origin top-left, y down, as every engine writes them), with `source: "ocr"` and the
 * word's confidence, so the stages after parse read a scanned page as they read a text layer.
 *
 * All words of one OCR line share one baseline and size, taken from the line's box: a word's own
 * box ends lower when it has a descender, and `lines` would see a step in the baseline there.
 *
 *     line box ┌──────────────────────────────┐ ─┐
 *              │ Each  quiet  page            │  │ size = line height × LINE_EM
 *   baseline ─ │─────────────────g────────────│ ─┘ y = bottom − height × DESCENT_SHARE
 *              └──────────────────────────────┘
 */
import type { Item } from '../protocol/records.js';
import { reverseText, RTL_STRONG } from '../scripts/rtl.js';

/** The share of an OCR line's box height below the baseline (descenders), for Latin-like type. */
export const DESCENT_SHARE = 0.2;
/** A font's em over the height of a line's ink box (ascender to descender), which is a little under an em in common text faces. */
export const LINE_EM = 1.1;

/** One row of Tesseract's TSV output. */
interface TsvRow {
  level: number;
  key: string;
  left: number;
  top: number;
  width: number;
  height: number;
  conf: number;
  text: string;
}

/** TSV levels: 4 is a text line, 5 a word. */
const LINE = 4;
const WORD = 5;

function parseRows(tsv: string): TsvRow[] {
  const rows: TsvRow[] = [];
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells.length < 12) continue;
    const level = Number(cells[0]);
    if (!Number.isInteger(level)) continue;
    rows.push({
      level,
      // page, block, paragraph, line: the line a word belongs to.
      key: cells.slice(1, 5).join('.'),
      left: Number(cells[6]),
      top: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
      conf: Number(cells[10]),
      text: cells.slice(11).join('\t').replace(/\r$/u, ''),
    });
  }
  return rows;
}

const round = (v: number): number => Math.round(v * 100) / 100;

/**
 * The items of one page from Tesseract's TSV, for an image rendered at `dpi`. Right-to-left words
 * are written in glyph order, as the engines write right-to-left runs, so `bidi` reads them alike.
 */
export function ocrItems(tsv: string, dpi: number): Item[] {
  const scale = 72 / dpi;
  const rows = parseRows(tsv);
  const lines = new Map<string, TsvRow>();
  for (const row of rows) if (row.level === LINE) lines.set(row.key, row);
  const items: Item[] = [];
  let previous: { item: Item; key: string } | null = null;
  for (const row of rows) {
    if (row.level !== WORD) continue;
    const text = row.text.trim();
    if (!text) continue;
    const line = lines.get(row.key) ?? row;
    const bottom = (line.top + line.height) * scale;
    const height = line.height * scale;
    const rtl = RTL_STRONG.test(text);
    const item: Item = {
      text: rtl ? reverseText(text) : text,
      x: round(row.left * scale),
      y: round(bottom - height * DESCENT_SHARE),
      w: round(row.width * scale),
      size: round(Math.max(1, height * LINE_EM)),
      font: 'ocr',
      dir: rtl ? 'rtl' : 'ltr',
      source: 'ocr',
      confidence: round(Math.max(0, Math.min(100, row.conf)) / 100),
    };
    if (previous) previous.item.after = previous.key === row.key ? 'space' : 'break';
    items.push(item);
    previous = { item, key: row.key };
  }
  if (previous) previous.item.after = 'break';
  return items;
}
