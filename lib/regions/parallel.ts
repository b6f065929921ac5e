/**
 * Parallel text on one page: the same text in two languages printed side by side, in two columns
 * or in the two cells of each table row (bilingual laws, manuals, notices), found after every
 * block has its language, and paired block by block for sentence aligners.
 *
 * The rule, on each page:
 *
 * 1. **Two sides.** The page's blocks with a language (not `und`, not furniture) are split by a
 *    vertical gutter at least `MIN_GUTTER` × the blocks' median font size wide: left blocks end
 *    before it, right blocks start after it. Of the gutters at a block's left edge, the one that
 *    leaves the most blocks on its poorer side less the blocks it cuts wins (the widest on a tie).
 *    Blocks that cross it (a full-width title, a note under both columns) are bands' edges: the
 *    sides are paired band by band, never across such a block.
 *
 *    ```
 *    ┌───────────── title (crosses: ends a band) ─────────────┐
 *    ┌── en ──────┐          ┌── fr ──────┐
 *    │ left 1     │ ◀gutter▶ │ right 1    │   one group
 *    └────────────┘          │            │
 *    ┌── en ──────┐          └────────────┘
 *    │ left 2     │          ┌── fr ──────┐
 *    └────────────┘          │ right 2    │   one group
 *                            └────────────┘
 *    ```
 * 2. **Two languages.** Each side of a band has one language (at least `SIDE_PURITY` of its
 *    letters), and the two differ. Only blocks long enough for franc to judge (`minLetters`, the
 *    langid option) vote: a shorter one took its language from a prior, and a side of names or
 *    numbers alone (an author list beside its last line) has no language of its own. Which is which says nothing of direction: English beside
 *    Hebrew pairs as well as Hebrew beside English; side `a` is always the left one.
 * 3. **Rows that line up.** Translations take about as much room: the two sides' heights are
 *    within `MIN_EXTENT_RATIO` of each other. The blocks are then aligned in vertical order
 *    (a monotone alignment, 1–1, 1–2 or 2–1 and 1–3 or 3–1, like Gale and Church's, with the
 *    vertical spans as the evidence): each bead costs 1 − the overlap of its two spans over their
 *    union, spans measured from the top of their side as a share of the side's height (so a
 *    longer translation that drifts down its column still lines up), plus `SPLIT_COST` per block
 *    past the first on a side. Equal counts in order therefore pair one to one; a paragraph
 *    the layout split in two pairs with the one block beside both halves. The band is parallel
 *    when the beads' mean overlap is at least `MIN_ROW_MATCH`.
 *
 * The result is written as `parallel: {group, side}` on the blocks (lib/protocol/records.ts).
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';
import { letterCount } from '../lang/scripts.js';

/** The thresholds of the detection, each relative to the page's own measures. */
export const PARALLEL = {
  /** Least gutter between the sides, × the median font size of the page's blocks. */
  MIN_GUTTER: 1,
  /** Least share of a side's letters in its language. */
  SIDE_PURITY: 0.8,
  /** Least ratio of the shorter side's height to the taller's (translations take similar room). */
  MIN_EXTENT_RATIO: 0.5,
  /** Least mean overlap (over union, on side-relative spans) of the aligned groups. */
  MIN_ROW_MATCH: 0.5,
  /** Cost of each block past the first on one side of a group (a split paragraph). */
  SPLIT_COST: 0.1,
} as const;

/** The mark a paired block carries: its group (unique in the document) and its side, `a` the left. */
export interface ParallelMark {
  group: number;
  side: 'a' | 'b';
}

/** One aligned pair of a page: the left side's blocks and the right side's, each in vertical order. */
export interface ParallelGroup {
  a: Block[];
  b: Block[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
};
const right = (block: Block): number => block.box.x + block.box.w;
const bottom = (block: Block): number => block.box.y + block.box.h;
const middleY = (block: Block): number => block.box.y + block.box.h / 2;

/** Whether a block can take part: a language, letters, not furniture. */
function candidate(block: Block): boolean {
  return !!block.lang && block.lang !== 'und' && !FURNITURE_ROLES.has(block.role) && letterCount(block.text) > 0;
}

/** The split of blocks at the best gutter: left, right, and those crossing it; null without one. */
export function splitAtGutter(blocks: readonly Block[]): { left: Block[]; right: Block[]; crossing: Block[]; gutter: number } | null {
  const minGutter = PARALLEL.MIN_GUTTER * median(blocks.map((b) => b.size));
  let best: { left: Block[]; right: Block[]; crossing: Block[]; gutter: number; width: number; score: number } | null = null;
  for (const edge of new Set(blocks.map((b) => b.box.x))) {
    const left = blocks.filter((b) => right(b) < edge);
    const rightSide = blocks.filter((b) => b.box.x >= edge);
    if (left.length === 0 || rightSide.length === 0) continue;
    const leftEdge = Math.max(...left.map(right));
    const width = edge - leftEdge;
    if (width < minGutter) continue;
    const crossing = blocks.filter((b) => !left.includes(b) && !rightSide.includes(b));
    const score = Math.min(left.length, rightSide.length) - crossing.length;
    if (!best || score > best.score || (score === best.score && width > best.width)) {
      best = { left, right: rightSide, crossing, gutter: (leftEdge + edge) / 2, width, score };
    }
  }
  return best && { left: best.left, right: best.right, crossing: best.crossing, gutter: best.gutter };
}

/**
 * The language of most of the letters of the blocks of at least `minLetters` letters; null when
 * there are none, or it holds less than `SIDE_PURITY` of them.
 */
export function sideLanguage(blocks: readonly Block[], minLetters: number): string | null {
  const letters = new Map<string, number>();
  let total = 0;
  for (const block of blocks) {
    const n = letterCount(block.text);
    if (n < minLetters) continue;
    letters.set(block.lang!, (letters.get(block.lang!) ?? 0) + n);
    total += n;
  }
  const [lang, n] = [...letters.entries()].sort((x, y) => y[1] - x[1])[0] ?? ['', 0];
  return total > 0 && n / total >= PARALLEL.SIDE_PURITY ? lang : null;
}

/** The group sizes a bead may have: [left blocks, right blocks]. */
const BEADS: readonly (readonly [number, number])[] = [[1, 1], [1, 2], [2, 1], [1, 3], [3, 1]];

/**
 * The monotone alignment of two sides' blocks (each in vertical order) that costs least, as
 * groups; null when none covers both (one side more than three times the other).
 */
export function alignSides(left: readonly Block[], right: readonly Block[]): { groups: ParallelGroup[]; match: number } | null {
  const span = (side: readonly Block[]) => {
    const top = Math.min(...side.map((b) => b.box.y));
    const height = Math.max(1e-6, Math.max(...side.map(bottom)) - top);
    return (blocks: readonly Block[]): [number, number] => [
      (Math.min(...blocks.map((b) => b.box.y)) - top) / height,
      (Math.max(...blocks.map(bottom)) - top) / height,
    ];
  };
  const leftSpan = span(left);
  const rightSpan = span(right);
  const overlap = (a: [number, number], b: [number, number]): number => {
    const inter = Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
    const union = Math.max(a[1], b[1]) - Math.min(a[0], b[0]);
    return union > 0 ? Math.max(0, inter) / union : 0;
  };
  const n = left.length;
  const m = right.length;
  // cost[i][j]: the best alignment of the first i left and j right blocks; from[i][j] its last bead.
  const cost = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  const from = Array.from({ length: n + 1 }, () => new Array<readonly [number, number] | null>(m + 1).fill(null));
  const fit = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  cost[0]![0] = 0;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      for (const bead of BEADS) {
        const [di, dj] = bead;
        if (i < di || j < dj || cost[i - di]![j - dj] === Infinity) continue;
        const o = overlap(leftSpan(left.slice(i - di, i)), rightSpan(right.slice(j - dj, j)));
        const c = cost[i - di]![j - dj]! + 1 - o + PARALLEL.SPLIT_COST * (di + dj - 2);
        if (c < cost[i]![j]!) {
          cost[i]![j] = c;
          from[i]![j] = bead;
          fit[i]![j] = o;
        }
      }
    }
  }
  if (cost[n]![m] === Infinity) return null;
  const groups: ParallelGroup[] = [];
  let total = 0;
  for (let i = n, j = m; i > 0 || j > 0; ) {
    const [di, dj] = from[i]![j]!;
    total += fit[i]![j]!;
    groups.unshift({ a: left.slice(i - di, i), b: right.slice(j - dj, j) });
    i -= di;
    j -= dj;
  }
  return { groups, match: total / groups.length };
}

/**
 * The parallel groups of one page, in vertical order (pure; the blocks are not changed).
 * `minLetters`: the fewest letters of a block whose language counts (langid's own minimum).
 */
export function parallelGroups(page: Pick<PageRecord, 'blocks'>, minLetters = 20): ParallelGroup[] {
  const blocks = (page.blocks ?? []).filter(candidate);
  const split = splitAtGutter(blocks);
  if (!split) return [];
  // Bands: the stretches between blocks that cross the gutter.
  const cuts = split.crossing.map(middleY).sort((x, y) => x - y);
  const band = (block: Block): number => cuts.filter((y) => y < middleY(block)).length;
  const groups: ParallelGroup[] = [];
  for (let k = 0; k <= cuts.length; k++) {
    const byY = (x: Block, y: Block): number => x.box.y - y.box.y;
    const left = split.left.filter((b) => band(b) === k).sort(byY);
    const right = split.right.filter((b) => band(b) === k).sort(byY);
    if (left.length === 0 || right.length === 0) continue;
    const langA = sideLanguage(left, minLetters);
    const langB = sideLanguage(right, minLetters);
    if (!langA || !langB || langA === langB) continue;
    const heightOf = (side: Block[]): number => Math.max(...side.map(bottom)) - Math.min(...side.map((b) => b.box.y));
    const [short, tall] = [heightOf(left), heightOf(right)].sort((x, y) => x - y);
    if (short! < PARALLEL.MIN_EXTENT_RATIO * tall!) continue;
    const aligned = alignSides(left, right);
    if (!aligned || aligned.match < PARALLEL.MIN_ROW_MATCH) continue;
    groups.push(...aligned.groups);
  }
  return groups;
}

/**
 * Marks the parallel blocks of a document's pages with `parallel: {group, side}`, groups numbered
 * from 1 across the document in page and vertical order (the blocks are changed in place: the
 * langid core passes its own copies). Returns the number of groups.
 */
export function markParallel(pages: readonly Pick<PageRecord, 'blocks'>[], minLetters = 20): number {
  let group = 0;
  for (const page of pages) {
    for (const pair of parallelGroups(page, minLetters)) {
      group++;
      for (const block of pair.a) block.parallel = { group, side: 'a' };
      for (const block of pair.b) block.parallel = { group, side: 'b' };
    }
  }
  return group;
}
