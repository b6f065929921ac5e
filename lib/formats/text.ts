/**
 * The text output: each document's paragraphs in reading order, one per line (or separated by
 * blank lines with `blankLines`), only the blocks whose role is selected (by default all but
 * running headers, footers and page numbers, which `keepFurniture` adds: lib/formats/selection.ts),
 * paragraphs that run on across a page, column or left-out block joined, footnotes after the
 * body; with `sentences`, one sentence per line.
 */
import type { PageRecord } from '../protocol/records.js';
import { sentences } from '../lang/sentences.js';
import { blockRuns, type RoleOptions } from './selection.js';

/** The options the text writer reads: which roles it writes (lib/formats/selection.ts), and how. */
export interface TextOptions extends RoleOptions {
  /** Separate paragraphs by a blank line instead of a line break. */
  blankLines: boolean;
  /** Text: one sentence per line. */
  sentences: boolean;
}

/** The text of one document from its pages' blocks (pure). */
export function documentText(pages: readonly PageRecord[], options: TextOptions): string {
  const paragraphs: string[] = [];
  const footnotes: string[] = [];
  const langs = new Map<number, string>();
  for (const run of blockRuns(pages, options)) {
    const [first, ...rest] = run.map(({ block }) => block);
    let text = collapse(first!.text);
    if (first!.role === 'footnote') {
      footnotes.push(text);
      continue;
    }
    for (const block of rest) text = joinRunOn(text, collapse(block.text), block.joiner);
    paragraphs.push(text);
    if (options.sentences) langs.set(paragraphs.length - 1, first!.lang ?? 'und');
  }
  let all = [...paragraphs, ...footnotes];
  if (options.sentences) all = all.map((p, i) => sentences(p, langs.get(i) ?? 'und').join('\n'));
  if (all.length === 0) return '';
  return all.join(options.blankLines ? '\n\n' : '\n') + '\n';
}

/**
 * A block's text with whitespace runs collapsed to one space, ends trimmed. NEL (U+0085) is a
 * line end that `\s` does not know: a space too. Other control characters (C0, DEL, C1: an ESC
 * would reach a terminal) are no text and are dropped.
 */
const collapse = (text: string): string => text.replace(CONTROLS, '').replace(/[\s\u0085]+/gu, ' ').trim();
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/gu;

/** Joins a paragraph continued after a page or column break, removing a hyphen at the break. */
function joinRunOn(before: string, after: string, joiner = ' '): string {
  if (/\p{L}[-\u2010]$/u.test(before) && /^\p{Ll}/u.test(after)) return before.slice(0, -1) + after;
  if (UNSPACED.test(before.at(-1) ?? '') && UNSPACED.test(after[0] ?? '')) return before + after;
  return `${before}${joiner}${after}`;
}

/** Scripts written without spaces between words: no space where a paragraph runs on. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303f\uff00-\uffef]/u;
