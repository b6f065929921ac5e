/**
 * Footnotes and the run-ons they interrupt. `paragraphs` finds notes below the body before the
 * page's folio is known, so a page number at the foot can hide the notes above it; once the folios
 * are furniture, small print below the page's body text is a note. And a body paragraph cut by a
 * page break, a note or a float goes on in the next body paragraph when the cut fell mid-sentence.
 */
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';
import { SENTENCE_END } from '../paragraphs/split.js';

/** Notes are set at most this × the body size. */
const NOTE_SIZE = 0.92;

/** Marks the notes at the foot of each page: small print below the body text of its column, in the page's lower half. */
export function markFootnotes(pages: readonly PageRecord[], bodySize: number): number {
  let marked = 0;
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    const body = blocks.filter((b) => b.role === 'body' && Math.abs(b.size - bodySize) <= bodySize * 0.05);
    if (body.length === 0) continue;
    for (const block of blocks) {
      if ((block.role !== 'body' && block.role !== 'list-item') || block.size > bodySize * NOTE_SIZE) continue;
      // Below the body of its own column: the notes of a two-column page's left column stand
      // above the right column's last lines.
      const above = body.filter((b) => b.box.x < block.box.x + block.box.w && block.box.x < b.box.x + b.box.w);
      if (above.length === 0) continue;
      const bodyBottom = Math.max(...above.map((b) => b.box.y + b.box.h));
      if (block.box.y >= bodyBottom - 1 && block.box.y > page.height / 2) {
        block.role = 'footnote';
        block.continues = false;
        marked++;
      }
    }
  }
  return marked;
}

/**
 * Points each reference mark (`refs`, lib/layout/notemarks.ts) at the note of its page that opens
 * with the same label: `note` is that note's index among the page's blocks.
 */
export function linkNoteRefs(pages: readonly PageRecord[]): void {
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    const notes = new Map<string, number>();
    blocks.forEach((block, index) => {
      if (block.label !== undefined && block.role === 'footnote' && !notes.has(block.label)) notes.set(block.label, index);
    });
    if (notes.size === 0) continue;
    for (const block of blocks) {
      for (const ref of block.refs ?? []) {
        const note = notes.get(ref.label);
        if (note !== undefined) ref.note = note;
      }
    }
  }
}

/**
 * A body paragraph that starts in lower case after one that stopped mid-sentence (no sentence
 * end, or a hyphen) runs on from it, across whatever stands between them: a note, a caption, a
 * table, a page break. Returns how many it joined.
 */
export function mendRunOns(pages: readonly PageRecord[]): number {
  let previous: Block | null = null;
  // The last block read, furniture aside.
  let lastSeen: Block | null = null;
  let mended = 0;
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    blocks.forEach((block, index) => {
      // A line that starts with a lone lower-case letter and a full stop ("p. Therefore, …") after a
      // sentence cut short is the sentence's end, not an item "p." of a list; so is a lone item
      // with a lower-case label ("(i) the standard method and (ii) …"): an enumeration inside the
      // sentence, not a list (no item follows it). A number in brackets that the text right
      // before (an item too) leads up to and that goes on in lower case ("The solution of | (5) is
      // given by") is an equation's, named in that sentence: it goes on in the block before —
      // unless that is the item numbered one less, whose list this goes on.
      const number = /^\((\d{1,3})\)\s+\p{Ll}/u.exec(block.text);
      if (block.role === 'list-item' && number && lastSeen && !SENTENCE_END.test(lastSeen.text) &&
        (lastSeen.role === 'body' || (lastSeen.role === 'list-item' && !lastSeen.text.startsWith(`(${Number(number[1]) - 1})`)))) {
        block.role = lastSeen.role;
        block.continues = true;
        mended++;
      } else if (block.role === 'list-item' && previous && !SENTENCE_END.test(previous.text)) {
        // Right after the sentence, and no item after it.
        const lone = lastSeen === previous && !blocks.slice(index + 1).some((b) => b.role === 'list-item');
        if (/^\p{Ll}\.\s/u.test(block.text)) block.role = 'body';
        else if (lone && /^\(?(?:[ivx]{1,4}|\p{Ll})\)\s/u.test(block.text)) {
          block.role = 'body';
          block.continues = true;
          mended++;
        }
      }
      if (!FURNITURE_ROLES.has(block.role)) lastSeen = block;
      if (FURNITURE_ROLES.has(block.role) || block.role !== 'body') {
        // Sections and formulas end the sentence's stretch; notes and floats stand aside.
        if (block.role === 'heading' || block.role === 'title' || block.role === 'formula' || block.role === 'abstract') previous = null;
        return;
      }
      if (!block.continues && previous && /^\p{Ll}/u.test(block.text) && !SENTENCE_END.test(previous.text)) {
        block.continues = true;
        mended++;
      }
      previous = block;
    });
  }
  return mended;
}
