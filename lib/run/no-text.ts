/**
 * Documents that end well but with no text: a scan with no text layer, a file whose every line is
 * a running header or a page number, a page range past the end. Their outcome is `end`, and their
 * output is empty; without a word, a crawl loses them silently. `NoTextWatch` follows a
 * document's records as they pass and says why it has no text, for a `no-text` diagnostic and
 * a count in the run's summary.
 */
import { diagnostic, FURNITURE_ROLES, type DiagnosticRecord, type PipeRecord } from '../protocol/records.js';

/** Why a document has no text, by what its pages hold. */
export const NO_TEXT_REASONS = {
  'no-pages': 'it has no pages (or none in the page range)',
  'no-text-layer': 'its pages hold no text layer (scanned or drawn as images: it needs OCR)',
  'only-furniture': 'all its text is page furniture (running headers, footers, page numbers), which the text output leaves out',
  'no-words': 'its text layer holds no words (only spaces or characters with no Unicode mapping)',
} as const;

export type NoTextReason = keyof typeof NO_TEXT_REASONS;

/** What the pages of one document held so far. */
interface Seen {
  pages: number;
  /** Non-blank characters in the items. */
  itemChars: number;
  /** Whether any page had blocks (the stages after parse ran). */
  blocks: boolean;
  /** Non-blank characters in blocks that are not page furniture, and in those that are. */
  bodyChars: number;
  furnitureChars: number;
}

const visible = (text: string): number => text.replace(/\s+/gu, '').length;

/** Follows the records of a run; at each `end`, says whether (and why) the document has no text. */
export class NoTextWatch {
  private seen = new Map<string, Seen>();

  /** Notes a record; for a document's `end` with no text, returns its reason. */
  note(record: PipeRecord): NoTextReason | null {
    if (record.type === 'doc') {
      this.seen.set(record.id, { pages: 0, itemChars: 0, blocks: false, bodyChars: 0, furnitureChars: 0 });
    } else if (record.type === 'page') {
      const seen = this.seen.get(record.doc);
      if (!seen) return null;
      seen.pages += 1;
      for (const item of record.items ?? []) seen.itemChars += visible(item.text);
      if (record.blocks) {
        seen.blocks = true;
        for (const block of record.blocks) {
          const chars = visible(block.text);
          if (FURNITURE_ROLES.has(block.role)) seen.furnitureChars += chars;
          else seen.bodyChars += chars;
        }
      }
    } else if (record.type === 'end' || record.type === 'error') {
      const seen = this.seen.get(record.doc);
      this.seen.delete(record.doc);
      if (record.type === 'error' || !seen) return null;
      return reasonFor(seen);
    }
    return null;
  }
}

function reasonFor(seen: Seen): NoTextReason | null {
  if (seen.pages === 0) return 'no-pages';
  if (seen.blocks) {
    if (seen.bodyChars > 0) return null;
    if (seen.furnitureChars > 0) return 'only-furniture';
  } else if (seen.itemChars > 0) {
    return null;
  }
  return seen.itemChars > 0 ? 'no-words' : 'no-text-layer';
}

/** The `no-text` diagnostic of a document. */
export function noTextDiagnostic(doc: string, stage: string, reason: NoTextReason): DiagnosticRecord {
  return diagnostic(doc, stage, 'no-text', `The document has no text: ${NO_TEXT_REASONS[reason]} (${reason})`);
}
