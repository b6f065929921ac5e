/**
 * Writing frames: the page turned so that a group of runs reads upright, left to right, lines top
 * to bottom. Runs drawn at an angle (a stamp in the margin, a page drawn in landscape) and vertical
 * lines (CJK set top to bottom, lines right to left) are laid out by the same row, fragment, block
 * and column machinery as horizontal text, in the coordinates of their own frame. Pure functions
 * over records; thresholds relative to the font size.
 *
 *   frame 90 (reads bottom to top)      frame -90 / vertical (reads top to bottom)
 *      ┌──────────┐                        ┌──────────┐
 *      │ ↑   ↑    │  turned a quarter      │  ↓  ↓  ↓ │  turned a quarter the other way:
 *      │ 1   2    │  clockwise: lines      │  3  2  1 │  lines (columns) from right to
 *      └──────────┘  from left to right    └──────────┘  left
 */
import type { Item, PageRecord } from '../protocol/records.js';
import { ASCENT, DESCENT, hundredths, right } from './geometry.js';

/** A baseline direction in display coordinates (y down) as whole degrees counterclockwise on the page (Item.angle). */
export function angleOf(dx: number, dy: number): number {
  const degrees = Math.round((Math.atan2(-dy, dx) * 180) / Math.PI);
  return degrees === -180 ? 180 : degrees;
}

/**
 * In a vertical line a font places some glyphs off their cell (punctuation, a glyph without
 * vertical metrics; up to about an em), so a gap between two cells is known to within this × size:
 * gaps that cut a line into fragments, or mark a space, are measured that much wider there.
 */
export const CELL_OFFSET_EM = 1;

/** The frame of a run: the angle (degrees, counterclockwise) its lines read in; vertical lines read at -90. */
export function frameOf(item: Item): number {
  return item.dir === 'ttb' ? -90 : item.angle ?? 0;
}

/** The turned page: its size, and the offset that puts its top-left corner at the origin. */
export interface TurnedPage {
  angle: number;
  width: number;
  height: number;
  u0: number;
  v0: number;
}

/**
 * A point of the page turned by `angle`: `u` along the frame's lines, `v` across them (down the
 * page of the frame). The baseline direction in display coordinates (y down) is (cos, -sin).
 */
function turn(x: number, y: number, angle: number): { u: number; v: number } {
  const rad = (angle * Math.PI) / 180;
  const dx = Math.cos(rad);
  const dy = -Math.sin(rad);
  return { u: x * dx + y * dy, v: -x * dy + y * dx };
}

/** The page turned into the frame of `angle`. */
export function turnedPage(page: Pick<PageRecord, 'width' | 'height'>, angle: number): TurnedPage {
  const corners = [turn(0, 0, angle), turn(page.width, 0, angle), turn(0, page.height, angle), turn(page.width, page.height, angle)];
  const us = corners.map((c) => c.u);
  const vs = corners.map((c) => c.v);
  const u0 = Math.min(...us);
  const v0 = Math.min(...vs);
  return { angle, width: Math.max(...us) - u0, height: Math.max(...vs) - v0, u0, v0 };
}

/** A point (u, v) of the frame's coordinates (lines, boxes of turned text) as a point of the page (x, y). */
export function pagePoint(frame: TurnedPage, u: number, v: number): { x: number; y: number } {
  const { u: x, v: y } = turn(u + frame.u0, v + frame.v0, -frame.angle);
  return { x, y };
}

/**
 * A run in the coordinates of its frame. An upright glyph of a vertical line stands for the cell
 * it fills, one em long whatever its width (a number set across the line fills one cell too): the
 * top of its ink begins the cell (along the line), and the centre of its box is the middle of the
 * line's ink across it (ASCENT above and DESCENT below its baseline), so that the glyphs of one
 * column share a baseline whatever their width.
 */
export function upright(item: Item, frame: TurnedPage): Item {
  if (frame.angle === 0) return item;
  const cell = isCell(item);
  const x = cell ? item.x + item.w / 2 : item.x;
  const y = cell ? item.y - ASCENT * item.size : item.y;
  const { u, v } = turn(x, y, frame.angle);
  if (!cell) return { ...item, x: u - frame.u0, y: v - frame.v0 };
  return { ...item, x: u - frame.u0, y: v - frame.v0 + CELL_BASE * item.size, w: item.size };
}

/**
 * The inverse of upright for a turned run: back in page coordinates (its other fields as they
 * are). A cell of a vertical line comes back with its cell's width, centred where it was.
 */
export function onPage(item: Item, frame: TurnedPage): Item {
  if (frame.angle === 0) return item;
  const cell = isCell(item);
  const { u: x, v: y } = turn(item.x + frame.u0, item.y - (cell ? CELL_BASE * item.size : 0) + frame.v0, -frame.angle);
  return { ...item, x: hundredths(cell ? x - item.w / 2 : x), y: hundredths(cell ? y + ASCENT * item.size : y) };
}

/** Where a cell's baseline lies below the middle of its line, × size: ink spans ASCENT above and DESCENT below it. */
const CELL_BASE = (ASCENT - DESCENT) / 2;

/** An upright glyph (or a number set across the line) in a vertical line. */
const isCell = (item: Item): boolean => item.dir === 'ttb' && (item.angle ?? 0) === 0;

/*
 * Vertical lines of upright glyphs. A run is a cell of a vertical line when another run sits right
 * above or below it, centred on the same x, one glyph advance away (at most STACK_PITCH em from
 * baseline to baseline), and no run carries on beside it on its baseline (within SIDE_GAP em):
 *
 *      ┌┐  ┌┐       cells: centres within STACK_ALIGN em of one x, pitch ≤ STACK_PITCH em
 *      ││  ││
 *      └┘  └┘
 *
 * The pitch allows for glyphs a font places off their cell (punctuation, a glyph without vertical
 * metrics), up to an em either way. The runs of a horizontal line touch their neighbours on their
 * baseline, and those that do not (Korean words of one syllable, between word spaces) share it
 * with wider runs that do. Stacks of fewer than MIN_STACK cells, or not mostly of scripts that are set vertically
 * (CJK; a column of table digits, a list's markers), are not vertical text; Latin words inside
 * vertical text are drawn turned, and have an angle of their own.
 */
const STACK_ALIGN = 0.25;
const STACK_PITCH = 2;
const SIDE_GAP = 0.3;
/** Cells a vertical line needs; a run is at most WIDEST_CELL em wide (a number set across the line). */
const MIN_STACK = 3;
/** Characters of the scripts set in vertical lines: Han, kana, Hangul and CJK punctuation. */
const VERTICAL_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const WIDEST_CELL = 1.5;

/**
 * The upright runs of a page that stand in vertical lines, found from the geometry alone: the
 * connected stacks of at least MIN_STACK cells (see above).
 */
export function verticalCells(items: readonly Item[]): Set<Item> {
  // Without a character of those scripts there is nothing to find.
  if (!items.some((item) => VERTICAL_SCRIPT.test(item.text))) return new Set();
  const upright = items.filter((item) => (item.angle ?? 0) === 0 && item.dir !== 'rtl' && item.w <= WIDEST_CELL * item.size);
  const byBaseline = [...items].filter((item) => (item.angle ?? 0) === 0).sort((a, b) => a.y - b.y);
  const beside = (a: Item): boolean => {
    const tol = 0.25 * a.size;
    for (const b of nearBaseline(byBaseline, a.y, tol)) {
      if (b === a) continue;
      const gap = Math.max(b.x - right(a), a.x - right(b));
      if (gap <= SIDE_GAP * Math.max(a.size, b.size)) return true;
    }
    return false;
  };
  // A run standing apart on a baseline that runs with neighbours mostly fill (a Korean word of one
  // syllable between two word spaces) is a word of a horizontal line, not a cell.
  const apart = new Set(upright.filter((a) => !beside(a)));
  const inLine = (a: Item): boolean => {
    let alone = 0;
    let joined = 0;
    for (const b of nearBaseline(byBaseline, a.y, 0.25 * a.size)) {
      if (apart.has(b)) alone += b.w;
      else joined += b.w;
    }
    return joined > alone;
  };
  const candidates = [...apart].filter((a) => !inLine(a));
  const sorted = [...candidates].sort((a, b) => a.y - b.y);
  const links = new Map<Item, Item[]>();
  for (const a of sorted) {
    const centre = a.x + a.w / 2;
    for (const b of nearBaseline(sorted, a.y + (STACK_PITCH * a.size) / 2, (STACK_PITCH * a.size) / 2)) {
      if (b === a || b.y <= a.y) continue;
      if (Math.abs(b.x + b.w / 2 - centre) > STACK_ALIGN * Math.max(a.size, b.size)) continue;
      if (Math.abs(b.size - a.size) > 0.25 * a.size) continue;
      links.set(a, [...(links.get(a) ?? []), b]);
      links.set(b, [...(links.get(b) ?? []), a]);
    }
  }
  const cells = new Set<Item>();
  const seen = new Set<Item>();
  const mostlyVertical = (group: readonly Item[]): boolean => {
    let vertical = 0;
    let all = 0;
    for (const item of group) {
      for (const ch of item.text) {
        all += 1;
        if (VERTICAL_SCRIPT.test(ch)) vertical += 1;
      }
    }
    return vertical > all / 2;
  };
  for (const start of links.keys()) {
    if (seen.has(start)) continue;
    const stack: Item[] = [start];
    const component: Item[] = [];
    seen.add(start);
    while (stack.length > 0) {
      const item = stack.pop()!;
      component.push(item);
      for (const next of links.get(item) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    if (component.length >= MIN_STACK && mostlyVertical(component)) for (const item of component) cells.add(item);
  }
  // On a page set in vertical lines, the short ones (a paragraph's last line of a character or
  // two) are vertical too: every other such glyph of those scripts standing apart is a cell.
  if (cells.size > 0) for (const item of candidates) if (!cells.has(item) && mostlyVertical([item])) cells.add(item);
  return cells;
}

/** The runs of a list sorted by baseline whose baseline lies within `tol` of `y`. */
function nearBaseline(sorted: readonly Item[], y: number, tol: number): Item[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.y < y - tol) lo = mid + 1;
    else hi = mid;
  }
  const out: Item[] = [];
  for (let i = lo; i < sorted.length && sorted[i]!.y <= y + tol; i++) out.push(sorted[i]!);
  return out;
}

/** The runs of a page by frame, the frame holding most characters first (the body's). */
export function byFrame(items: readonly Item[]): { angle: number; items: Item[] }[] {
  const groups = new Map<number, Item[]>();
  for (const item of items) {
    const angle = frameOf(item);
    const group = groups.get(angle);
    if (group) group.push(item);
    else groups.set(angle, [item]);
  }
  const chars = (group: readonly Item[]): number => group.reduce((n, item) => n + item.text.length, 0);
  return [...groups.entries()].map(([angle, group]) => ({ angle, items: group })).sort((a, b) => chars(b.items) - chars(a.items) || Math.abs(a.angle) - Math.abs(b.angle));
}
