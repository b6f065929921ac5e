/**
 * The pairs output: a document's parallel text (blocks `langid` marked with `parallel`,
 * lib/regions/parallel.ts) as one aligned pair a line, tab-separated:
 * `lang_a  text_a  lang_b  text_b  source  page`. Side `a` is the left one on the page. Tabs and
 * line breaks inside a text become spaces and whitespace runs are collapsed; the blocks of one
 * side of a group are joined by a space. A document without parallel text writes nothing.
 */
import type { Block, DocRecord, PageRecord } from '../protocol/records.js';
import { letterCount } from '../lang/scripts.js';

/** One aligned pair: each side's language and text, and the page it is on. */
export interface TextPair {
  langA: string;
  textA: string;
  langB: string;
  textB: string;
  page: number;
}

/** The aligned pairs of a document, in group order (pure). */
export function documentPairs(pages: readonly PageRecord[]): TextPair[] {
  const groups = new Map<number, { a: Block[]; b: Block[]; page: number }>();
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (!block.parallel) continue;
      const { group, side } = block.parallel;
      const entry = groups.get(group) ?? { a: [], b: [], page: page.page };
      entry[side].push(block);
      groups.set(group, entry);
    }
  }
  return [...groups.entries()]
    .sort((x, y) => x[0] - y[0])
    .filter(([, g]) => g.a.length > 0 && g.b.length > 0)
    .map(([, g]) => ({ langA: languageOf(g.a), textA: joined(g.a), langB: languageOf(g.b), textB: joined(g.b), page: g.page }));
}

/** The pairs as TSV lines (`source` is the document's source, or its id without a `doc` record). */
export function documentPairsTsv(doc: DocRecord | null, id: string, pages: readonly PageRecord[]): string {
  const source = field(doc?.source ?? id);
  return documentPairs(pages)
    .map((p) => [p.langA, field(p.textA), p.langB, field(p.textB), source, String(p.page)].join('\t') + '\n')
    .join('');
}

/** A text as one TSV field: every whitespace run (tabs, line breaks) one space, ends trimmed. */
const field = (text: string): string => text.replace(/\s+/gu, ' ').trim();

const joined = (blocks: readonly Block[]): string => field(blocks.map((b) => b.text).join(' '));

/** The language of most of the blocks' letters. */
function languageOf(blocks: readonly Block[]): string {
  const letters = new Map<string, number>();
  for (const block of blocks) letters.set(block.lang ?? 'und', (letters.get(block.lang ?? 'und') ?? 0) + letterCount(block.text) + 1);
  return [...letters.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 'und';
}
