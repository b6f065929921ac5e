/**
 * One document in any output format, from its records: what `serialize` writes for it, for the
 * library's `extract`, which hands documents over one at a time.
 */
import type { DocRecord, Outcome, PageRecord } from '../protocol/records.js';
import { documentHtml, type HtmlOptions } from './html.js';
import { documentPairsTsv } from './pairs.js';
import { documentText, type TextOptions } from './text.js';
import { documentXml } from './xml.js';

/** The formats a document can be written in. */
export const FORMATS = ['text', 'ndjson', 'xml', 'base64', 'html', 'pairs'] as const;
/** An output format. */
export type Format = (typeof FORMATS)[number];

/** What the writers read: the format and each writer's own options. */
export interface OutputOptions extends TextOptions, HtmlOptions {
  format: Format;
}

/** The writers' defaults (serialize's, which `--help` shows, are these). */
export const OUTPUT_DEFAULTS: OutputOptions = {
  format: 'text',
  blankLines: false,
  keepFurniture: false,
  roles: '',
  bodyOnly: false,
  sentences: false,
  keepbrtags: false,
  getperms: false,
};

/** A document written in `options.format` (a failed document: '' in text, base64 and pairs, its error in the others). */
export function documentOutput(doc: DocRecord | null, pages: readonly PageRecord[], outcome: Outcome, options: OutputOptions): string {
  const own = doc?.id === outcome.doc ? doc : null;
  switch (options.format) {
    case 'html':
      return documentHtml(own, pages, outcome, options);
    case 'xml':
      return documentXml(own, pages, outcome);
    case 'ndjson':
      return [own, ...pages, outcome].filter((r) => r !== null).map((r) => JSON.stringify(r)).join('\n') + '\n';
    case 'pairs':
      return outcome.type === 'end' ? documentPairsTsv(own, outcome.doc, pages) : '';
    case 'base64':
      return Buffer.from(outcome.type === 'end' ? documentText(pages, options) : '').toString('base64');
    case 'text':
      return outcome.type === 'end' ? documentText(pages, options) : '';
    default:
      throw new Error(`Unknown format "${String(options.format)}", expected one of ${FORMATS.join(', ')}`);
  }
}
