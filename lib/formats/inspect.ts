/**
 * What `inspect` draws over a rendered page: the decisions of the chain read back from a page's
 * records. Each layout block outlined in the colour of its role and numbered in reading order,
 * each line's baseline, a tick where `lines` inferred a word space, and a fill over the words
 * `resegment` merged or split and the characters `repair` changed.
 *
 * Records give boxes in points with the origin at the page's top-left corner, y downwards (see
 * docs/records.md), so a point (x, y) is the pixel (x × scale, y × scale) of a rendering at
 * `scale` pixels per point. The lines and blocks of turned or vertical text (a stamp along the
 * margin, a page set in landscape or with /Rotate, CJK set top to bottom) have their boxes in the
 * coordinates of their writing frame (lib/layout/frames.ts): the frame is the one of the runs of
 * the line's layout block, and each mark is laid out in it and turned back onto the page.
 * Records hold no glyph positions inside a line: the place of a character offset is estimated
 * along the line's box, and an inferred space is moved to the nearest gap between the line's
 * runs, where `lines` put it.
 */
import type { Block, Box, InferredMark, Item, Line, PageRecord, Role } from '../protocol/records.js';
import { blend, drawText, fillRect, strokeRect, textHeight, textWidth, type Raster, type Rgb } from './inspect-png.js';
import { escapeXml } from './html.js';
import { frameOf, pagePoint, turnedPage, upright, type TurnedPage } from '../layout/frames.js';

/** The colour of each role's outline. */
export const ROLE_COLOURS: Record<Role, Rgb> = {
  title: [214, 39, 40], 'front-matter': [227, 119, 194], abstract: [148, 103, 189], heading: [255, 127, 14],
  body: [31, 119, 180], 'list-item': [23, 190, 207], caption: [140, 86, 75], table: [44, 160, 44],
  formula: [188, 189, 34], footnote: [127, 127, 127], endnote: [127, 127, 127], reference: [100, 60, 160],
  toc: [80, 140, 80], 'margin-note': [200, 80, 40], header: [0, 0, 0], footer: [0, 0, 0],
  'page-number': [0, 0, 0], other: [160, 160, 160],
};
/** Ticks at inferred word spaces. */
export const SPACE_COLOUR: Rgb = [230, 0, 170];
/** Fills over the words resegment merged or split. */
export const RESEGMENT_COLOUR: Rgb = [255, 210, 0];
/** Fills over the characters repair changed. */
export const REPAIR_COLOUR: Rgb = [0, 200, 120];

/** The rules of the inferred marks resegment writes. */
const RESEGMENT_RULES = new Set(['merge-fragments', 'split-glued']);

/** A rectangle in pixels. */
export interface PixelBox { x: number; y: number; w: number; h: number }

/** Everything drawn over one page, in pixels. */
export interface PageMarks {
  width: number;
  height: number;
  /** Pixels per point. */
  scale: number;
  blocks: { number: number; role: Role; box: PixelBox; record: Block }[];
  /** From the start of each line's baseline to its end (along the line's direction on the page). */
  baselines: { x1: number; y1: number; x2: number; y2: number; role: Role }[];
  /** A tick one font unit wide from each inferred space's place on the baseline, across the line, into the descender's room. */
  spaces: PixelBox[];
  resegmented: PixelBox[];
  repaired: PixelBox[];
}

/** A point of `frame` in pixels. */
function pixelPoint(frame: TurnedPage, u: number, v: number, scale: number): { x: number; y: number } {
  const { x, y } = pagePoint(frame, u, v);
  return { x: x * scale, y: y * scale };
}

/** A box of `frame` in pixels: the page's upright box around it (the box itself when the frame is turned by quarters). */
function toPixels(box: Box, scale: number, frame: TurnedPage = UPRIGHT): PixelBox {
  if (frame.angle === 0) return { x: box.x * scale, y: box.y * scale, w: box.w * scale, h: box.h * scale };
  const corners = [[box.x, box.y], [box.x + box.w, box.y], [box.x, box.y + box.h], [box.x + box.w, box.y + box.h]].map(([u, v]) => pixelPoint(frame, u!, v!, scale));
  const xs = corners.map((c) => c.x);
  const ys = corners.map((c) => c.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** The frame of upright horizontal text: page coordinates as they are. */
const UPRIGHT: TurnedPage = { angle: 0, width: 0, height: 0, u0: 0, v0: 0 };

/**
 * The frame of each layout block of the page (by `block` index): the frame of most of its runs'
 * characters, the page turned into it.
 */
function layoutFrames(page: PageRecord): Map<number, TurnedPage> {
  const chars = new Map<number, Map<number, number>>();
  for (const item of page.items ?? []) {
    if (item.block === undefined) continue;
    const byAngle = chars.get(item.block) ?? new Map<number, number>();
    byAngle.set(frameOf(item), (byAngle.get(frameOf(item)) ?? 0) + item.text.length);
    chars.set(item.block, byAngle);
  }
  const frames = new Map<number, TurnedPage>();
  for (const [block, byAngle] of chars) {
    const angle = [...byAngle.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    frames.set(block, angle === 0 ? UPRIGHT : turnedPage(page, angle));
  }
  return frames;
}

/**
 * The paragraph block each line of the page went into (index into `blocks`), or -1: `paragraphs`
 * makes each block of consecutive lines and counts them in `lines`. Null when the counts do not
 * cover the page's lines (records edited by hand).
 */
function blockOfLines(page: PageRecord): number[] | null {
  const lines = page.lines ?? [];
  const owner: number[] = [];
  (page.blocks ?? []).forEach((block, index) => {
    for (let i = 0; i < block.lines; i++) owner.push(index);
  });
  return owner.length === lines.length ? owner : null;
}

/** The x (points) of UTF-16 offset `at` of the line, estimated in proportion along its box. */
function offsetX(line: Line, at: number): number {
  const share = line.text.length === 0 ? 0 : Math.min(1, Math.max(0, at / line.text.length));
  return line.dir === 'rtl' ? line.box.x + line.box.w * (1 - share) : line.box.x + line.box.w * share;
}

/** The runs of the page that sit on the line, in its frame's coordinates: same block and frame, baseline within half a size. */
function lineRuns(line: Line, items: readonly Item[], frame: TurnedPage): Item[] {
  return items
    .filter((i) => i.block === line.block && frameOf(i) === frame.angle)
    .map((i) => upright(i, frame))
    .filter((i) => Math.abs(i.y - line.base) <= line.size / 2 && i.x + i.w >= line.box.x - 1 && i.x <= line.box.x + line.box.w + 1)
    .sort((a, b) => a.x - b.x);
}

/** The middles of the gaps between the runs of a line. */
function runGaps(runs: readonly Item[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < runs.length; i++) {
    const end = runs[i - 1]!.x + runs[i - 1]!.w;
    if (runs[i]!.x > end) gaps.push((end + runs[i]!.x) / 2);
  }
  return gaps;
}

/** The span [start, end) of the word around offset `at` of `text`. */
function wordAround(text: string, at: number): [number, number] {
  let start = Math.min(at, text.length);
  let end = start;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  return [start, end];
}

/** A pixel box over the characters [start, end) of the line. */
function spanBox(line: Line, start: number, end: number, scale: number, frame: TurnedPage): PixelBox {
  const a = offsetX(line, start);
  const b = offsetX(line, end);
  return toPixels({ x: Math.min(a, b), y: line.box.y, w: Math.max(Math.abs(b - a), line.size / 4), h: line.box.h }, scale, frame);
}

/** Above this many character pairs a line is compared by its common head and tail only. */
const MAX_ALIGNMENT_CELLS = 1_000_000;

/**
 * The characters of a left-to-right line that repair changed, as spans [start, end) of its text:
 * its text against its runs' text, spaces left out on both sides (lines and resegment change only
 * spaces), aligned by their longest common subsequence; a character the alignment leaves out of
 * the line is changed, one left out of the runs marks the character after it. Empty where they
 * agree, or where the runs do not give the text in reading order (right-to-left lines, which bidi
 * reorders).
 */
export function repairedSpans(line: Line, runs: readonly Item[]): [number, number][] {
  if (line.dir !== 'ltr' || runs.length === 0) return [];
  const drawn = [...runs.map((r) => r.text).join('').replace(/\s/g, '')];
  const kept: number[] = [];
  for (let i = 0; i < line.text.length; i++) if (!/\s/.test(line.text[i]!)) kept.push(i);
  const read = kept.map((i) => line.text[i]!);
  if (read.join('') === drawn.join('') || read.length === 0) return [];
  const changed = new Set<number>();
  if (read.length * drawn.length > MAX_ALIGNMENT_CELLS) {
    let head = 0;
    while (head < read.length && read[head] === drawn[head]) head++;
    let tail = 0;
    while (tail < read.length - head && tail < drawn.length - head && read[read.length - 1 - tail] === drawn[drawn.length - 1 - tail]) tail++;
    for (let i = head; i < Math.max(head + 1, read.length - tail); i++) changed.add(Math.min(i, read.length - 1));
  } else {
    // lengths[i][j]: the longest common subsequence of read[i..] and drawn[j..].
    const width = drawn.length + 1;
    const lengths = new Uint32Array((read.length + 1) * width);
    for (let i = read.length - 1; i >= 0; i--) {
      for (let j = drawn.length - 1; j >= 0; j--) {
        lengths[i * width + j] = read[i] === drawn[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < read.length || j < drawn.length) {
      if (i < read.length && j < drawn.length && read[i] === drawn[j]) {
        i++;
        j++;
      } else if (j < drawn.length && (i === read.length || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
        changed.add(Math.min(i, read.length - 1));
        j++;
      } else {
        changed.add(i);
        i++;
      }
    }
  }
  const spans: [number, number][] = [];
  for (const index of [...changed].sort((a, b) => a - b)) {
    const last = spans[spans.length - 1];
    if (last && last[1] === kept[index]) last[1] = kept[index]! + 1;
    else if (last && index > 0 && changed.has(index - 1)) last[1] = kept[index]! + 1;
    else spans.push([kept[index]!, kept[index]! + 1]);
  }
  return spans;
}

/** The marks of a page rendered at `scale` pixels per point. */
export function pageMarks(page: PageRecord, scale: number): PageMarks {
  const items = page.items ?? [];
  const frames = layoutFrames(page);
  const frameOfLine = (line: Line): TurnedPage => frames.get(line.block) ?? UPRIGHT;
  const blocks = page.blocks ?? [];
  const owners = blockOfLines(page);
  // A block takes the frame of its first line: the lines of one paragraph come from one layout block.
  const firstLines = new Map<number, Line>();
  (page.lines ?? []).forEach((line, index) => {
    const owner = owners?.[index];
    if (owner !== undefined && !firstLines.has(owner)) firstLines.set(owner, line);
  });
  const marks: PageMarks = {
    width: Math.round(page.width * scale),
    height: Math.round(page.height * scale),
    scale,
    blocks: blocks.map((record, index) => {
      const first = firstLines.get(index);
      return { number: index + 1, role: record.role, box: toPixels(record.box, scale, first ? frameOfLine(first) : UPRIGHT), record };
    }),
    baselines: [],
    spaces: [],
    resegmented: [],
    repaired: [],
  };
  const unit = fontUnit(marks) / scale;
  (page.lines ?? []).forEach((line, index) => {
    const frame = frameOfLine(line);
    const owner = owners?.[index];
    const role = (owner !== undefined ? blocks[owner]?.role : undefined) ?? line.role ?? 'body';
    const start = pixelPoint(frame, line.box.x, line.base, scale);
    const end = pixelPoint(frame, line.box.x + line.box.w, line.base, scale);
    marks.baselines.push({ x1: start.x, y1: start.y, x2: end.x, y2: end.y, role });
    const runs = lineRuns(line, items, frame);
    const gaps = runGaps(runs);
    for (const mark of line.inferred as InferredMark[]) {
      if (RESEGMENT_RULES.has(mark.rule)) {
        const [start, end] = wordAround(line.text, mark.kind === 'space' ? Math.max(0, mark.at - 1) : mark.at);
        const [, after] = mark.kind === 'space' ? wordAround(line.text, mark.at + 1) : [start, end];
        marks.resegmented.push(spanBox(line, start, after, scale, frame));
      } else if (mark.kind === 'space') {
        const estimate = offsetX(line, mark.at + 0.5);
        const nearest = gaps.reduce((best, gap) => (Math.abs(gap - estimate) < Math.abs(best - estimate) ? gap : best), Number.POSITIVE_INFINITY);
        const x = Math.abs(nearest - estimate) <= line.size ? nearest : estimate;
        // A tick under the baseline, in the descender's room, so that it hides no letter.
        const h = Math.max(line.box.y + line.box.h - line.base, line.size / 4);
        marks.spaces.push(toPixels({ x: x - unit / 2, y: line.base, w: unit, h }, scale, frame));
      }
    }
    for (const [start, end] of repairedSpans(line, runs)) marks.repaired.push(spanBox(line, start, end, scale, frame));
  });
  return marks;
}

/** The legend's rows: the roles present on the page, then the marks. */
function legendRows(marks: PageMarks): { label: string; colour: Rgb }[] {
  const roles = [...new Set(marks.blocks.map((b) => b.role))];
  return [
    ...roles.map((role) => ({ label: role, colour: ROLE_COLOURS[role] })),
    { label: 'inferred space', colour: SPACE_COLOUR },
    { label: 'resegmented', colour: RESEGMENT_COLOUR },
    { label: 'repaired', colour: REPAIR_COLOUR },
  ];
}

/** How much of `box` the page's blocks cover: where the legend would hide least. */
function covered(box: PixelBox, marks: PageMarks): number {
  return marks.blocks.reduce((sum, { box: b }) => {
    const w = Math.min(box.x + box.w, b.x + b.w) - Math.max(box.x, b.x);
    const h = Math.min(box.y + box.h, b.y + b.h) - Math.max(box.y, b.y);
    return sum + (w > 0 && h > 0 ? w * h : 0);
  }, 0);
}

/** The pixel font's unit and the outlines' width: 1.5 pt, so that numbers read the same on any page size. */
export const fontUnit = (marks: Pick<PageMarks, 'scale'>): number => Math.max(1, Math.round(marks.scale * 1.5));

/**
 * Draws the marks into the rendered page: fills first (so the outlines stay sharp), then
 * baselines, space ticks, outlines, numbers, and the legend in the corner that hides least.
 */
export function drawMarks(raster: Raster, marks: PageMarks): void {
  const unit = fontUnit(marks);
  for (const box of marks.repaired) fillRect(raster, box.x, box.y, box.w, box.h, REPAIR_COLOUR, 0.4);
  for (const box of marks.resegmented) fillRect(raster, box.x, box.y, box.w, box.h, RESEGMENT_COLOUR, 0.45);
  for (const line of marks.baselines) {
    // Dashed: three pixels drawn, three left, stepping along the axis the line runs along most.
    const across = Math.abs(line.y2 - line.y1) > Math.abs(line.x2 - line.x1);
    const [from, to] = across ? [line.y1, line.y2] : [line.x1, line.x2];
    for (let at = Math.floor(Math.min(from, to)); at < Math.max(from, to); at++) {
      if (Math.floor(at / 3) % 2 !== 0) continue;
      const share = to === from ? 0 : (at - from) / (to - from);
      const x = across ? line.x1 + (line.x2 - line.x1) * share : at;
      const y = across ? at : line.y1 + (line.y2 - line.y1) * share;
      blend(raster, x, y, ROLE_COLOURS[line.role], 0.8);
    }
  }
  for (const space of marks.spaces) fillRect(raster, space.x, space.y, space.w, space.h, SPACE_COLOUR, 0.7);
  // Outlines laid just outside the boxes, so that they hide no glyph at a box's edge.
  for (const { box, role } of marks.blocks) strokeRect(raster, box.x - unit, box.y - unit, box.w + 2 * unit, box.h + 2 * unit, ROLE_COLOURS[role], unit);
  for (const block of marks.blocks) {
    // The number left of the block's top-left corner, in the margin or gutter, where there is room.
    const label = String(block.number);
    const pad = unit;
    const w = textWidth(label, unit) + 2 * pad;
    const x = block.box.x >= w + unit ? block.box.x - w - unit : block.box.x;
    fillRect(raster, x, block.box.y, w, textHeight(unit) + 2 * pad, ROLE_COLOURS[block.role]);
    drawText(raster, label, x + pad, block.box.y + pad, [255, 255, 255], unit);
  }
  const rows = legendRows(marks);
  const rowHeight = textHeight(unit) + 3 * unit;
  const w = Math.max(...rows.map((r) => textWidth(r.label, unit))) + 8 * unit;
  const h = rows.length * rowHeight + 2 * unit;
  const corners = [
    { x: marks.width - w, y: marks.height - h, w, h }, { x: 0, y: marks.height - h, w, h },
    { x: marks.width - w, y: 0, w, h }, { x: 0, y: 0, w, h },
  ];
  const place = corners.reduce((best, c) => (covered(c, marks) < covered(best, marks) ? c : best));
  fillRect(raster, place.x, place.y, w, h, [255, 255, 255], 0.9);
  strokeRect(raster, place.x, place.y, w, h, [90, 90, 90], 1);
  rows.forEach((row, index) => {
    const y = place.y + unit * 2 + index * rowHeight;
    fillRect(raster, place.x + unit * 2, y, unit * 3, textHeight(unit), row.colour);
    drawText(raster, row.label, place.x + unit * 6, y, [0, 0, 0], unit);
  });
}

/**
 * The page as SVG over its picture (`href`): a rectangle per block, numbered, whose tooltip is
 * the block's record (escaped: record text comes from the document), for the HTML view.
 */
export function overlaySvg(marks: PageMarks, href: string): string {
  const rects = marks.blocks.map(({ number, role, box, record }) => {
    const [r, g, b] = ROLE_COLOURS[role];
    return `<g class="block" data-role="${escapeXml(role)}"><title>${escapeXml(`${number}. ${JSON.stringify(record, null, 1)}`)}</title>` +
      `<rect x="${box.x.toFixed(1)}" y="${box.y.toFixed(1)}" width="${box.w.toFixed(1)}" height="${box.h.toFixed(1)}" stroke="rgb(${r},${g},${b})"/></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${marks.width} ${marks.height}" width="${marks.width}" height="${marks.height}">` +
    `<image href="${escapeXml(href)}" width="${marks.width}" height="${marks.height}"/>${rects.join('')}</svg>`;
}

/** One HTML page showing every rendered page with its blocks' records on hover. */
export function inspectHtml(title: string, pages: readonly { page: number; marks: PageMarks; href: string }[]): string {
  const figures = pages.map(({ page, marks, href }) => `<figure id="page-${page}"><figcaption>page ${page}</figcaption>${overlaySvg(marks, href)}</figure>`);
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>
body{font-family:sans-serif;background:#eee}figure{margin:1em}svg{background:#fff;max-width:100%;height:auto}
.block rect{fill:transparent;stroke-width:0}.block:hover rect{fill:rgba(255,255,0,.25);stroke-width:3}
</style></head><body><h1>${escapeXml(title)}</h1><p>Hover a block for its record.</p>
${figures.join('\n')}
</body></html>
`;
}
