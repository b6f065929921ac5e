/**
 * The text output: each document's paragraphs in reading order, one per line (or separated by
 * blank lines with `blankLines`), running headers, footers and page numbers dropped unless
 * `keepFurniture`, paragraphs that run on across a page or column joined, footnotes after the
 * body; with `sentences`, one sentence per line.
 */
import { FURNITURE_ROLES, type PageRecord } from '../protocol/records.js';
import { sentences } from '../lang/sentences.js';

/** The options the text writer reads. */
export interface TextOptions {
  /** Separate paragraphs by a blank line instead of a line break. */
  blankLines: boolean;
  /** Keep running headers, footers and page numbers in text output. */
  keepFurniture: boolean;
  /** Text: one sentence per line. */
  sentences: boolean;
}

/** The text of one document from its pages' blocks (pure). */
export function documentText(pages: readonly PageRecord[], options: TextOptions): string {
  const paragraphs: string[] = [];
  const footnotes: string[] = [];
  const langs = new Map<number, string>();
  // A run-on joins the last body paragraph, past any notes or furniture kept between the halves.
  let lastBody = -1;
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) && !options.keepFurniture) continue;
      const text = block.text.replace(/\s+/gu, ' ').trim();
      if (text === '') continue;
      if (block.role === 'footnote') {
        footnotes.push(text);
      } else if (block.continues && lastBody >= 0) {
        paragraphs[lastBody] = joinRunOn(paragraphs[lastBody]!, text, block.joiner);
      } else {
        paragraphs.push(text);
        // `join` marks small print at the foot of a page `note`: a run-on passes it.
        if ((block.role === 'body' || block.role === 'list-item') && block.joinRule !== 'note') lastBody = paragraphs.length - 1;
        if (options.sentences) langs.set(paragraphs.length - 1, block.lang ?? 'und');
      }
    }
  }
  let all = [...paragraphs, ...footnotes];
  if (options.sentences) all = all.map((p, i) => sentences(p, langs.get(i) ?? 'und').join('\n'));
  if (all.length === 0) return '';
  return all.join(options.blankLines ? '\n\n' : '\n') + '\n';
}

/** Joins a paragraph continued after a page or column break, removing a hyphen at the break. */
function joinRunOn(before: string, after: string, joiner = ' '): string {
  if (/\p{L}[-\u2010]$/u.test(before) && /^\p{Ll}/u.test(after)) return before.slice(0, -1) + after;
  if (UNSPACED.test(before.at(-1) ?? '') && UNSPACED.test(after[0] ?? '')) return before + after;
  return `${before}${joiner}${after}`;
}

/** Scripts written without spaces between words: no space where a paragraph runs on. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303f\uff00-\uffef]/u;
