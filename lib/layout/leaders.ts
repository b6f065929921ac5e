/**
 * Leaders: the rows of a contents list ("2.1 Sampling the ponds . . . . . 7"), whose dot leaders
 * are no text and whose page numbers stand apart at the right margin. A leader is a run of dots
 * (or middle dots, or ellipses) between the title and the number, drawn as one run, as many
 * one-dot runs, or appended to the title's run; a leader drawn as a rule (a dotted border) leaves
 * only a wide gap. The leaders are dropped, a number drawn in the title's run becomes a run of its
 * own, and the number is marked as joined to its title, so that the gap before it is no gutter.
 *
 *     2.1 Sampling the ponds . . . . . . . . . . 7    ← dotted: an entry
 *     2.2 Counting animals  ________________    7    ← wide gap, numbers aligned and rising: entries
 *
 * A page holds a contents list when at least `MIN_ENTRIES` rows end in a number on one right
 * edge, and either most of them are dotted or their numbers never fall down the page.
 */
import type { Item } from '../protocol/records.js';
import { right } from './geometry.js';
import { groupRows, ROW_DEFAULTS, type Row } from './rows.js';

/** A page's contents list has at least this many entries. */
const MIN_ENTRIES = 4;
/** A leader has at least this many dots. */
const MIN_DOTS = 4;
/** Without dots, the gap before the number is at least this × font size. */
const LEADER_GAP = 2;
/** The numbers of one list end within this × font size of one right edge. */
const ALIGN = 0.6;
/** A list is dotted when at least this share of its entries have dots. */
const DOTTED_SHARE = 0.5;
/** The width of a digit, × font size, for a number cut out of the title's run. */
const DIGIT_WIDTH = 0.55;

/** Leader characters: full stop, middle dot, one-dot leader, ellipsis, bullet operator, and spaces between them. */
const LEADER_TEXT = /^[\s.·․‥…∙]*$/u;
const LEADER_CHAR = /[.·․‥…∙]/gu;
/** A page number at the end of a run, with the leader before it: roman numerals too. */
const TRAILING_NUMBER = /^(.*?)([\s.·․‥…∙]*?)\s*(\d{1,4}|[ivxlc]{1,6})$/iu;
/** A trailing leader on the title's last run. */
const TRAILING_LEADER = /[\s.·․‥…∙]+$/u;

interface Entry {
  /** The row's runs, leaders dropped and the number a run of its own. */
  items: Item[];
  number: Item;
  dots: number;
  gap: number;
  value: number;
}

function numberValue(text: string): number {
  if (/^\d+$/u.test(text)) return Number(text);
  return -1;
}

/** The row as a contents entry, or null. Rows of right-to-left text are left alone. */
function entryOf(row: readonly Item[]): Entry | null {
  if (row.length === 0 || row.some((i) => i.dir === 'rtl')) return null;
  const last = row[row.length - 1]!;
  const match = TRAILING_NUMBER.exec(last.text.trimEnd());
  if (!match) return null;
  const [, head = '', leader = '', digits = ''] = match;
  let number: Item;
  let rest = row.slice(0, -1);
  let dots = (leader.match(LEADER_CHAR) ?? []).length;
  if (head.trim() === '' && leader.trim() === '') number = last;
  else {
    // The number drawn in one run with the title or the leader: cut it out at the run's right end.
    const width = Math.min(last.w, DIGIT_WIDTH * last.size * digits.length);
    number = { ...last, text: digits, x: right(last) - width, w: width };
    if (head.trim() !== '') rest = [...rest, { ...last, text: head, w: Math.max(0, last.w * (head.length / last.text.length)) }];
  }
  // Runs of leader dots alone before the number.
  while (rest.length > 0 && LEADER_TEXT.test(rest[rest.length - 1]!.text)) {
    dots += (rest[rest.length - 1]!.text.match(LEADER_CHAR) ?? []).length;
    rest = rest.slice(0, -1);
  }
  if (rest.length === 0) return null;
  const title = rest[rest.length - 1]!;
  const tail = TRAILING_LEADER.exec(title.text);
  if (tail && (tail[0].match(LEADER_CHAR) ?? []).length >= 2) {
    dots += (tail[0].match(LEADER_CHAR) ?? []).length;
    const kept = title.text.slice(0, tail.index);
    rest = [...rest.slice(0, -1), { ...title, text: kept, w: title.w * (kept.length / title.text.length) }];
  }
  if (!rest.some((i) => /\p{L}/u.test(i.text))) return null;
  const titleEnd = right(rest[rest.length - 1]!);
  return { items: [...rest, number], number, dots, gap: (number.x - titleEnd) / Math.max(number.size, 1), value: numberValue(digits) };
}

/**
 * The page's runs with the leaders of its contents list dropped, and the set of page-number runs
 * that belong to the title before them (no gutter cuts a row there). A page without a contents
 * list comes back as it was, with the rows its runs make (`rows`), for fragmentsOf to take as they are.
 */
export function stripLeaders(items: readonly Item[]): { items: Item[]; joined: Set<Item>; rows?: Row[] } {
  const joined = new Set<Item>();
  const rows = groupRows(items, ROW_DEFAULTS);
  const entries = new Map<number, Entry>();
  rows.forEach((row, k) => {
    const sorted = [...row.items].sort((a, b) => a.x - b.x);
    const entry = entryOf(sorted);
    if (entry && (entry.dots >= MIN_DOTS || entry.gap >= LEADER_GAP)) entries.set(k, entry);
  });
  if (entries.size < MIN_ENTRIES) return { items: [...items], joined, rows };
  // The right edge most entries' numbers end on.
  const edges = [...entries.values()].map((e) => right(e.number));
  let best: number[] = [];
  for (const edge of edges) {
    const size = [...entries.values()][0]!.number.size;
    const near = edges.filter((x) => Math.abs(x - edge) <= ALIGN * Math.max(size, 1));
    if (near.length > best.length) best = near;
  }
  const edge = best.length > 0 ? best.reduce((a, b) => a + b, 0) / best.length : 0;
  const aligned = [...entries.entries()].filter(([, e]) => Math.abs(right(e.number) - edge) <= ALIGN * Math.max(e.number.size, 1));
  if (aligned.length < MIN_ENTRIES) return { items: [...items], joined, rows };
  const dotted = aligned.filter(([, e]) => e.dots >= MIN_DOTS).length >= DOTTED_SHARE * aligned.length;
  const values = aligned.map(([, e]) => e.value);
  const rising = values.every((v, i) => v >= 0 && (i === 0 || v >= values[i - 1]!));
  if (!dotted && !rising) return { items: [...items], joined, rows };
  const byRow = new Map(aligned);
  const out: Item[] = [];
  rows.forEach((row, k) => {
    const entry = byRow.get(k);
    if (!entry) out.push(...row.items);
    else {
      out.push(...entry.items);
      joined.add(entry.number);
    }
  });
  return { items: out, joined };
}
