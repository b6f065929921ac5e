/**
 * Resegmenting a whole document: each line searched with the document's own word model and the
 * letters of a word that runs across a line-end hyphen, and (with an n-gram model) each changed
 * line given back its old form when the model scores that higher.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { diagnostic, type DiagnosticRecord, type Line, type PageRecord } from '../protocol/records.js';
import { wordsOf } from '../lm/words.js';
import { type UnigramModel } from '../lm/unigram.js';
import { type LanguageModel } from '../lm/model.js';
import { documentModel } from './word-model.js';
import { resegmentLine, type Change, type LineContext, type SegmentOptions } from './segment.js';

/** What `resegmentDocument` reads of the resegment stage's options. */
export interface ResegmentDocumentOptions extends SegmentOptions {
  /** Report each changed line (old and new text) as an `info` diagnostic. */
  explain: boolean;
}

const HYPHEN_END = /([\p{L}\p{M}]+)[-\u00ad\u2010]+$/u;

/**
 * HYPHEN_END's match, looked for only in a text that ends in a hyphen: the expression, tried from
 * every letter of a line, is slow, and most lines do not end in one.
 */
function hyphenEnd(text: string): RegExpExecArray | null {
  const last = text.charCodeAt(text.length - 1);
  return last === 0x2d || last === 0xad || last === 0x2010 ? HYPHEN_END.exec(text) : null;
}

/** The letters of a word that runs into this line from the previous one, or on into the next. */
function contextOf(lines: readonly Line[], index: number): LineContext {
  const line = lines[index]!;
  const previous = lines[index - 1];
  const next = lines[index + 1];
  const stem = previous && previous.block === line.block ? (hyphenEnd(previous.text)?.[1] ?? '') : '';
  const tail = next && next.block === line.block && hyphenEnd(line.text) !== null ? (/^[\p{L}\p{M}]+/u.exec(next.text)?.[0] ?? '') : '';
  return { stem, tail };
}

/** A resegmented document, with what changed where. */
export interface DocumentResult {
  pages: PageRecord[];
  diagnostics: DiagnosticRecord[];
  /** Each changed line: where, and its old and new text (for n-gram rescoring). */
  changed: Array<{ page: number; line: number; old: Line; changes: Change[] }>;
}

/** The pure core: re-segments every line of one document with the document's own model. */
export function resegmentDocument(group: DocumentGroup, options: ResegmentDocumentOptions, lexicon: UnigramModel | null = null): DocumentResult {
  const all = group.pages.flatMap((p) => p.lines ?? []);
  const model = documentModel(all, lexicon);
  const diagnostics: DiagnosticRecord[] = [];
  const changed: DocumentResult['changed'] = [];
  const pages = group.pages.map((page, pageIndex) => {
    if (!page.lines) return page;
    const all = page.lines;
    const lines = all.map((line, index) => {
      const result = resegmentLine(model, line, options, contextOf(all, index));
      if (result.changes.length > 0) {
        changed.push({ page: pageIndex, line: index, old: line, changes: result.changes });
        if (options.explain) {
          const merges = result.changes.filter((c) => c.kind === 'merge').length;
          const splits = result.changes.length - merges;
          const message = `${merges} merged, ${splits} split: "${line.text}" → "${result.line.text}"`;
          diagnostics.push(diagnostic(group.doc.id, 'resegment', 'resegmented', message, { severity: 'info', place: { page: page.page }, count: result.changes.length }));
        }
      }
      return result.line;
    });
    return { ...page, lines };
  });
  return { pages, diagnostics, changed };
}

/** A model that knows fewer of a document's words than this share is for another language. */
const MIN_KNOWN = 0.5;

/**
 * With an n-gram model, each changed line keeps whichever form (old or new) the model prefers.
 * Unchanged lines of the document probe the model first: when it knows too few of their words
 * (a model for another language), it is not used, and the diagnostic returned says so.
 */
export async function rescore(result: DocumentResult, lm: LanguageModel, doc = ''): Promise<DiagnosticRecord | null> {
  if (result.changed.length === 0) return null;
  const sentences: string[][] = [];
  for (const c of result.changed) {
    sentences.push(wordsOf(c.old.text), wordsOf(result.pages[c.page]!.lines![c.line]!.text));
  }
  const changed = new Set(result.changed.map((c) => c.old));
  const probe = result.pages
    .flatMap((p) => p.lines ?? [])
    .filter((l) => !changed.has(l))
    .map((l) => wordsOf(l.text))
    .filter((w) => w.length >= 3)
    .slice(0, 50);
  const scores = await lm.score([...sentences, ...probe]);
  const probed = scores.slice(sentences.length);
  const words = probe.reduce((n, s) => n + s.length, 0);
  const oov = probed.reduce((n, s) => n + s.oov, 0);
  if (words > 0 && 1 - oov / words < MIN_KNOWN) {
    const known = Math.round(100 * (1 - oov / words));
    return diagnostic(doc, 'resegment', 'lm-mismatch', `${lm.name} knows ${known}% of the document's words (another language?); it was not used`);
  }
  result.changed.forEach((c, k) => {
    if ((scores[2 * k]?.total ?? 0) >= (scores[2 * k + 1]?.total ?? 0)) result.pages[c.page]!.lines![c.line] = c.old;
  });
  return null;
}
