/** A field of the front matter opens with its label: "MSC (1991):", "REF.:", "PACS numbers:". */
const FIELD_LABEL = /^(?:\S+\s+){0,3}\S*:(?:\s|$)/u;

/**
 * The front matter of page 1, read from its layout: the title is the largest text in the top half
 * of the page; the short blocks below it, up to the abstract or the first section, are authors,
 * affiliations and e-mail addresses.
 */
import { blockId } from '../formats/ids.js';
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';
import { ABSTRACT, AFFILIATION, EMAIL, KEYWORDS, looksLikeNames, splitAuthors, type MetaSource } from '../formats/metadata.js';
import { headingNumber, KNOWN_SECTION } from './headings.js';
import { collapse, letters, words } from '../formats/words.js';

/** The role of a block in the structured output: its record role, or the front-matter part it was taken for. */
export type StructureRole = Block['role'] | 'title' | 'author' | 'affiliation' | 'email' | 'abstract' | 'keywords';

interface Located {
  page: number;
  index: number;
  block: Block;
}

/**
 * Reads the front matter of page 1: marks the blocks taken for title, authors, affiliations,
 * e-mails, keywords and abstract in `roles`, and returns what they say.
 */
export function layoutSource(page: PageRecord | undefined, body: number, roles: Map<string, StructureRole>): MetaSource {
  const out: MetaSource = { title: null, authors: [], affiliations: [], emails: [], keywords: [], abstract: null };
  if (!page) return out;
  const blocks = (page.blocks ?? [])
    .map((block, index) => ({ page: page.page, index, block }))
    .filter(({ block }) => !FURNITURE_ROLES.has(block.role) && block.role !== 'footnote' && letters(block.text) > 0);
  const key = (l: Located): string => blockId(l.page, l.index + 1);
  // The title: the largest text in the top half of the page (the topmost of equals), with the
  // blocks of the same size right after it (a title broken over two blocks).
  const top = blocks.filter(({ block }) => block.box.y < page.height * 0.5 && block.text.length <= 400 && block.lines <= 4);
  let titleAt = -1;
  for (const candidate of top) {
    const at = blocks.indexOf(candidate);
    const current = blocks[titleAt];
    if (!current || candidate.block.size > current.block.size + 0.25) titleAt = at;
  }
  const title = blocks[titleAt];
  if (!title || ABSTRACT.test(title.block.text) && words(title.block.text).length <= 2) return out;
  const titleParts = [title];
  for (let i = titleAt + 1; i < blocks.length; i++) {
    const next = blocks[i]!;
    if (Math.abs(next.block.size - title.block.size) > 0.25 || next.block.lines > 2 || headingNumber(next.block.text)) break;
    if (next.block.box.y - (titleParts[titleParts.length - 1]!.block.box.y + titleParts[titleParts.length - 1]!.block.box.h) > title.block.size * 1.5) break;
    titleParts.push(next);
  }
  out.title = collapse(titleParts.map((p) => p.block.text).join(' '));
  for (const part of titleParts) roles.set(key(part), 'title');
  // Below the title, up to the first section heading or ordinary paragraph: authors, affiliations,
  // e-mails, keywords; the abstract by its label.
  let abstractNext = false;
  // Short blocks that are none of these (a date, a report number) are passed over, a few at most.
  let unknown = 0;
  // The abstract's block, when it is set apart from the body (smaller): its other paragraphs (or
  // lines the paragraph rules split off) are set like it, right after it.
  let abstractBlock: Block | null = null;
  for (let i = titleAt + titleParts.length; i < blocks.length; i++) {
    const located = blocks[i]!;
    const text = collapse(located.block.text);
    if (abstractNext) {
      out.abstract = text;
      roles.set(key(located), 'abstract');
      abstractNext = false;
      abstractBlock = located.block;
      continue;
    }
    const abstract = ABSTRACT.exec(text);
    if (abstract) {
      const rest = text.slice(abstract[0].length);
      roles.set(key(located), 'abstract');
      if (rest === '') abstractNext = true;
      else {
        out.abstract = rest;
        abstractBlock = located.block;
      }
      continue;
    }
    const keywords = KEYWORDS.exec(text);
    if (keywords) {
      out.keywords.push(...text.slice(keywords.index + keywords[0].length).replace(/\.$/, '').split(/\s*[;,·]\s*/u).filter((k) => k !== ''));
      roles.set(key(located), 'keywords');
      continue;
    }
    // Keywords, classifications and report numbers are front matter, not the abstract's.
    if (abstractBlock && abstractBlock.size < body - 0.25 && located.block.font === abstractBlock.font && Math.abs(located.block.size - abstractBlock.size) <= 0.25 && !headingNumber(text) && !FIELD_LABEL.test(text)) {
      roles.set(key(located), 'abstract');
      continue;
    }
    abstractBlock = null;
    // A numbered affiliation ("1 Physics Department, …") is not a numbered section.
    const affiliation = AFFILIATION.test(text);
    if ((headingNumber(text) && !affiliation) || (located.block.role === 'list-item' && !affiliation) || KNOWN_SECTION.test(text)) break;
    const long = located.block.lines > 4 || words(text).length > 60;
    // Prose set smaller than the body right under the authors reads as the abstract even when short.
    const smallProse = located.block.lines >= 3 && located.block.size < body - 0.25 && words(text).length > 30;
    if (long || smallProse) {
      // An unlabelled abstract: the first long paragraph of the front matter, set smaller than the body.
      if (out.abstract === null && located.block.size < body - 0.25 && (out.authors.length > 0 || out.affiliations.length > 0)) {
        out.abstract = text;
        roles.set(key(located), 'abstract');
        abstractBlock = located.block;
        continue;
      }
      if (long) break;
    }
    // A sentence-like paragraph: the body has begun.
    if (/[.!?]$/u.test(text) && words(text).length > 20) break;
    const emails = text.match(EMAIL) ?? [];
    const rest = collapse(text.replace(EMAIL, ' ').replace(/\b(e-?mail|email address(es)?)\s*:?/giu, ' '));
    if (emails.length > 0 && letters(rest) < 4) {
      out.emails.push(...emails);
      roles.set(key(located), 'email');
    } else if (AFFILIATION.test(text)) {
      out.emails.push(...emails);
      out.affiliations.push(text);
      roles.set(key(located), 'affiliation');
    } else if (located.block.lines <= 3 && words(text).length <= 30 && looksLikeNames(text)) {
      out.emails.push(...emails);
      out.authors.push(...splitAuthors(text));
      roles.set(key(located), 'author');
    } else if (++unknown > 2) {
      break;
    }
  }
  return out;
}
