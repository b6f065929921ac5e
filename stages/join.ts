/**
 * join: decides, at every page, column or box break, whether the paragraph after the break runs
 * on from the one before it (one sentence, one paragraph) — and writes the decision as the block's
 * `continues`, with the rule that made it (`joinRule`) and what goes between (`joiner`).
 *
 * `paragraphs` guesses run-ons with a loose test; join re-decides every pair of body paragraphs
 * separated by a break, in this order:
 *   0. a left paragraph whose last line stops short of its other lines ended there, and a change
 *      of font size (by more than `joinSizeChange`) starts a new paragraph (no join; `absolute_eof`
 *      rules come first, the size before `join_words`);
 *   1. rules in PDFExtract's configuration format (lib/paragraphs/join-rules.ts): `absolute_eof` forbids a
 *      join, `join_words` makes one — the set of the pair's language first, then `common`;
 *   2. with a language model (`joinLm`: an ARPA file read in-process, a KenLM binary model scored
 *      by KenLM's `query` as the resegment stage does, or any model given to the library), the
 *      margin of running on over a sentence break (lib/lm/join-model.ts) against `lmThreshold`;
 *   3. without one, pdf2xml's rule: join when the left part lacks sentence-final punctuation and
 *      the right part starts lowercase. Beyond pdf2xml, a right part that starts with a capital
 *      or in a script without case joins when the left paragraph's last line runs to its far edge
 *      (the break cut it; it did not end) and, for a capital, the left ends in a lowercase letter
 *      or one of a script without case. Where the paragraph's own lines cannot tell whether its
 *      last line is full (one line, or a ragged end), the column's measure does (`measuredFull`):
 *      the line is full when the first word after the break would not have fitted at its end.
 *   4. where paragraphs start with an indent (`indentsParagraphs`), a full line that ends a
 *      sentence before a flush line runs on (`unindented`): the break fell after a sentence.
 * A display formula (`displayFormula`) joins the paragraph before it (`formula`); after one,
 * the paragraphs stage's decision stands.
 * Headings, list items, footnotes and page furniture never join, and furniture between two body
 * paragraphs (a running header) does not separate them. A short block repeated at the top or
 * foot of several pages is a running head that `order` missed: join gives it the role `header`
 * or `footer`, so that it drops out of text like other furniture. Inside one layout block, where
 * `paragraphs` decides, join only mends a split that cut a sentence (`within`).
 *
 * Works per document: a break can fall between pages.
 */
import { asyncDocumentTransform, documentTransform, ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { applyJoinRules, defaultJoinRules, JoinConfigError, loadJoinRules, type JoinRules } from '../lib/paragraphs/join-rules.js';
import { joinMargin, SentenceScores, type JoinModel } from '../lib/lm/join-model.js';
import { ArpaModel, ModelError, openModel, type LanguageModel } from '../lib/lm/models.js';
import { DEFAULT_CANDIDATES, identify, isKnownLanguage, toFrancCode, toIso6391 } from '../lib/lang/identify.js';
import { diagnostic, FURNITURE_ROLES, type Block, type DiagnosticRecord, type Line, type PageRecord } from '../lib/protocol/records.js';

export interface JoinOptions {
  /** A rules file in PDFExtract.json's format; '' uses pdfpipe's built-in rules. */
  joinRules: string;
  /** Language whose rules apply when blocks carry no `lang`; '' detects the document's. */
  joinLang: string;
  /** An n-gram model for the join decision (ARPA text, or a KenLM binary model through `query`); '' decides without a model. */
  joinLm: string;
  /** Join when the model's margin (log10 odds of running on) is above this. */
  lmThreshold: number;
  /** Words of context on each side of the break given to the model. */
  lmContext: number;
  /** A last line ending within this × font size of the paragraph's far edge is full. */
  fullLine: number;
  /** Also mend paragraph splits inside a layout block that cut a sentence. */
  within: boolean;
  /** A change of font size by more than this fraction across a break ends the paragraph. */
  joinSizeChange: number;
}

export const DEFAULTS: JoinOptions = { joinRules: '', joinLang: '', joinLm: '', lmThreshold: 0, lmContext: 3, fullLine: 1.5, within: true, joinSizeChange: 0.05 };

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'joinRules', type: 'string', description: "join rules in PDFExtract.json's format ('' = built-in)" },
  { key: 'joinLang', type: 'string', description: "language of the join rules when blocks have none ('' = detect)" },
  { key: 'joinLm', type: 'string', description: "n-gram model for join decisions: ARPA file, or KenLM binary through `query` ('' = rules only)" },
  { key: 'lmThreshold', type: 'number', description: 'join when the log10 odds of running on exceed this' },
  { key: 'lmContext', type: 'number', min: 1, description: 'words of context on each side of a break for the model' },
  { key: 'fullLine', type: 'number', min: 0, description: "a last line this close to the paragraph's edge (× font size) is full" },
  { key: 'within', type: 'boolean', description: 'also mend splits inside a layout block that cut a sentence' },
  { key: 'joinSizeChange', type: 'number', min: 0, description: 'change of font size across a break that ends the paragraph, fraction' },
];

/**
 * Options with the rules and model loaded (loading errors are usage errors: nothing can run). An
 * ARPA file is read in-process (`model`); any other model file is a KenLM binary model, scored by
 * KenLM's `query` in a child process (`sentenceModel`, asked in one batch per document).
 */
export interface ResolvedJoinOptions extends JoinOptions {
  rules: JoinRules;
  model: JoinModel | null;
  sentenceModel: LanguageModel | null;
}

type JoinInput = Partial<JoinOptions> & { rules?: JoinRules; model?: JoinModel | null; sentenceModel?: LanguageModel | null };

export function normalizeOptions(partial: JoinInput = {}): ResolvedJoinOptions {
  const options = ownOptions(DEFAULTS, partial);
  if (options.joinLang && !isKnownLanguage(options.joinLang)) {
    throw new UsageError(`Unknown language code "${options.joinLang}", expected ISO 639-1 or 639-3`);
  }
  let rules = partial.rules;
  let model = partial.model ?? null;
  let sentenceModel = partial.sentenceModel ?? null;
  try {
    rules ??= options.joinRules ? loadJoinRules(options.joinRules) : defaultJoinRules();
    if (!model && !sentenceModel && options.joinLm) {
      const lm = openModel(options.joinLm);
      if (lm instanceof ArpaModel) model = { forward: lm };
      else sentenceModel = lm;
    }
  } catch (error) {
    if (error instanceof JoinConfigError || error instanceof ModelError) throw new UsageError(error.message);
    throw error;
  }
  return { ...options, rules, model, sentenceModel };
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
export function decide(left: string, right: string, context: BreakContext, options: ResolvedJoinOptions): JoinDecision {
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
 *   ┌──────────────────────┐
 *   │ text text text text  │   full: the last line reaches the block's far edge (within
 *   │ text text text text ─┼─→ `fullLine` × size): the break cut the paragraph.
 *   │ text text text te    │   short: it stops before the shortest of the other lines
 *   │ text text            │   (ragged text sets its own bar): the paragraph ended there.
 *   └──────────────────────┘
 */
function lineShape(block: Block, lines: readonly Line[] | undefined, fullLine: number): LastLine {
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

const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });
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
  const word = unspaced ? WORDS.segment(text)[Symbol.iterator]().next().value?.segment ?? '' : text.split(/\s+/u)[0] ?? '';
  const perChar = next.box.w / [...text].length;
  return room < ([...word].length + (unspaced ? 0 : 1)) * perChar;
}

/**
 * Lines that wrapped: all but the last line of each body paragraph of two lines or more, that
 * start at the paragraph's edge (within `2 × size`: a first-line indent), unlike a heading run
 * into the paragraph below it.
 */
function measureLines(blocks: readonly Block[], lines: Line[][] | null): Line[] {
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
function singleLineShape(left: Block, right: Block, fullLine: number): LastLine {
  if (left.lines !== 1 || right.lines < 2) return null;
  const tolerance = fullLine * left.size;
  if (left.dir === 'rtl') return left.box.x <= right.box.x + tolerance ? 'full' : null;
  return left.box.x + left.box.w >= right.box.x + right.box.w - tolerance ? 'full' : null;
}

const joinable = (block: Block): boolean => block.role === 'body';

/**
 * Inside one layout block, `paragraphs` owns the split; join only mends a split that cut a
 * sentence in a cased script: the left part lacks sentence-final punctuation, the right part
 * starts lowercase, and the left part's last line runs to the edge (of its own lines, or of the
 * right part's when it has one line).
 */
function splitMidSentence(left: Block, lines: readonly Line[] | undefined, right: Block, options: ResolvedJoinOptions): boolean {
  const l = left.text.trim();
  if (SENTENCE_FINAL.test(l) || !/\p{Ll}$|[,;]$/u.test(l) || !STARTS_LOWER.test(right.text.trim())) return false;
  if (applyJoinRules(options.rules, 'common', l, right.text.trim())?.join === false) return false;
  const last = lineShape(left, lines, options.fullLine);
  if (last !== null) return last === 'full';
  const tolerance = options.fullLine * left.size;
  return left.dir !== 'rtl' && left.box.x + left.box.w >= right.box.x + right.box.w - tolerance;
}

/** The pure core: join decisions for one document. */
export function joinDocument(group: DocumentGroup, partial: JoinInput = {}): { pages: PageRecord[] } {
  const options = normalizeOptions(partial);
  const pages = group.pages.map((page) => ({ ...page, blocks: (page.blocks ?? []).map((b) => ({ ...b })) }));
  const docLang = documentLanguage(group, pages, options.joinLang);
  const repeated = repeatedBlocks(pages);
  const indents = indentsParagraphs(pages);
  let previous: { block: Block; lines: Line[] | undefined; page: number; layoutBlock: number | undefined; column: Line[] } | null = null;
  for (const page of pages) {
    const lines = linesOfBlocks(page);
    // The lines that set the page's measure: every line but the last of a paragraph of body text.
    const column = measureLines(page.blocks, lines);
    const trailing = trailingSmallBlocks(page.blocks);
    page.blocks.forEach((block, index) => {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote') return;
      // Furniture `order` missed (a repeated header) and small print at the foot of a page (notes
      // taken for list items) stand between two halves of a paragraph without separating them.
      // Debris (a stray mark or two, narrower than a letter) is no paragraph: pass over it.
      if (block.text.trim().length <= 3 && block.box.w < block.size && block.lines === 1) return;
      if (repeated.has(block)) {
        block.role = index < page.blocks.length / 2 ? 'header' : 'footer';
        block.continues = false;
        block.joinRule = 'running-head';
        return;
      }
      if (trailing.has(block)) {
        if (block.continues) block.continues = false;
        block.joinRule = 'note';
        return;
      }
      const own = lines?.[index];
      const layoutBlock = own?.[0]?.block;
      if (previous && joinable(block) && joinable(previous.block)) {
        const atBreak = previous.page !== page.page || block.continues || (layoutBlock !== undefined && layoutBlock !== previous.layoutBlock);
        // A display formula set as a block of its own, below text on the same page, belongs to the
        // paragraph around it as the paragraphs stage decided: its short lines end nothing.
        const besideFormula = previous.page === page.page && block.box.y >= previous.block.box.y && (formulaLike(block) || formulaLike(previous.block));
        if (displayFormula(block) && !formulaLike(previous.block) && (atBreak || options.within)) {
          // A display formula is part of the paragraph it is set in (its text says "[formula]").
          block.continues = true;
          block.joinRule = 'formula';
        } else if (atBreak && !besideFormula) {
          let lastLine = lineShape(previous.block, previous.lines, options.fullLine) ?? singleLineShape(previous.block, block, options.fullLine);
          const last = previous.lines?.[previous.lines.length - 1];
          if ((lastLine === null || lastLine === 'between') && last) {
            const after = joinable(block) ? measureLines([block], own ? [own] : null) : [];
            if (measuredFull(last, [...previous.column, ...after], own?.[0], options.fullLine)) lastLine = 'full';
          }
          // Sizes compare between two stretches of prose, not a subscript or formula left on its own.
          const sized = prose(previous.block) && !formulaLike(block);
          const sameSize = !sized || Math.abs(block.size - previous.block.size) <= options.joinSizeChange * Math.max(block.size, previous.block.size);
          const context = { lang: block.lang ?? previous.block.lang ?? docLang, lastLine, sameSize };
          const decision = decide(previous.block.text, block.text, context, options);
          // Where paragraphs start with an indent, a full line that ends a sentence before a line
          // that is not indented is a break inside a paragraph that fell after a sentence.
          if (decision.rule === 'sentence-end' && lastLine === 'full' && indents && unindented(block, own, column)) {
            decision.join = true;
            decision.rule = 'unindented';
          }
          block.continues = decision.join;
          block.joinRule = decision.rule;
          if (decision.join && decision.joiner !== ' ') block.joiner = decision.joiner;
        } else if (options.within && splitMidSentence(previous.block, previous.lines, block, options)) {
          block.continues = true;
          block.joinRule = 'within';
        }
      } else if (block.continues) {
        block.continues = false;
        block.joinRule = 'not-body';
      }
      previous = { block, lines: own ?? undefined, page: page.page, layoutBlock: own?.[own.length - 1]?.block, column };
    });
  }
  return { pages };
}

/**
 * A display formula: formula-like without the words of a sentence (at most one lowercase word of
 * 3+ letters), or short and without a letter or digit (symbols, or math glyphs without Unicode).
 */
export function displayFormula(block: Block): boolean {
  const text = block.text.trim();
  if (text.length > 0 && text.length <= 160 && !/[\p{L}\p{N}]/u.test(text)) return true;
  return formulaLike(block) && text.split(/\s+/u).filter((t) => /^\p{Ll}{3,}[.,;:]?$/u.test(t)).length <= 1;
}

/** Start of a line on the side where its text begins (the right for right-to-left text). */
const startOf = (line: Line): number => (line.dir === 'rtl' ? -(line.box.x + line.box.w) : line.box.x);

/**
 * Whether a paragraph's first line is set in from its second by more than half a font size (and at
 * most 4 × size, an indent's width); null when the lines do not tell (one line, or starts that
 * differ too much for an indent: a centred or broken line).
 */
function indentOf(lines: readonly Line[]): boolean | null {
  const [first, second] = lines;
  if (!first || !second || first.dir !== second.dir) return null;
  const indent = startOf(first) - startOf(second);
  if (indent > 4 * first.size || indent < -0.5 * first.size) return null;
  return indent > 0.5 * first.size;
}

/**
 * Whether the document starts its paragraphs with an indent: at least five of its body paragraphs
 * of two lines or more, and a quarter of them, have an indented first line (not most: the halves
 * after a break, the text after a formula, references and captions start flush). Then an
 * unindented first line after a break continues a paragraph.
 */
export function indentsParagraphs(pages: readonly PageRecord[]): boolean {
  let indented = 0;
  let counted = 0;
  for (const page of pages) {
    const lines = linesOfBlocks(page);
    (page.blocks ?? []).forEach((block, index) => {
      const own = lines?.[index];
      if (!joinable(block) || !own) return;
      const indent = indentOf(own);
      if (indent === null) return;
      counted++;
      if (indent) indented++;
    });
  }
  return indented >= 5 && indented >= 0.25 * counted;
}

/**
 * The paragraph after a break starts flush: its first line is not set in from its second, or, for
 * a paragraph of one line, from the lines of its column on the page (within `3 × size` of it).
 */
function unindented(block: Block, lines: readonly Line[] | undefined, column: readonly Line[]): boolean {
  if (!joinable(block) || !lines?.[0]) return false;
  const own = indentOf(lines);
  if (own !== null) return !own;
  const first = lines[0];
  const near = column.filter((l) => l !== first && l.dir === first.dir && Math.abs(startOf(l) - startOf(first)) <= 3 * first.size);
  return near.length > 0 && near.every((l) => startOf(first) - startOf(l) <= 0.5 * first.size);
}

/** A block of running text: not formula-like, and at least 20 letters. */
function prose(block: Block): boolean {
  return !formulaLike(block) && /(?:[^\p{L}]*\p{L}){20}/u.test(block.text);
}

/**
 * A block that reads as a display formula: short, and mostly symbols, digits and one-letter
 * variables rather than words ("Sq = k", "1 − pi q − 1", "(3)").
 */
export function formulaLike(block: Block): boolean {
  const text = block.text.trim();
  if (text.length === 0 || text.length > 160 || block.lines > 4) return false;
  const tokens = text.split(/\s+/u);
  const words = tokens.filter((t) => /^[\p{L}\p{M}]{3,}[.,;:]?$/u.test(t)).length;
  if (/[=<>≤≥±−∑∏∫√∞∂≈≠→]|^\(\d+[a-z]?\)$/u.test(text)) return words <= tokens.length / 2;
  // Or nothing but one- and two-character Latin, Greek or digit tokens: "P q", "X", "i 2".
  return tokens.every((t) => /^[\p{Script=Latin}\p{Script=Greek}\d()]{1,2}$/u.test(t));
}

/** Short first or last blocks of a page whose text comes back on other pages: running heads and feet. */
export function repeatedBlocks(pages: readonly { page: number; blocks: Block[] }[]): Set<Block> {
  // Exact text: with numbers folded, section titles ("Article 7", "Article 9") would match.
  const key = (b: Block): string => b.text.toLowerCase().replace(/\s+/gu, ' ').trim();
  const seen = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const block of page.blocks) {
      if (block.text.length > 80 || block.lines > 2) continue;
      const pagesOf = seen.get(key(block)) ?? new Set<number>();
      pagesOf.add(page.page);
      seen.set(key(block), pagesOf);
    }
  }
  const out = new Set<Block>();
  for (const page of pages) {
    // Only at the top or the foot of the page, where running heads and feet stand.
    const content = page.blocks.filter((b) => !FURNITURE_ROLES.has(b.role) && b.role !== 'footnote');
    for (const block of [content[0], content[content.length - 1]]) {
      if (!block || block.role === 'heading' || block.text.length > 80 || block.lines > 2) continue;
      if ((seen.get(key(block))?.size ?? 0) >= 2) out.add(block);
    }
  }
  return out;
}

/** Blocks after a page's last body paragraph set smaller than it: notes, whatever role they got. */
export function trailingSmallBlocks(blocks: readonly Block[]): Set<Block> {
  const out = new Set<Block>();
  const body = blocks.filter((b) => b.role === 'body');
  if (body.length === 0) return out;
  // The body size: the size that carries most of the page's body text.
  const weight = new Map<number, number>();
  for (const b of body) weight.set(b.size, (weight.get(b.size) ?? 0) + b.text.length);
  const size = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  let last = -1;
  blocks.forEach((b, i) => {
    if (b.role === 'body' && b.size >= 0.95 * size) last = i;
  });
  for (const block of blocks.slice(last + 1)) if (block.size < 0.95 * size) out.add(block);
  return out;
}

/** The language of the rules: the option, else the document's body text identified, else /Lang. */
function documentLanguage(group: DocumentGroup, pages: readonly { blocks: Block[] }[], forced: string): string {
  if (forced) return toIso6391(toFrancCode(forced)!);
  const text = pages.flatMap((p) => p.blocks.filter(joinable).map((b) => b.text)).join('\n');
  const declared = group.doc.meta?.lang ?? null;
  const prior = declared && isKnownLanguage(declared) ? toIso6391(toFrancCode(declared)!) : null;
  const found = identify(text, { candidates: DEFAULT_CANDIDATES, prior, priorRatio: 0.9, minLetters: 20, fallback: prior ?? 'und' });
  return found;
}

/**
 * The core with a model that scores whole sentences and answers later (KenLM's `query`): the
 * decisions run once to gather the word sequences they need, the model scores them in one batch,
 * and the decisions run again on the scores. A model that fails leaves the document decided by
 * the rules alone, with a diagnostic saying why.
 */
export async function joinDocumentScored(group: DocumentGroup, partial: JoinInput & { sentenceModel: LanguageModel }): Promise<{ pages: PageRecord[]; diagnostics?: DiagnosticRecord[] }> {
  const options = normalizeOptions(partial);
  const scores = new SentenceScores();
  const withScores = { ...options, model: { forward: scores } };
  joinDocument(group, withScores);
  try {
    await scores.fill(partial.sentenceModel);
  } catch (error) {
    const message = `language model failed, breaks decided by the rules alone: ${(error as Error).message}`;
    return { ...joinDocument(group, { ...options, joinLm: '', model: null, sentenceModel: null }), diagnostics: [diagnostic(group.doc.id, 'join', 'lm-failed', message)] };
  }
  return joinDocument(group, withScores);
}

export function join(partial: JoinInput = {}) {
  const options = normalizeOptions(partial);
  const sentenceModel = options.sentenceModel;
  if (sentenceModel && !options.model) {
    return asyncDocumentTransform('join', (group) => joinDocumentScored(group, { ...options, sentenceModel }), () => sentenceModel.close());
  }
  return documentTransform('join', (group) => joinDocument(group, options));
}

export const USAGE = 'pdfpipe join [options] < blocks.ndjson';
export const SUMMARY = 'Decides whether paragraphs split by a page, column or box break run on (rules, a language model, or pdf2xml\'s rule).';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'join', transforms: [join(options)] });
}
