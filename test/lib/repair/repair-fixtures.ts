/**
 * Shared fixtures of the repair tests: hand-built lines, documents and groups, a rule context with
 * a small word list, and helpers that repair lines with the document core or run one rule.
 */
import { existsSync } from 'node:fs';
import { loadContext, repairDocument, type RepairContext } from '../../../lib/repair/document.js';
import { parseConfig } from '../../../lib/repair/rules.js';
import { Rewriter, Tally } from '../../../lib/repair/rewrite.js';
import { DEBIAN_THAI_TRIE, loadLexicon } from '../../../lib/repair/lexicon.js';
import type { DocRecord, Item, Line, PageRecord } from '../../../lib/protocol/records.js';
import { SCHEMA_VERSION } from '../../../lib/protocol/records.js';
import type { DocumentGroup } from '../../../lib/protocol/stage.js';
import { normalizeOptions } from '../../../stages/repair.js';

/** Why the lexicon tests are skipped, or false when Debian's Thai word list is installed. */
export const noThaiLexicon = existsSync(DEBIAN_THAI_TRIE) ? false : `${DEBIAN_THAI_TRIE} is not installed (Debian package libthai-data)`;
/** Debian's Thai word list (empty when it is not installed). */
export const thai = noThaiLexicon ? new Set<string>() : loadLexicon(DEBIAN_THAI_TRIE);

/** A line of one block on a 200 pt wide box. */
export function line(text: string, extra: Partial<Line> = {}): Line {
  return { text, box: { x: 0, y: 0, w: 200, h: 12 }, base: 10, font: 'F1', size: 10, dir: 'ltr', block: 0, inferred: [], ...extra };
}

/** A doc record with an optional /Lang. */
export function doc(id = 'd', lang: string | null = null): DocRecord {
  return {
    type: 'doc', id, source: `${id}.pdf`, schema: SCHEMA_VERSION,
    meta: { pages: 1, info: {}, lang, outline: [], encrypted: false, engine: 'test', normalization: 'none' },
  };
}

/** One page of lines (and items) as a document group. */
export function group(lines: Line[], lang: string | null = null, items?: Item[]): DocumentGroup {
  const page: PageRecord = { type: 'page', doc: 'd', page: 1, width: 600, height: 800, lines };
  if (items) page.items = items;
  return { doc: doc('d', lang), pages: [page], diagnostics: [], outcome: { type: 'end', doc: 'd', stats: { pages: 1, items: 0, chars: 0, ms: 0 } } };
}

/** A repair context: the default rules, the Thai word list when installed, a small English word list. */
export const context = (extra: Partial<RepairContext> = {}): RepairContext => ({
  ...parseConfig({ language: [] }),
  ...loadContext(normalizeOptions({ words: '', thaiLexicon: '' })),
  thai: noThaiLexicon ? null : thai,
  words: new Set(['efficient', 'effects', 'definition', 'office', 'staff', 'finalized', 'of', 'fifty', 'an', 'for', 'the', 'clear', 'word', 'side', 'is', 'ok', 'affidavits', 'officers', 'in', 'to', 'into']),
  ...extra,
});

/** Repairs lines with the default rules; returns the texts and the diagnostics. */
export function repairLines(texts: string[], options: Parameters<typeof normalizeOptions>[0] = {}, ctx = context()) {
  const result = repairDocument(group(texts.map((x) => line(x))), normalizeOptions(options), ctx);
  return { texts: result.pages[0]!.lines!.map((l) => l.text), diagnostics: result.diagnostics };
}

/** Runs one rule on a text; returns the text after it. */
export function rewrite(text: string, fn: (rw: Rewriter) => void): string {
  const rw = new Rewriter(text, [], new Tally(false));
  fn(rw);
  return rw.text;
}
