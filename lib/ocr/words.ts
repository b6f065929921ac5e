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
 *
 * The size is no more than PITCH_EM of the distance to the nearest line of the paragraph.
 */
import type { Item } from '../protocol/records.js';
import { reverseText, RTL_STRONG } from '../scripts/rtl.js';
import { letterCount } from '../lang/scripts.js';

/** The share of an OCR line's box height below the baseline (descenders), for Latin-like type. */
export const DESCENT_SHARE = 0.2;
/** A font's em over the height of a line's ink box (ascender to descender), which is a little under an em in common text faces. */
export const LINE_EM = 1.1;

/** A font's em over the distance between two lines of a paragraph, which text sets at 1.1–1.3 em. */
export const PITCH_EM = 0.85;

/**
 * A word below this confidence (0–100) whose box is under NOISE_HEIGHT of the page's median line
 * height is noise: dust, a stain, marks read apart from their line. Tesseract reads such specks as
 * punctuation and digits in blocks of their own.
 */
export const NOISE_CONFIDENCE = 60;
export const NOISE_HEIGHT = 0.5;
/**
 * A word of this many letters or more, outside the Latin, Greek and Cyrillic alphabets, is no
 * speck, however short its box and unsure its reading: Nastaliq's short words ("تو", "ہوا") stand
 * well under half the height of their sloping line. Tesseract reads specks on a Latin page as
 * pairs of thin letters ("ii", "rn"), so there the filter stands as it was.
 */
export const WORD_LETTERS = 2;
const SPECK_ALPHABETS = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;

/**
 * A line whose box lies at least this share inside the box of a taller line is part of that line
 * read a second time: page segmentation (`--psm 3`) can take the marks above a line of Thai, whose
 * vowels and tone marks stand well above the consonants, for a line of its own, and reads ั and ่
 * as the digits ๑ and ๐ there, while the line itself reads them as well. Lines of real text do not
 * lie inside one another.
 */
export const INSIDE_SHARE = 0.5;

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

/** The paragraph of a line's key (page.block.paragraph.line). */
const paragraphOf = (key: string): string => key.split('.').slice(0, 3).join('.');

/** The median line height of each of Tesseract's paragraphs, by paragraph key. */
function paragraphLineHeights(lines: [string, TsvRow][]): Map<string, number> {
  const byParagraph = new Map<string, number[]>();
  for (const [key, row] of lines) {
    const paragraph = paragraphOf(key);
    if (!byParagraph.has(paragraph)) byParagraph.set(paragraph, []);
    byParagraph.get(paragraph)!.push(row.height);
  }
  return new Map([...byParagraph].map(([paragraph, heights]) => [paragraph, heights.sort((a, b) => a - b)[Math.floor(heights.length / 2)]!]));
}

/** The area of `inner` that lies inside `outer`, as a share of `inner`'s area. */
function shareInside(inner: TsvRow, outer: TsvRow): number {
  const width = Math.min(inner.left + inner.width, outer.left + outer.width) - Math.max(inner.left, outer.left);
  const height = Math.min(inner.top + inner.height, outer.top + outer.height) - Math.max(inner.top, outer.top);
  return width > 0 && height > 0 ? (width * height) / Math.max(1, inner.width * inner.height) : 0;
}

/** The keys of lines that lie INSIDE_SHARE inside a taller line: a part of it read again. */
function linesReadTwice(lines: [string, TsvRow][]): Set<string> {
  const twice = new Set<string>();
  for (const [key, line] of lines) {
    if (lines.some(([other, taller]) => other !== key && taller.height > line.height && shareInside(line, taller) >= INSIDE_SHARE)) twice.add(key);
  }
  return twice;
}

/**
 * Each line's distance to its nearest line in the same paragraph (top to top, image pixels). It
 * bounds the line's size: the box of an Arabic or Devanagari line holds marks far above and below
 * the letters, and taller than the line pitch, it would make two lines look like one.
 */
function linePitches(lines: [string, TsvRow][]): Map<string, number> {
  const byParagraph = new Map<string, [string, TsvRow][]>();
  for (const entry of lines) {
    const paragraph = paragraphOf(entry[0]);
    if (!byParagraph.has(paragraph)) byParagraph.set(paragraph, []);
    byParagraph.get(paragraph)!.push(entry);
  }
  const pitches = new Map<string, number>();
  for (const members of byParagraph.values()) {
    members.sort((a, b) => a[1].top - b[1].top);
    for (let i = 0; i < members.length; i++) {
      const gaps = [members[i - 1], members[i + 1]].filter((m) => m !== undefined).map((m) => Math.abs(m![1].top - members[i]![1].top));
      const pitch = Math.min(...gaps.filter((gap) => gap > 0));
      if (Number.isFinite(pitch)) pitches.set(members[i]![0], pitch);
    }
  }
  return pitches;
}

/**
 * Where Tesseract writes a space between the words of each line, from its plain-text output
 * (`txt`, written after the TSV): for each line, one flag per word, true when a space comes
 * before it. Tesseract's words of Thai and Chinese are often single characters, and only its text
 * says which of them it read as one word; a line whose text cannot be matched has no flags.
 */
function spacesBefore(lines: TsvRow[][], text: string[]): Map<TsvRow[], boolean[]> {
  const flags = new Map<TsvRow[], boolean[]>();
  let next = 0;
  for (const words of lines) {
    const joined = words.map((word) => word.text).join('');
    const found = text.slice(next).findIndex((line) => line.replace(/\s+/gu, '') === joined);
    if (found < 0) continue;
    const line = text[next + found]!;
    next += found + 1;
    let at = 0;
    flags.set(words, words.map((word) => {
      const start = line.indexOf(word.text, at);
      at = start + word.text.length;
      return /\s/u.test(line.slice(Math.max(0, start - 1), start));
    }));
  }
  return flags;
}

/**
 * A line's runs in logical order with their boxes. Words Tesseract wrote without a space between
 * them become one run, as a text layer draws them. Tesseract's boxes of right-to-left words are
 * unreliable (a word's box overlaps its neighbour's or takes part of its width), while its
 * order and text are right: a right-to-left line's runs are laid out again from the line's right
 * edge, each as wide as its share of the line's characters, so the gaps between them stay word
 * gaps.
 */
function lineWords(words: TsvRow[], line: TsvRow, spaced: boolean[] | undefined): TsvRow[] {
  const joined: TsvRow[] = [];
  words.forEach((word, i) => {
    const last = joined[joined.length - 1];
    if (last && spaced && !spaced[i]) {
      const left = Math.min(last.left, word.left);
      const right = Math.max(last.left + last.width, word.left + word.width);
      joined[joined.length - 1] = { ...last, text: last.text + word.text, left, width: right - left, conf: Math.min(last.conf, word.conf) };
    } else joined.push(word);
  });
  const rtl = joined.filter((word) => RTL_STRONG.test(word.text)).length * 2 > joined.length;
  if (!rtl || joined.length < 2) return joined;
  const chars = joined.reduce((sum, word) => sum + [...word.text].length, 0);
  const gap = line.width / (chars + joined.length - 1);
  const perChar = (line.width - gap * (joined.length - 1)) / chars;
  let right = line.left + line.width;
  return joined.map((word) => {
    const width = [...word.text].length * perChar;
    const placed = { ...word, left: right - width, width };
    right -= width + gap;
    return placed;
  });
}

/**
 * The items of one page from Tesseract's output (TSV, then its text), for an image rendered at `dpi`. Right-to-left words
 * are written in glyph order, as the engines write right-to-left runs, so `bidi` reads them alike.
 */
export function ocrItems(output: string, dpi: number): Item[] {
  const scale = 72 / dpi;
  const rows = parseRows(output);
  const text = output.split('\n').filter((line) => !line.includes('\t') && line.trim() !== '');
  const lines = new Map<string, TsvRow>();
  const wordsOf = new Map<string, TsvRow[]>();
  const heights = rows.filter((row) => row.level === LINE).map((row) => row.height).sort((a, b) => a - b);
  const lineHeight = heights[Math.floor(heights.length / 2)] ?? 0;
  for (const row of rows) {
    if (row.level === LINE) lines.set(row.key, row);
    const text = row.text.trim();
    if (row.level !== WORD || !text) continue;
    if (row.conf < NOISE_CONFIDENCE && row.height < lineHeight * NOISE_HEIGHT && (letterCount(text) < WORD_LETTERS || SPECK_ALPHABETS.test(text))) continue;
    if (!wordsOf.has(row.key)) wordsOf.set(row.key, []);
    wordsOf.get(row.key)!.push({ ...row, text });
  }
  for (const key of linesReadTwice([...lines.entries()])) {
    lines.delete(key);
    wordsOf.delete(key);
  }
  const pitches = linePitches([...lines.entries()]);
  const paragraphHeights = paragraphLineHeights([...lines.entries()]);
  const spaces = spacesBefore([...wordsOf.values()], text);
  const items: Item[] = [];
  for (const [key, words] of wordsOf) {
    const line = lines.get(key) ?? words[0]!;
    const bottom = (line.top + line.height) * scale;
    const height = line.height * scale;
    // The type of a paragraph is one size: its lines take the paragraph's median line height, not
    // their own box's (a short last line of two glyphs, "罪。", is lower than the others).
    const typeHeight = (paragraphHeights.get(paragraphOf(key)) ?? line.height) * scale;
    const size = Math.min(typeHeight * LINE_EM, (pitches.get(key) ?? Infinity) * scale * PITCH_EM);
    for (const word of lineWords(words, line, spaces.get(words))) {
      const rtl = RTL_STRONG.test(word.text);
      items.push({
        text: rtl ? reverseText(word.text) : word.text,
        x: round(word.left * scale),
        y: round(bottom - height * DESCENT_SHARE),
        w: round(word.width * scale),
        size: round(Math.max(1, size)),
        font: 'ocr',
        dir: rtl ? 'rtl' : 'ltr',
        source: 'ocr',
        confidence: round(Math.max(0, Math.min(100, word.conf)) / 100),
        after: 'space',
      });
    }
    items[items.length - 1]!.after = 'break';
  }
  return items;
}

/**
 * How sure Tesseract was of a reading: its words' confidences weighted by their length, so that a
 * reading is not judged by its noise (0 for a reading of no words).
 */
export function meanConfidence(items: readonly Item[]): number {
  let weighted = 0;
  let chars = 0;
  for (const item of items) {
    const length = [...item.text].length;
    weighted += (item.confidence ?? 0) * length;
    chars += length;
  }
  return chars > 0 ? weighted / chars : 0;
}
