/**
 * The core of the join stage: at every page, column or box break, whether the paragraph after it
 * runs on from the one before (`decideBreaks`), and the same with a model that scores whole
 * sentences in one batch per document (`decideBreaksScored`). Works per document: a break can
 * fall between pages.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { SentenceScores } from '../lm/join-model.js';
import type { LanguageModel } from '../lm/model.js';
import { identify } from '../lang/identify.js';
import { DEFAULT_CANDIDATES, isKnownLanguage, toFrancCode, toIso6391 } from '../lang/codes.js';
import { diagnostic, FURNITURE_ROLES, type Block, type DiagnosticRecord, type Line, type PageRecord } from '../protocol/records.js';
import { decide, joinable, lineShape, linesOfBlocks, measuredFull, measureLines, singleLineShape, splitMidSentence, type DecideOptions, type LmOptions } from './breaks.js';
import { displayFormula, formulaLike, prose } from './formulas.js';
import { indentsParagraphs, unindented } from './indents.js';
import { repeatedBlocks, trailingSmallBlocks } from './interruptions.js';

/** The join options the core reads besides the rules and model, as the command line sets them. */
export interface JoinSettings extends LmOptions {
  /** Language whose rules apply when blocks carry no `lang`; '' detects the document's. */
  joinLang: string;
  /** A last line ending within this × font size of the paragraph's far edge is full. */
  fullLine: number;
  /** Also mend paragraph splits inside a layout block that cut a sentence. */
  within: boolean;
  /** A change of font size by more than this fraction across a break ends the paragraph. */
  joinSizeChange: number;
}

/** Everything the core reads: the settings, with the rules and model loaded. */
export interface JoinCoreOptions extends JoinSettings, DecideOptions {}

/** The pure core: join decisions for one document. */
export function decideBreaks(group: DocumentGroup, options: JoinCoreOptions): { pages: PageRecord[] } {
  const pages = group.pages.map((page) => ({ ...page, blocks: (page.blocks ?? []).map((b) => ({ ...b })) }));
  const docLang = documentLanguage(group, pages, options.joinLang);
  const repeated = repeatedBlocks(pages);
  const indents = indentsParagraphs(pages);
  // The list item whose wrapped lines are being read (see listItemLine).
  let listItem: Block | null = null;
  let previous: { block: Block; lines: Line[] | undefined; page: number; layoutBlock: number | undefined; column: Line[] } | null = null;
  for (const page of pages) {
    const lines = linesOfBlocks(page);
    // The lines that set the page's measure: every line but the last of a paragraph of body text.
    const column = measureLines(page.blocks, lines);
    const trailing = trailingSmallBlocks(page.blocks);
    page.blocks.forEach((block, index) => {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote' || block.role === 'margin-note') return;
      // Furniture `order` missed (a repeated header) and small print at the foot of a page (notes
      // taken for list items) stand between two halves of a paragraph without separating them.
      // Debris (a stray mark or two, narrower than a letter) is no paragraph: pass over it.
      if (block.text.trim().length <= 3 && block.box.w < block.size && block.lines === 1) {
        // …but a letter or two set apart in a display formula (a denominator) stays in it.
        if (previous?.page === page.page && formulaLike(previous.block) && formulaLike(block)) {
          block.continues = true;
          block.joinRule = 'formula';
        }
        return;
      }
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
      if (previous && previous.page === page.page && listItemLine(listItem, previous.block, block)) {
        block.continues = true;
        block.joinRule = 'list-item';
      } else if (previous && joinable(block) && joinable(previous.block)) {
        const atBreak = previous.page !== page.page || block.continues || (layoutBlock !== undefined && layoutBlock !== previous.layoutBlock);
        // A display formula set as a block of its own, below text on the same page, belongs to the
        // paragraph around it as the paragraphs stage decided: its short lines end nothing.
        const besideFormula = previous.page === page.page && block.box.y >= previous.block.box.y && (formulaLike(block) || formulaLike(previous.block));
        if (displayFormula(block) && !formulaLike(previous.block) && (atBreak || options.within)) {
          // A display formula is part of the paragraph it is set in (its text says "[formula]").
          block.continues = true;
          block.joinRule = 'formula';
        } else if (previous.page === page.page && formulaLike(previous.block) && formulaLike(block)) {
          // The pieces of one display (a fraction's numerator and denominator, the equation number).
          block.continues = true;
          block.joinRule = 'formula';
        } else if ((previous.block.role === 'formula' || formulaLike(previous.block)) && block.role === 'body' && prose(block)) {
          // After a display formula the paragraph goes on ("where x is…") unless a new one
          // starts: by a capital ("Proof.", a new sentence), or by its indent where paragraphs are
          // indented (TeX sets the text after a formula flush).
          if (/^\p{Ll}/u.test(block.text.trim()) && (!indents || unindented(block, own, column))) {
            block.continues = true;
            block.joinRule = 'after-formula';
          }
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
      if (block.role === 'list-item') listItem = block;
      else if (block.joinRule !== 'list-item') listItem = null;
      previous = { block, lines: own ?? undefined, page: page.page, layoutBlock: own?.[own.length - 1]?.block, column };
    });
  }
  return { pages };
}

/** A wrapped line of a list item sits at most this × font size below the line before it. */
const LIST_LINE_GAP = 0.8;

/**
 * A body block that is a wrapped line of the list item before it, which the paragraphs stage set
 * apart: right under it, and set in at the item's hanging indent, past the start of its label.
 */
function listItemLine(item: Block | null, previous: Block, block: Block): boolean {
  if (!item || block.role !== 'body' || block.dir !== item.dir) return false;
  const gap = block.box.y - (previous.box.y + previous.box.h);
  if (gap > LIST_LINE_GAP * block.size) return false;
  const indent = block.dir === 'rtl' ? item.box.x + item.box.w - (block.box.x + block.box.w) : block.box.x - item.box.x;
  return indent > 0.5 * block.size;
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
export async function decideBreaksScored(group: DocumentGroup, options: JoinCoreOptions, sentenceModel: LanguageModel): Promise<{ pages: PageRecord[]; diagnostics?: DiagnosticRecord[] }> {
  const scores = new SentenceScores();
  const withScores = { ...options, model: { forward: scores } };
  decideBreaks(group, withScores);
  try {
    await scores.fill(sentenceModel);
  } catch (error) {
    const message = `language model failed, breaks decided by the rules alone: ${(error as Error).message}`;
    return { ...decideBreaks(group, { ...options, model: null }), diagnostics: [diagnostic(group.doc.id, 'join', 'lm-failed', message)] };
  }
  return decideBreaks(group, withScores);
}

