/**
 * The decision at one break between two paragraphs: the rules, the language model, pdf2xml's
 * rule and its extensions (`decide`), and the shape of the left paragraph's last line that it
 * weighs — full to the far edge, short, or measured against its column (`measuredFull`) — and,
 * inside one layout block, whether a split cut a sentence (`splitMidSentence`).
 */
import { applyJoinRules, type JoinRules } from './join-rules.js';
import { joinMargin, type JoinModel } from '../lm/join-model.js';
import type { Block, Line, PageRecord } from '../protocol/records.js';
import { firstSegment } from './split.js';

/** The language model's threshold and context, as `decide` reads them. */
export interface LmOptions {
  /** Join when the model's margin (log10 odds of running on) is above this. */
  lmThreshold: number;
  /** Words of context on each side of the break given to the model. */
  lmContext: number;
}

/** What `decide` reads: the rules and the model loaded, and the model's threshold and context. */
export interface DecideOptions extends LmOptions {
  rules: JoinRules;
  model: JoinModel | null;
}

/** A join decision for one break. */
export interface JoinDecision {
  join: boolean;
  rule: string;
  joiner: string;
}

const SENTENCE_FINAL = /[.!?\u2026\u3002\uff01\uff1f\u0964\u0965\u061f\u06d4\u037e]['"\u2019\u201d\u00bb)\]]*$/u;
const STARTS_LOWER = /^['"\u2018\u201c\u00ab(]*\p{Ll}/u;
const STARTS_UNCASED = /^['"\u2018\u201c\u00ab(]*[\p{L}\p{M}]/u;
const HAS_CASE = /[\p{Lu}\p{Ll}]/u;

/** `full`: to the far edge; `short`: shorter than every other line; `between`: neither. */
export type LastLine = 'full' | 'short' | 'between' | null;

/** Everything `decide` needs to know about the left side of a break. */
export interface BreakContext {
  /** Language whose rules apply. */
  lang: string;
  /** How the left paragraph's last line ends (null when unknown: one line, or lines not matched). */
  lastLine: LastLine;
  /** False when the font size changes across the break (a paragraph keeps its size). */
  sameSize?: boolean;
}

/** The join decision for left and right text across a break (pure). */
export function decide(left: string, right: string, context: BreakContext, options: DecideOptions): JoinDecision {
  const l = left.trim();
  const r = right.trim();
  const verdict = applyJoinRules(options.rules, context.lang, l, r);
  if (verdict && !verdict.join) return { join: false, rule: verdict.rule, joiner: ' ' };
  // Text fills its lines until a paragraph ends: a short last line ended the paragraph.
  if (context.lastLine === 'short') return { join: false, rule: 'short-line', joiner: ' ' };
  if (context.sameSize === false) return { join: false, rule: 'size-change', joiner: ' ' };
  if (verdict) return { join: verdict.join, rule: verdict.rule, joiner: verdict.join ? verdict.joiner : ' ' };
  if (options.model) {
    const margin = joinMargin(options.model, l, r, options.lmContext);
    return { join: margin > options.lmThreshold, rule: 'lm', joiner: ' ' };
  }
  if (SENTENCE_FINAL.test(l)) return { join: false, rule: 'sentence-end', joiner: ' ' };
  const first = /[\p{L}\p{M}]/u.exec(r)?.[0] ?? '';
  if (HAS_CASE.test(first)) {
    if (STARTS_LOWER.test(r)) return { join: true, rule: 'pdf2xml', joiner: ' ' };
    // A capital after a cut-off last line: a name or a noun carrying on the sentence.
    // (Or after a letter of a script without case: Hebrew text running on into a Latin name.)
    return { join: context.lastLine === 'full' && /[\p{Ll}\p{Lo}]\p{M}*$/u.test(l), rule: 'full-line', joiner: ' ' };
  }
  return { join: STARTS_UNCASED.test(r) && context.lastLine === 'full', rule: 'pdf2xml-uncased', joiner: ' ' };
}

/** Each block's lines, recovered from the page's lines and the blocks' line counts (null when they disagree). */
export function linesOfBlocks(page: PageRecord): Line[][] | null {
  const lines = page.lines ?? [];
  const blocks = page.blocks ?? [];
  if (blocks.reduce((n, b) => n + b.lines, 0) !== lines.length) return null;
  let at = 0;
  return blocks.map((b) => lines.slice(at, (at += b.lines)));
}

/**
 * How a paragraph's last line ends, from its own lines (null when it has fewer than two):
 *
 *   ┌──────────────────────┐
 *   │ text text text text  │   full: the last line reaches the block's far edge (within
 *   │ text text text text ─┼─→ `fullLine` × size): the break cut the paragraph.
 *   │ text text text te    │   short: it stops before the shortest of the other lines
 *   │ text text            │   (ragged text sets its own bar): the paragraph ended there.
 *   └──────────────────────┘
 */
export function lineShape(block: Block, lines: readonly Line[] | undefined, fullLine: number): LastLine {
  if (!lines || lines.length < 2) return null;
  const last = lines[lines.length - 1]!;
  const others = lines.slice(0, -1);
  const tolerance = fullLine * block.size;
  if (block.dir === 'rtl') {
    if (last.box.x <= block.box.x + tolerance) return 'full';
    return last.box.x > Math.max(...others.map((l) => l.box.x)) + tolerance ? 'short' : 'between';
  }
  const end = last.box.x + last.box.w;
  if (end >= block.box.x + block.box.w - tolerance) return 'full';
  return end < Math.min(...others.map((l) => l.box.x + l.box.w)) - tolerance ? 'short' : 'between';
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * A last line that the column's measure shows was cut, not ended: when its own lines cannot tell
 * (one line, or a last line neither at the block's edge nor short), the line is measured against
 * its column — the lines that wrapped (all but the last of each body paragraph) on its page and
 * in the paragraph after the break, among them those that start where it starts (within
 * `2 × size`, so a first-line indent still counts). It is full when it ends
 * within `fullLine × size` of the column's far edge, or when the first word after the break
 * would not have fitted in the room it leaves (the line broke for want of room). This needs no
 * case and no punctuation: it holds for Thai, Devanagari, Arabic and CJK as for Latin text.
 *
 *   |text text text text text text |  ← far edge: the farthest end of the column's lines
 *   |text text text text text tex  |
 *   |the page's last line      ]   |  room = edge − end; "nextword" wider than the room → full
 *   ----------- break ------------
 *   |nextword text text text text  |
 *
 * Needs one other line of the column; null when there is none.
 */
export function measuredFull(last: Line, column: readonly Line[], next: Line | undefined, fullLine: number): boolean | null {
  const rtl = last.dir === 'rtl';
  const start = (l: Line): number => (rtl ? l.box.x + l.box.w : l.box.x);
  const end = (l: Line): number => (rtl ? -l.box.x : l.box.x + l.box.w);
  const slack = 2 * last.size;
  let edge = end(last);
  let others = 0;
  for (const line of column) {
    if (line === last || line.dir !== last.dir || Math.abs(start(line) - start(last)) > slack) continue;
    others++;
    edge = Math.max(edge, end(line));
  }
  if (others === 0) return null;
  const room = edge - end(last);
  if (room <= fullLine * last.size) return true;
  const text = next?.text.trim() ?? '';
  if (!next || text.length === 0 || Math.abs(next.size - last.size) > 0.15 * last.size) return false;
  const unspaced = UNSPACED.test(text[0] ?? '');
  const word = unspaced ? firstSegment(text) : text.split(/\s+/u)[0] ?? '';
  const perChar = next.box.w / [...text].length;
  return room < ([...word].length + (unspaced ? 0 : 1)) * perChar;
}

/**
 * Lines that wrapped: all but the last line of each body paragraph of two lines or more, that
 * start at the paragraph's edge (within `2 × size`: a first-line indent), unlike a heading run
 * into the paragraph below it.
 */
export function measureLines(blocks: readonly Block[], lines: Line[][] | null): Line[] {
  const out: Line[] = [];
  blocks.forEach((block, index) => {
    const own = lines?.[index];
    if (!joinable(block) || !own || own.length < 2) return;
    const edge = block.dir === 'rtl' ? block.box.x + block.box.w : block.box.x;
    for (const line of own.slice(0, -1)) {
      const start = line.dir === 'rtl' ? line.box.x + line.box.w : line.box.x;
      if (Math.abs(start - edge) <= 2 * line.size) out.push(line);
    }
  });
  return out;
}

/** A one-line paragraph measured against the paragraph after the break (same column width). */
export function singleLineShape(left: Block, right: Block, fullLine: number): LastLine {
  if (left.lines !== 1 || right.lines < 2) return null;
  const tolerance = fullLine * left.size;
  if (left.dir === 'rtl') return left.box.x <= right.box.x + tolerance ? 'full' : null;
  return left.box.x + left.box.w >= right.box.x + right.box.w - tolerance ? 'full' : null;
}

/** A block that can join or be joined: body text. */
export const joinable = (block: Block): boolean => block.role === 'body';

/** What `splitMidSentence` reads: the rules and the full-line tolerance. */
export interface MidSentenceOptions {
  rules: JoinRules;
  fullLine: number;
}

/**
 * Inside one layout block, `paragraphs` owns the split; join only mends a split that cut a
 * sentence in a cased script: the left part lacks sentence-final punctuation, the right part
 * starts lowercase, and the left part's last line runs to the edge (of its own lines, or of the
 * right part's when it has one line).
 */
export function splitMidSentence(left: Block, lines: readonly Line[] | undefined, right: Block, options: MidSentenceOptions): boolean {
  const l = left.text.trim();
  if (SENTENCE_FINAL.test(l) || !/\p{Ll}$|[,;]$/u.test(l) || !STARTS_LOWER.test(right.text.trim())) return false;
  if (applyJoinRules(options.rules, 'common', l, right.text.trim())?.join === false) return false;
  const last = lineShape(left, lines, options.fullLine);
  if (last !== null) return last === 'full';
  const tolerance = options.fullLine * left.size;
  return left.dir !== 'rtl' && left.box.x + left.box.w >= right.box.x + right.box.w - tolerance;
}
