/**
 * Right-to-left fixes on a page's items, once PDFium's characters have become items: a bracket
 * alone in its run that PDFium mirrored is mirrored back, and marks drawn as runs of their own are
 * put on the line of the letters they sit on. Pure functions over items.
 */
import type { Direction, Item } from '../../protocol/records.js';
import { BASELINE_EM, LETTER, RTL_CHAR, unmirroredByPdfium, type Glyph } from './runs.js';

/** An item's direction for PDFium's line analysis: right-to-left letters, else other letters, else none (digits are weak there: they keep the direction before them). */
function strongOf(item: Item): Direction | null {
  if (item.dir === 'rtl' && RTL_CHAR.test(item.text)) return 'rtl';
  return LETTER.test(item.text) ? 'ltr' : null;
}

/** A run of a few punctuation marks and symbols, no letter or digit. */
export const PUNCTUATION_RUN = /^[\p{P}\p{S}]{2,3}$/u;

/** Whether a run's glyphs were drawn left to right (PDFium kept their order: it read them left to right). */
export function drawnForward(glyphs: readonly Glyph[] | undefined): boolean {
  const first = glyphs?.[0];
  const last = glyphs?.at(-1);
  return first !== undefined && last !== undefined && first.horizontal && first.ox < last.ox;
}

/**
 * A bracket that is a run of its own was mirrored by PDFium when PDFium read it in a right-to-left
 * stretch (glyphOrderText mirrors back those inside longer runs). Items come in PDFium's order, so
 * both show: the line is read right to left there (the item before it on its line lies to its
 * right, or the one after it to its left), and the last item before it on the line with letters
 * is right-to-left text (with none before it, the line holds right-to-left text). After a
 * left-to-right word PDFium keeps a bracket as drawn: "(january)" in an Arabic line comes as
 * ")" "january" "(" from right to left, only the first mirrored.
 */
export function loneBracketsInGlyphOrder(items: readonly Item[], wasDrawnForward: (item: Item) => boolean = () => false): Item[] {
  const sameLine = (a: Item, o: Item | undefined): o is Item => o !== undefined && Math.abs(o.y - a.y) <= BASELINE_EM * a.size;
  return items.map((item, i) => {
    // A bracket alone (brackets are single UTF-16 units), or with the punctuation beside it in a run
    // drawn left to right, its characters as drawn (cairo's "(." after the word a parenthesis ends).
    if (item.text.length !== 1 && !(PUNCTUATION_RUN.test(item.text) && wasDrawnForward(item))) return item;
    const mirrored = [...item.text].map((c) => unmirroredByPdfium(c) ?? c).join('');
    if (mirrored === item.text) return item;
    const before = items[i - 1];
    const after = items[i + 1];
    const leftward = (sameLine(item, before) && before.x > item.x) || (sameLine(item, after) && after.x < item.x);
    if (!leftward) return item;
    let context: Direction | null = null;
    for (let j = i - 1; j >= 0 && context === null && sameLine(item, items[j]); j--) context = strongOf(items[j]!);
    for (let j = i + 1; context === null && sameLine(item, items[j]); j++) if (strongOf(items[j]!) === 'rtl') context = 'rtl';
    return context === 'rtl' ? { ...item, text: mirrored } : item;
  });
}

/** A run of right-to-left combining marks only (harakat, Hebrew points). */
const RTL_MARKS_ONLY = /^[\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff]+$/u;
const RTL_MARK = /[\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff]/u;
const RTL_MARKS = new RegExp(RTL_MARK.source, 'gu');

/** A run with a right-to-left mark, or of marks alone. */
function isPointed(text: string): boolean {
  return RTL_MARKS_ONLY.test(text) || (RTL_MARK.test(text) && RTL_CHAR.test(text.replace(RTL_MARKS, '')));
}

/** A shifted run of pointed letters may stand this far (× em) beside the run whose line it takes. */
const CLUSTER_REACH_EM = 0.25;

/**
 * A mark drawn as a glyph of its own has its own origin, which some generators raise or lower to
 * place the mark (XeTeX's tanween sits about 0.25 em above the line): PDFium reports that origin,
 * while pdf.js gives the baseline of the text the mark was drawn with. PDFium also gives a letter
 * drawn with its marks as one glyph the origin of its first mark (a lam under a raised sukun
 * stands 0.27 em high), and a run that starts with it that baseline. A run of right-to-left marks
 * only is put on the baseline of the letters it is drawn over (the nearest run within half an em
 * above or below that it overlaps); a run of pointed letters on the page's most used baseline among
 * the runs it touches (within CLUSTER_REACH_EM em) that lie within half an em of its own, when that
 * baseline holds more text than its own: so marks stay on their letters' line, and `lines` can put
 * them after their letter.
 */
export function rightToLeftMarksOnTheirLine(items: readonly Item[]): Item[] {
  const weight = new Map<number, number>();
  for (const item of items) weight.set(item.y, (weight.get(item.y) ?? 0) + item.text.length);
  return items.map((run) => {
    if (!isPointed(run.text)) return run;
    const marksOnly = RTL_MARKS_ONLY.test(run.text);
    const reach = marksOnly ? 0 : CLUSTER_REACH_EM * run.size;
    let host: Item | undefined;
    for (const o of items) {
      if (o === run || RTL_MARKS_ONLY.test(o.text) || o.x > run.x + run.w + reach || o.x + o.w < run.x - reach) continue;
      const dy = Math.abs(o.y - run.y);
      if (dy > 0.5 * Math.max(o.size, run.size)) continue;
      const better = !host || (marksOnly ? dy < Math.abs(host.y - run.y) : weight.get(o.y)! > weight.get(host.y)!);
      if (better) host = o;
    }
    if (!host || host.y === run.y || (!marksOnly && weight.get(host.y)! <= weight.get(run.y)!)) return run;
    return { ...run, y: host.y };
  });
}
