/**
 * Note reference marks: the raised small digit or note symbol set right after a word ("State¹.",
 * "dignity³,") and the label the note itself opens with at the foot of the page. Left in the text
 * they glue to their words ("State1.") and to the note's first word ("1The"). A mark is found by
 * its geometry, relative to its own row: set smaller than the row's text, its baseline raised above
 * the row's, touching the end of a word. A raised digit is also an exponent or an index in a
 * formula ("x²"), so a digit is taken for a mark only when a note on the same page, below it and
 * set smaller, opens with the same label; a note symbol (* † ‡ § ¶ ‖) is a mark wherever it stands.
 * In a right-to-left row the mark stands on the left of its word (but on the right of a word of a
 * left-to-right script) and the note's label at its right end; digits are of any script ("۱").
 *
 *   … the State¹. The …        ← the mark: small, raised, touching "State"
 *   ──────
 *   ¹The wording follows …     ← the note: smaller print below, opening with the same label
 */
import type { Item } from '../protocol/records.js';
import { lineDirection, median, right } from './geometry.js';

/** A mark is set at most this × its row's median size… */
export const MARK_SIZE = 0.9;
/** …its baseline raised at least this × the row's median size above the row's… */
export const MARK_RAISE = 0.15;
/** …and it starts at most this × the row's size after the end of the run before it. */
export const MARK_GAP = 0.2;
/** A note is set at most this × the size of the row whose mark points to it. */
export const NOTE_SIZE = 0.95;

/** What a mark may say: a number of up to three digits (of any script: "۱"), or one to three note symbols. */
const MARK_TEXT = /^(?:\p{Nd}{1,3}|[*\u2020\u2021\u00a7\u00b6\u2016]{1,3})$/u;
/** What a note's label may say standing alone: a mark's text, maybe with a full stop ("1."). */
const LABEL_TEXT = /^(\p{Nd}{1,3}|[*\u2020\u2021\u00a7\u00b6\u2016]{1,3})\.?$/u;
/** A note symbol is a mark by itself; digits need a note to point to. */
const NOTE_SYMBOL = /^[*\u2020\u2021\u00a7\u00b6\u2016]+$/u;
/** A note's label glued at normal size to its first word ("1The"), or standing apart ("1 The"). */
const GLUED_LABEL = /^(\d{1,3}|[*\u2020\u2021\u00a7\u00b6\u2016]{1,3})\.?(?=\s*\p{Lu})/u;

/** A row's runs, left to right. */
export interface MarkRow {
  items: Item[];
}

/** The marks found on a page. */
export interface NoteMarks {
  /** Runs that are reference marks, by run; the value is the label. */
  refs: Map<Item, string>;
  /** Runs that open a note with its label: the run, the label, and the run's text without it ('' when the run is the label alone). */
  labels: Map<Item, { label: string; rest: string }>;
}

interface Measured {
  row: MarkRow;
  size: number;
  base: number;
}

function measure(row: MarkRow): Measured {
  const size = median(row.items.map((item) => item.size));
  const body = row.items.filter((item) => item.size > MARK_SIZE * size);
  return { row, size, base: median((body.length > 0 ? body : row.items).map((item) => item.y)) };
}

const raised = (item: Item, m: Measured): boolean => item.size <= MARK_SIZE * m.size && item.y <= m.base - MARK_RAISE * m.size;

/**
 * The label a row opens with, if it opens like a note: a raised label, or a label glued to a
 * capital. A right-to-left row opens at its right end.
 */
function openingLabel(m: Measured): { item: Item; label: string; rest: string } | null {
  const first = lineDirection(m.row.items) === 'rtl' ? m.row.items.reduce<Item | undefined>((a, b) => (a && a.x + a.w >= b.x + b.w ? a : b), undefined) : m.row.items[0];
  if (!first) return null;
  const text = first.text.trim();
  if (raised(first, m) && MARK_TEXT.test(text) && m.row.items.length > 1) return { item: first, label: text, rest: '' };
  const glued = GLUED_LABEL.exec(text);
  if (glued) return { item: first, label: glued[1]!, rest: text.slice(glued[0].length).trimStart() };
  const alone = LABEL_TEXT.exec(text);
  if (alone && m.row.items.length > 1) return { item: first, label: alone[1]!, rest: '' };
  return null;
}

/**
 * Finds the reference marks of one page's rows (every block's, in any order) and the note labels
 * they point to. Pure: the runs are not changed.
 */
export function findNoteMarks(rows: readonly MarkRow[]): NoteMarks {
  const refs = new Map<Item, string>();
  const labels = new Map<Item, { label: string; rest: string }>();
  if (!rows.some((row) => row.items.some((item) => MARK_TEXT.test(item.text.trim())))) return { refs, labels };
  const measured = rows.filter((row) => row.items.length > 0).map(measure);
  const openings = measured.map((m) => ({ m, opening: openingLabel(m) })).filter((o) => o.opening !== null);
  for (const m of measured) {
    const items = [...m.row.items].sort((a, b) => a.x - b.x);
    const rtl = lineDirection(m.row.items) === 'rtl';
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const label = item.text.trim();
      if (!MARK_TEXT.test(label) || !raised(item, m)) continue;
      // The word the mark follows: on its left, or, in a right-to-left row, on its right (a word
      // of a left-to-right script there keeps its mark on its right: "WYSIWYG¹").
      const before = items[i - 1];
      const after = items[i + 1];
      const follows =
        before !== undefined && !raised(before, m) && /[\p{L}\p{M}\p{P}]$/u.test(before.text) && item.x - right(before) <= MARK_GAP * m.size && (!rtl || before.dir !== 'rtl');
      const precedes =
        rtl && after !== undefined && !raised(after, m) && /^[\p{L}\p{M}\p{P}]/u.test(after.text) && after.x - right(item) <= MARK_GAP * m.size;
      if (!follows && !precedes) continue;
      const note = openings.find(
        (o) => o.m !== m && o.opening!.label === label && o.m.base > m.base && o.m.size <= NOTE_SIZE * m.size,
      );
      if (!note && !NOTE_SYMBOL.test(label)) continue;
      refs.set(item, label);
      if (note) labels.set(note.opening!.item, { label, rest: note.opening!.rest });
    }
  }
  return { refs, labels };
}
