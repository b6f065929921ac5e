/**
 * The logical structure of a document, from its `doc` header and its pages' blocks (pure): the
 * metadata (title, authors, affiliations, e-mail addresses, keywords, abstract), the section tree
 * with every block nested under its section, and each paragraph's keywords. The XML writer
 * (lib/formats/xml.ts) turns it into markup; nothing here knows about XML.
 *
 * Metadata comes from two sources, both kept: the Info dictionary (when its title is plausible:
 * not empty, not the file name, not "Microsoft Word - x.docx") and the first page's layout. The
 * title on the page is the largest text in the top half of page 1; the short blocks below it, up
 * to the abstract or the first section, are authors, affiliations and e-mail addresses.
 *
 * Sections come from the PDF outline when it has entries pointing at pages of the document:
 * depth is nesting, the bookmark's title is the heading, and the section starts at the block on
 * the target page whose text matches the title (or at the top of that page). Without an outline,
 * headings are found in the layout: short blocks without final punctuation that are larger than
 * the body text, or numbered ("2.3 Results", "IV. DISCUSSION"), or all in capitals. Their depth
 * is the numbering depth, else the rank of their size.
 *
 * Keywords are TF-IDF over the document's paragraphs: words from `Intl.Segmenter` (so Chinese,
 * Japanese and Thai are cut into words too), lower-cased, stop-words of the paragraph's language
 * removed, scored by frequency in the paragraph × log(paragraphs / paragraphs with the word).
 */
import { blockId, sectionId } from './ids.js';
import { diagnostic, FURNITURE_ROLES, type Block, type Box, type DiagnosticRecord, type DocRecord, type OutlineEntry, type PageRecord } from '../protocol/records.js';
import { stopWords } from '../lang/stopwords.js';

export interface StructureOptions {
  /** How many keywords to keep per paragraph. */
  keywords: number;
  /** A layout heading is at least this × the body text size (unless numbered or in capitals). */
  headingSize: number;
  /** A layout heading has at most this many words. */
  headingMaxWords: number;
}

export const DEFAULTS: StructureOptions = { keywords: 5, headingSize: 1.1, headingMaxWords: 14 };

/** The role of a block in the structured output: its record role, or the front-matter part it was taken for. */
export type StructureRole = Block['role'] | 'title' | 'author' | 'affiliation' | 'email' | 'abstract' | 'keywords';

/** One block of the document, where it is on the page and what it was taken for. */
export interface Paragraph {
  /** The block's id (lib/formats/ids.ts): page number and 1-based index among the page's blocks. */
  id: string;
  page: number;
  box: Box;
  role: StructureRole;
  lang: string | null;
  /** The block's direction from the records (`paragraphs`: the most common direction of its lines). */
  dir: 'ltr' | 'rtl';
  text: string;
  continues: boolean;
  /** The terms that set this paragraph apart from the rest of the document, best first. */
  keywords: string[];
}

export interface Section {
  id: string;
  /** 1 for top-level sections. */
  level: number;
  /** Where the section came from. */
  from: 'outline' | 'layout';
  /** Its numbering as printed ("2.3", "IV"), when it has one. */
  number: string | null;
  title: string;
  /** The page the section starts on. */
  page: number;
  /** The heading block, when one was found on the page (null for an outline entry without a matching block). */
  heading: Paragraph | null;
  /** The ids of further blocks the heading was made of (a heading broken over two blocks). */
  more: string[];
  paragraphs: Paragraph[];
  sections: Section[];
}

/** Metadata as found in one source. */
export interface MetaSource {
  title: string | null;
  authors: string[];
  affiliations: string[];
  emails: string[];
  keywords: string[];
  abstract: string | null;
}

export interface Structure {
  id: string;
  source: string;
  pages: number;
  lang: string | null;
  /** Which source the chosen metadata comes from. */
  metaFrom: 'info' | 'xmp' | 'layout' | 'none';
  meta: MetaSource;
  info: MetaSource;
  xmp: MetaSource;
  layout: MetaSource;
  /** Where the sections came from. */
  sectionsFrom: 'outline' | 'layout' | 'none';
  /** Blocks before the first section. */
  front: Paragraph[];
  sections: Section[];
  diagnostics: DiagnosticRecord[];
}

const STAGE = 'serialize';

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Lower-cased letters and digits only, single-spaced: for comparing headings and titles. */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const collapse = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** Section numbering at the start of a heading: "2.3", "2.3.", "IV.", "A." (with a letter after it). */
const NUMBERING = /^((?:\d{1,2}(?:\.\d{1,2})*\.?)|(?:[IVX]{1,5}\.)|(?:[A-H]\.))\s+(?=[\p{Lu}\p{Lo}])/u;

/** An appendix heading: "Appendix A: Proofs", "APPENDIX B. TABLES". */
const APPENDIX = /^appendix\s+([A-Z]|\d{1,2})\b[.:]?\s+(?=[\p{Lu}\p{Lo}])/iu;

/** The numbering of a heading and its depth, or null. */
export function headingNumber(text: string): { number: string; depth: number } | null {
  const appendix = APPENDIX.exec(text);
  if (appendix) return { number: appendix[1] ?? '', depth: 1 };
  const match = NUMBERING.exec(text);
  if (!match) return null;
  const raw = match[1]!.replace(/\.$/, '');
  if (/^\d/.test(raw)) {
    const parts = raw.split('.');
    if (Number(parts[0]) === 0 || Number(parts[0]) > 30) return null;
    return { number: raw, depth: parts.length };
  }
  // Roman numerals are top-level sections (RevTeX's "II. METHODS"); single capitals one below.
  return { number: raw, depth: /^[IVX]+$/.test(raw) && raw !== 'X' ? 1 : 2 };
}

/** Letters, counting the CJK radicals some PDFs map ideographs to ("⾔" for "言"). */
const letters = (text: string): number => (text.match(/[\p{L}\u2E80-\u2FDF]/gu) ?? []).length;
/** Scripts written without spaces, where a two-character word is a whole heading ("序言"). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u;
const words = (text: string): string[] => collapse(text).split(' ').filter((w) => w !== '');

/** True for text written in capitals (at least four letters, no lower-case letter). */
function allCaps(text: string): boolean {
  return letters(text) >= 4 && !/\p{Ll}/u.test(text) && /\p{Lu}/u.test(text);
}

// ---------------------------------------------------------------------------------------------
// Metadata

const JUNK_TITLE = [
  /^(microsoft\s+(word|powerpoint|excel)|writer|untitled|document|doc|title|slide|presentation|print|unknown|none|null)\b[\s\d-]*$/i,
  /^microsoft\s+\w+\s+-/i,
  /\.(docx?|pdf|tex|dvi|ps|eps|odt|rtf|txt|indd|qxd|html?|xlsx?|pptx?)$/i,
  /^[\w.-]+\.\w{2,4}$/,
  /^[\w-]*\d[\w-]*$/,
];

/** Why an Info title is not believable, or null when it is. */
export function implausibleTitle(title: string, id: string): string | null {
  const text = collapse(title);
  if (text === '') return 'it is empty';
  if (letters(text) < 3) return 'it has fewer than three letters';
  if (/[\uFFFD\u0000-\u0008\u000E-\u001F]/u.test(text)) return 'it holds replacement or control characters';
  const base = id.split('/').pop() ?? id;
  if (comparable(text) === comparable(base)) return 'it is the file name';
  for (const pattern of JUNK_TITLE) if (pattern.test(text)) return 'it looks like a file or program name';
  return null;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
const AFFILIATION =
  /universit|institut|department|dept\b|laborator|college|school|centre|center|academy|acad[eé]m|facult|division|observator|hospital|gmbh|\binc\b|corporation|\bvia\b|street|\broad\b|avenue|\bcnrs\b|\binfn\b|\bp\.\s?o\.\s?box|fakult|universidad|universit[àé]|politecnico|research|collaboration/iu;
const ABSTRACT = /^\s*(abstract|summary|r[ée]sum[ée]|zusammenfassung|аннотация|resumen)\b[\s.:—–-]*/iu;
const KEYWORDS = /^\s*(key\s*-?\s*words(?:\s+and\s+phrases)?|index\s+terms|mots[- ]cl[ée]s|schlagw[öo]rter)\s*[:.—–-]\s*/iu;

/** Splits an author line into names: commas, "and", "&", footnote marks removed. */
export function splitAuthors(text: string): string[] {
  return collapse(
    text
      .replace(EMAIL, ' ')
      .replace(/[<([{]\s*[>)\]}]/gu, ' ')
      .replace(/[∗*†‡§¶#♯♭♮⋆]+/gu, ' ')
      .replace(/(?<=\p{L})\d+(,\d+)*/gu, ' ')
      .replace(/\(\s*dated:[^)]*\)/giu, ' '),
  )
    .split(/\s*(?:,|;|\band\b|&|\bund\b|\bet\b)\s*/u)
    .map((name) => name.trim().replace(/^[\d,\s]+|[\d,\s]+$/gu, ''))
    .filter((name) => letters(name) >= 2 && words(name).length <= 5);
}

/** Particles that stay lower-case inside names. */
const NAME_PARTICLES = new Set(['von', 'van', 'der', 'den', 'de', 'di', 'da', 'du', 'del', 'della', 'le', 'la', 'dos', 'das', 'bin', 'ibn', 'al', 'el', 'ter', 'zu']);

/** True when a line reads as a list of personal names: two words or more each, every word capitalised. */
export function looksLikeNames(text: string): boolean {
  const names = splitAuthors(text);
  if (names.length === 0) return false;
  const good = names.filter((name) => words(name).length >= 2 && words(name).every((w) => /^[\p{Lu}\p{Lt}]/u.test(w) || NAME_PARTICLES.has(w.toLowerCase())) && !/\d/u.test(name));
  return good.length >= names.length * 0.8;
}

/** The metadata fields of a dictionary-like source (the Info dictionary, the XMP packet). */
interface Fields {
  title?: string | undefined;
  author?: string | undefined;
  keywords?: string | undefined;
  description?: string | undefined;
}

/** Metadata from a dictionary-like source, and why its title was not believed (null when it was). */
function fieldSource(fields: Fields, id: string): { source: MetaSource; reason: string | null } {
  const text = (value: unknown): string => (typeof value === 'string' ? collapse(value) : '');
  const title = text(fields.title);
  const reason = implausibleTitle(title, id);
  const author = text(fields.author);
  const description = text(fields.description);
  return {
    source: {
      title: reason === null ? title : null,
      authors: author === '' ? [] : splitAuthors(author),
      affiliations: [],
      emails: author.match(EMAIL) ?? [],
      keywords: text(fields.keywords).split(/[;,]/).map(collapse).filter((k) => k !== ''),
      abstract: description.length > 80 ? description : null,
    },
    reason: title === '' ? 'it has no title' : reason,
  };
}

interface Located {
  page: number;
  index: number;
  block: Block;
}

/** The size most characters of the document's body are set in. */
export function bodySize(pages: readonly PageRecord[]): number {
  const weight = new Map<number, number>();
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote') continue;
      const size = Math.round(block.size * 2) / 2;
      weight.set(size, (weight.get(size) ?? 0) + block.text.length);
    }
  }
  let best = 0;
  let bestWeight = -1;
  for (const [size, w] of weight) if (w > bestWeight) [best, bestWeight] = [size, w];
  return best || 10;
}

/**
 * Reads the front matter of page 1: marks the blocks taken for title, authors, affiliations,
 * e-mails, keywords and abstract in `roles`, and returns what they say.
 */
function layoutSource(page: PageRecord | undefined, body: number, roles: Map<string, StructureRole>): MetaSource {
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
  for (let i = titleAt + titleParts.length; i < blocks.length; i++) {
    const located = blocks[i]!;
    const text = collapse(located.block.text);
    if (abstractNext) {
      out.abstract = text;
      roles.set(key(located), 'abstract');
      abstractNext = false;
      continue;
    }
    const abstract = ABSTRACT.exec(text);
    if (abstract) {
      const rest = text.slice(abstract[0].length);
      roles.set(key(located), 'abstract');
      if (rest === '') abstractNext = true;
      else out.abstract = rest;
      continue;
    }
    const keywords = KEYWORDS.exec(text);
    if (keywords) {
      out.keywords.push(...text.slice(keywords.index + keywords[0].length).replace(/\.$/, '').split(/\s*[;,·]\s*/u).filter((k) => k !== ''));
      roles.set(key(located), 'keywords');
      continue;
    }
    if (headingNumber(text) || (located.block.role === 'list' && !AFFILIATION.test(text)) || KNOWN_SECTION.test(text)) break;
    const long = located.block.lines > 4 || words(text).length > 60;
    if (long) {
      // An unlabelled abstract: the first long paragraph of the front matter, set smaller than the body.
      if (out.abstract === null && located.block.size < body - 0.25 && (out.authors.length > 0 || out.affiliations.length > 0)) {
        out.abstract = text;
        roles.set(key(located), 'abstract');
        continue;
      }
      break;
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

// ---------------------------------------------------------------------------------------------
// Sections

interface Start {
  /** Position of the heading block in document order (page, index), or the first block of the page. */
  page: number;
  index: number;
  level: number;
  title: string;
  number: string | null;
  from: 'outline' | 'layout';
  /** True when the block at `index` is the heading itself. */
  onBlock: boolean;
  /** How many blocks the heading covers (a heading broken over two lines can be two blocks). */
  span: number;
  /** A heading run into its paragraph's first line: the block stays a paragraph, without the heading's text. */
  runIn: boolean;
}

/** A heading's text for matching: without its numbering, compared as `comparable`. */
const headingKey = (text: string): string => comparable(collapse(text).replace(APPENDIX, '').replace(NUMBERING, ''));

function flattenOutline(entries: readonly OutlineEntry[], level: number, out: { entry: OutlineEntry; level: number }[], seen: Set<OutlineEntry>): void {
  for (const entry of entries) {
    if (seen.has(entry) || level > 32) continue;
    seen.add(entry);
    out.push({ entry, level });
    flattenOutline(entry.children ?? [], level + 1, out, seen);
  }
}

function outlineStarts(doc: DocRecord, pages: readonly PageRecord[], diagnostics: DiagnosticRecord[]): Start[] {
  const flat: { entry: OutlineEntry; level: number }[] = [];
  flattenOutline(doc.meta.outline ?? [], 1, flat, new Set());
  const byNumber = new Map(pages.map((p) => [p.page, p]));
  const starts: Start[] = [];
  let bad = 0;
  let unordered = 0;
  let previous = { page: 0, index: -1 };
  for (const { entry, level } of flat) {
    const title = collapse(String(entry.title ?? ''));
    if (entry.page === null || !byNumber.has(entry.page) || title === '') {
      bad += 1;
      continue;
    }
    const page = byNumber.get(entry.page)!;
    const wanted = headingKey(title);
    const from = page.page === previous.page ? previous.index + 1 : 0;
    const blocks = page.blocks ?? [];
    let index = -1;
    for (let i = from; i < blocks.length && wanted !== ''; i++) {
      const text = headingKey(blocks[i]!.text);
      if (text === wanted || (text.startsWith(wanted) && text.length <= wanted.length * 1.5 + 10) || (wanted.startsWith(text) && text.length >= wanted.length * 0.6)) {
        index = i;
        break;
      }
    }
    // A heading broken over blocks: take the next ones while they continue the bookmark's title.
    let span = 1;
    if (index !== -1) {
      let joined = headingKey(blocks[index]!.text);
      while (joined.length < wanted.length && blocks[index + span]) {
        const longer = `${joined} ${headingKey(blocks[index + span]!.text)}`;
        if (!wanted.startsWith(longer)) break;
        joined = longer;
        span += 1;
      }
    }
    let start: Start = { page: page.page, index: index === -1 ? from : index, level, title, number: headingNumber(title)?.number ?? null, from: 'outline', onBlock: index !== -1, span, runIn: false };
    if (start.page < previous.page || (start.page === previous.page && start.index <= previous.index && !(index === -1 && start.index === previous.index + 1))) {
      unordered += 1;
      start = { ...start, page: previous.page, index: previous.index + 1, onBlock: false };
    }
    starts.push(start);
    previous = { page: start.page, index: start.onBlock ? start.index + start.span - 1 : start.index - 1 };
  }
  if (bad > 0) {
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'outline-bad-entry', `Ignored ${bad} outline entries without a title or pointing to a missing page`, { count: bad }),
    );
  }
  if (unordered > 0) {
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'outline-out-of-order', `${unordered} outline entries point before the entry above them; their sections start where the previous one does`, { count: unordered }),
    );
  }
  return starts;
}

/** Headings that papers use without numbers and often in the body's own size. */
const KNOWN_SECTION =
  /^(acknowledge?ments?|references|bibliography|conclusions?|introduction|appendix|discussion|summary and conclusions?|einleitung|literatur(verzeichnis)?|danksagung|remerciements|références|bibliographie|introducción|referencias|agradecimientos|введение|литература|заключение)$/iu;

/** Front-matter labels: metadata, not sections. */
const LABEL_ONLY = /^(abstract|summary|key\s*words|index terms)$/iu;

/**
 * True when a text can be a heading's: not a formula (no `=`, no operator at its end), some words
 * of three letters or more once the numbering is taken off, not a front-matter label.
 */
function isHeadingText(text: string): boolean {
  if (/[+−×·^_]$|\s-$/u.test(text) || LABEL_ONLY.test(text)) return false;
  // A sentence cut before its end ("3 The corresponding values in relation (29) is").
  if (/\s(is|are|was|were|the|of|and|to|that|a|an|with|for|in|by)$/u.test(text)) return false;
  // An institution with its address ("I. Physikalisches Institut, RWTH, D-52056 Aachen").
  if (AFFILIATION.test(text) && text.includes(',')) return false;
  const rest = text.replace(APPENDIX, '').replace(NUMBERING, '');
  if (UNSPACED.test(rest)) return letters(rest) >= 2;
  const longWords = rest.split(/\s+/u).filter((w) => letters(w) >= 3);
  // A relation is a formula unless it sits in a sentence of words ("Models with θ13 = 0").
  if (/[=≡≈≤≥∑∫]/u.test(text) && longWords.length < 3) return false;
  return longWords.reduce((n, w) => n + letters(w), 0) >= 4;
}

/** True when a block looks like a section heading by its layout. */
/**
 * Fonts that set headings in the body's own size (a bold face): not the body's font, used by at
 * least two blocks, three quarters of them single short lines without final punctuation, and for
 * under 15% of the text.
 */
export function headingFonts(pages: readonly PageRecord[]): Set<string> {
  const chars = new Map<string, number>();
  const blocks = new Map<string, { total: number; short: number }>();
  let all = 0;
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote') continue;
      const text = collapse(block.text);
      chars.set(block.font, (chars.get(block.font) ?? 0) + text.length);
      all += text.length;
      const entry = blocks.get(block.font) ?? { total: 0, short: 0 };
      entry.total += 1;
      if (block.lines === 1 && words(text).length <= 10 && !/[.,;:]$/u.test(text) && isHeadingText(text)) entry.short += 1;
      blocks.set(block.font, entry);
    }
  }
  let bodyFont = '';
  for (const [font, n] of chars) if (n > (chars.get(bodyFont) ?? -1)) bodyFont = font;
  const out = new Set<string>();
  for (const [font, { total, short }] of blocks) {
    if (font !== bodyFont && short >= 2 && short >= total * 0.75 && (chars.get(font) ?? 0) < all * 0.15) out.add(font);
  }
  return out;
}

export function looksLikeHeading(block: Block, body: number, options: StructureOptions, fonts: ReadonlySet<string> = new Set()): boolean {
  if (FURNITURE_ROLES.has(block.role) || block.role === 'footnote' || block.role === 'caption') return false;
  const text = collapse(block.text);
  const count = words(text).length;
  const numbered = headingNumber(text);
  // The numbering and "Appendix A" count as words too.
  if (count === 0 || count > options.headingMaxWords + (numbered ? 2 : 0) || text.length > 160 || block.lines > 3) return false;
  if (letters(text) < (UNSPACED.test(text) ? 2 : 3) || letters(text) < text.length * 0.5) return false;
  if (/[.,;:=]$/u.test(text) && !/^([IVX]+|\d+)\.$/u.test(text)) return false;
  if (!/^[\p{Lu}\p{Lo}\d]/u.test(text)) return false;
  if (/^(figure|fig\.|table|tab\.)\s*\d/iu.test(text)) return false;
  if (!isHeadingText(text)) return false;
  if (numbered || (KNOWN_SECTION.test(text) && block.lines === 1)) return block.size >= body * 0.85;
  if (allCaps(text) && count <= 8) return block.size >= body * 0.85;
  if (fonts.has(block.font) && block.lines === 1 && count <= 10) return block.size >= body * 0.85;
  return block.role === 'heading' || block.size >= body * options.headingSize;
}

/** A numbered heading in capitals, followed by a sentence ("IV. GROUND STATE We now …"). */
const RUN_IN_CAPS = /^((?:[IVX]{1,5}\.|\d{1,2}(?:\.\d{1,2})*\.?)(?:\s+[\p{Lu}\d][\p{Lu}\d'’-]*)+)\s+(?=\p{Lu}\p{Ll}+\s)/u;

/** "2.2. Title words. " at the start of a paragraph: a numbered run-in heading ended by a full stop. */
const RUN_IN_STOPPED = /^(\d{1,2}(?:\.\d{1,2})+\.\s+[^.]{3,80}?)\.\s+(?=[\p{Lu}\d])/u;

/** Marks that end a line inside a block's text (the joins `paragraphs` made). */
const LINE_JOINS = new Set(['line-join', 'dehyphenate', 'keep-hyphen', 'no-space-script']);

/**
 * The first line of a block that starts with a numbered heading run into its paragraph
 * ("1. Introduction" on its own line, set like the text below it, so `paragraphs` joined them),
 * or null. The line must be short against the block (under 70% of its width, measured on the
 * page's line when it is found) and the next line must start a sentence.
 */
export function runInHeading(block: Block, page: PageRecord): string | null {
  if (block.role !== 'body' && block.role !== 'list') return null;
  // A numbered heading in capitals, then the paragraph's words: "IV. GROUND STATE We now minimize …".
  const caps = RUN_IN_CAPS.exec(block.text);
  if (caps && isHeadingText(caps[1]!) && words(block.text.slice(caps[0].length)).length >= 2) return collapse(caps[1]!);
  // A subsection run in with a full stop, as AMS styles set them: "2.2. Adams operations. There are …".
  const stopped = RUN_IN_STOPPED.exec(block.text);
  if (stopped && isHeadingText(stopped[1]!)) return collapse(stopped[1]!);
  if (block.lines < 2) return null;
  const mark = block.inferred.find((m) => LINE_JOINS.has(m.rule));
  if (!mark) return null;
  const first = block.text.slice(0, mark.at).trim();
  const next = block.text.slice(mark.kind === 'break' ? mark.at + 1 : mark.at);
  if (!headingNumber(first) || words(first).length > 10 || first.length > 70 || /[.,;:]$/u.test(first) || !isHeadingText(first)) return null;
  if (!/^[\p{Lu}\p{Lo}\d]/u.test(next)) return null;
  const line = (page.lines ?? []).find((l) => collapse(l.text) === collapse(first) && l.box.y >= block.box.y - 1 && l.box.y <= block.box.y + block.size * 2);
  const width = line ? line.box.w : first.length * block.size * 0.5;
  return width < block.box.w * 0.7 ? collapse(first) : null;
}

/** True when `next` continues the heading `block` on the line below (same font and size, right under it). */
function continuesHeading(block: Block, next: Block | undefined): boolean {
  if (!next || next.font !== block.font || Math.abs(next.size - block.size) > 0.3 || next.lines > 2) return false;
  const text = collapse(next.text);
  if (words(text).length > 10 || headingNumber(text) || /[.;:]$/u.test(text)) return false;
  const gap = next.box.y - (block.box.y + block.box.h);
  return gap > -block.size * 0.5 && gap < block.size * 0.8 && Math.abs(next.box.x - block.box.x) < block.size * 20;
}

function layoutStarts(pages: readonly PageRecord[], body: number, roles: Map<string, StructureRole>, options: StructureOptions): Start[] {
  const found: { page: number; index: number; block: Block; title: string; span: number; runIn: boolean; number: { number: string; depth: number } | null }[] = [];
  const fonts = headingFonts(pages);
  // Nothing above the title on its page is a section heading (report numbers, institution banners).
  let titlePage = 0;
  let titleIndex = -1;
  for (const page of pages) {
    (page.blocks ?? []).forEach((_, index) => {
      if (titleIndex === -1 && roles.get(blockId(page.page, index + 1)) === 'title') [titlePage, titleIndex] = [page.page, index];
    });
  }
  for (const page of pages) {
    const blocks = page.blocks ?? [];
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]!;
      if (roles.has(blockId(page.page, index + 1)) || (page.page === titlePage && index < titleIndex)) continue;
      const runIn = runInHeading(block, page);
      if (runIn) {
        found.push({ page: page.page, index, block, title: runIn, span: 1, runIn: true, number: headingNumber(runIn) });
        continue;
      }
      if (looksLikeHeading(block, body, options, fonts)) {
        let title = collapse(block.text);
        let span = 1;
        while (span < 3 && continuesHeading(block, blocks[index + span])) {
          const more = collapse(blocks[index + span]!.text);
          title = /\p{L}-$/u.test(title) && /^\p{Ll}/u.test(more) ? title.slice(0, -1) + more : `${title} ${more}`;
          span += 1;
        }
        found.push({ page: page.page, index, block, title, span, runIn: false, number: headingNumber(title) });
        index += span - 1;
      }
    }
  }
  // Depth: the numbering when there is one; else the level of numbered headings of the same size;
  // else the rank of the size among the unnumbered headings' sizes.
  const levelBySize = new Map<number, number>();
  for (const h of found) if (h.number && !h.runIn) {
    const size = Math.round(h.block.size * 2) / 2;
    levelBySize.set(size, Math.min(levelBySize.get(size) ?? 99, h.number.depth));
  }
  const sizes = [...new Set(found.filter((h) => !h.number).map((h) => Math.round(h.block.size * 2) / 2))].sort((a, b) => b - a);
  return found.map((h) => {
    const size = Math.round(h.block.size * 2) / 2;
    const level = h.number?.depth ?? levelBySize.get(size) ?? sizes.indexOf(size) + 1;
    return { page: h.page, index: h.index, level: Math.max(1, Math.min(level, 6)), title: h.title, number: h.number?.number ?? null, from: 'layout', onBlock: true, span: h.span, runIn: h.runIn };
  });
}

// ---------------------------------------------------------------------------------------------
// Keywords

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(lang: string | null): Intl.Segmenter {
  const key = lang ?? '';
  let found = segmenters.get(key);
  if (!found) {
    try {
      found = new Intl.Segmenter(lang ?? undefined, { granularity: 'word' });
    } catch {
      found = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    segmenters.set(key, found);
  }
  return found;
}

/** The words of a text (Intl.Segmenter's word-like segments), lower-cased, without stop-words or numbers. */
export function keywordTerms(text: string, tag: string | null): string[] {
  const lang = validLang(tag);
  const stop = stopWords(lang);
  const out: string[] = [];
  for (const segment of segmenter(lang).segment(text)) {
    if (!segment.isWordLike) continue;
    const word = segment.segment.toLocaleLowerCase(lang ?? undefined);
    if (!/\p{L}/u.test(word) || stop.has(word)) continue;
    // One Latin, Cyrillic or Greek letter is no keyword; one ideograph may be.
    if ([...word].length < 2 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(word)) continue;
    out.push(word);
  }
  return out;
}

/** TF-IDF keywords of each text against the others (pure): at most `limit` per text, best first. */
export function tfidfKeywords(texts: readonly { text: string; lang: string | null }[], limit: number): string[][] {
  const terms = texts.map(({ text, lang }) => keywordTerms(text, lang));
  const df = new Map<string, number>();
  for (const list of terms) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = texts.length;
  return terms.map((list) => {
    if (list.length === 0 || limit <= 0) return [];
    const tf = new Map<string, number>();
    for (const term of list) tf.set(term, (tf.get(term) ?? 0) + 1);
    const scored = [...tf].map(([term, count], order) => ({ term, order, score: (count / list.length) * Math.log(n / (df.get(term) ?? 1)) }));
    return scored
      .filter((s) => s.score > 0)
      // Equal scores (words seen once, in one paragraph): the longer word says more.
      .sort((a, b) => b.score - a.score || [...b.term].length - [...a.term].length || a.order - b.order)
      .slice(0, limit)
      .map((s) => s.term);
  });
}

// ---------------------------------------------------------------------------------------------
// The whole document

/** A language tag as given when it is well-formed BCP 47, else null (a PDF's /Lang can hold anything). */
export function validLang(tag: unknown): string | null {
  if (typeof tag !== 'string' || tag === '' || tag === 'und') return null;
  try {
    return Intl.getCanonicalLocales(tag).length === 1 ? tag : null;
  } catch {
    return null;
  }
}

/** A block's language: its own (set by language identification), else the document's /Lang. */
const blockLang = (block: Block, doc: DocRecord): string | null => validLang((block as Block & { lang?: unknown }).lang) ?? validLang(doc.meta.lang);

/** The structure of one document (pure). */
export function documentStructure(doc: DocRecord, allPages: readonly PageRecord[], partial: Partial<StructureOptions> = {}): Structure {
  const options = { ...DEFAULTS, ...partial };
  const diagnostics: DiagnosticRecord[] = [];
  // Ids are made of page numbers: a page number seen twice would give two blocks one id.
  const seenPages = new Set<number>();
  const pages = allPages.filter((p) => !seenPages.has(p.page) && seenPages.add(p.page));
  if (pages.length < allPages.length) {
    diagnostics.push(diagnostic(doc.id, STAGE, 'duplicate-page', `Ignored ${allPages.length - pages.length} page records whose page number came before`, { count: allPages.length - pages.length }));
  }
  const body = bodySize(pages);
  const roles = new Map<string, StructureRole>();
  const first = pages.find((p) => (p.blocks ?? []).some((b) => !FURNITURE_ROLES.has(b.role) && letters(b.text) > 0));
  if (first && first.page !== 1) {
    diagnostics.push(diagnostic(doc.id, STAGE, 'no-text-on-first-page', `Page 1 has no text; the front matter was looked for on page ${first.page}`, { place: { page: first.page } }));
  }
  const layout = layoutSource(first, body, roles);
  const infoDict = doc.meta.info ?? {};
  const { source: info, reason: infoReason } = fieldSource({ title: infoDict.Title, author: infoDict.Author, keywords: infoDict.Keywords, description: infoDict.Subject }, doc.id);
  const xmpDict = doc.meta.xmp ?? {};
  const { source: xmp, reason: xmpReason } = fieldSource(
    { title: xmpDict['dc:title'], author: xmpDict['dc:creator'], keywords: xmpDict['pdf:keywords'] ?? xmpDict['dc:subject'], description: xmpDict['dc:description'] },
    doc.id,
  );
  let metaFrom: Structure['metaFrom'] = 'none';
  let meta: MetaSource = layout;
  const chosen = info.title !== null ? info : xmp.title !== null ? xmp : null;
  if (chosen) {
    metaFrom = chosen === info ? 'info' : 'xmp';
    // The dictionary's title is the title; dictionaries are thin, so the other one and the page fill the gaps.
    const other = chosen === info ? xmp : info;
    const pick = <T>(list: (T[] | T | null)[]): T[] | T | null => list.find((v) => (Array.isArray(v) ? v.length > 0 : v !== null)) ?? null;
    meta = {
      title: chosen.title,
      authors: (pick([chosen.authors, other.authors, layout.authors]) as string[] | null) ?? [],
      affiliations: layout.affiliations,
      emails: (pick([chosen.emails, other.emails, layout.emails]) as string[] | null) ?? [],
      keywords: (pick([chosen.keywords, other.keywords, layout.keywords]) as string[] | null) ?? [],
      abstract: chosen.abstract ?? other.abstract ?? layout.abstract,
    };
  } else if (layout.title !== null) {
    metaFrom = 'layout';
    diagnostics.push(
      diagnostic(doc.id, STAGE, 'title-from-layout', `The title was taken from the layout of page ${first?.page ?? 1}: the Info dictionary's was not used because ${infoReason}, the XMP metadata's because ${xmpReason}`, { severity: 'info' }),
    );
  } else {
    diagnostics.push(diagnostic(doc.id, STAGE, 'no-title', 'No title was found, neither in the Info dictionary or XMP metadata nor on the first page'));
  }

  let starts = outlineStarts(doc, pages, diagnostics);
  let sectionsFrom: Structure['sectionsFrom'] = 'outline';
  if (starts.length === 0) {
    starts = layoutStarts(pages, body, roles, options);
    sectionsFrom = starts.length > 0 ? 'layout' : 'none';
    if (starts.length > 0) {
      diagnostics.push(diagnostic(doc.id, STAGE, 'sections-from-layout', `The PDF has no usable outline; ${starts.length} headings were found by size, numbering and capitals`, { severity: 'info', count: starts.length }));
    }
  }

  // Every block, in reading order, with its role; keywords over the paragraphs that carry text.
  const all: Paragraph[] = [];
  const position = new Map<string, number>();
  for (const page of pages) {
    (page.blocks ?? []).forEach((block, index) => {
      const id = blockId(page.page, index + 1);
      position.set(`${page.page}:${index}`, all.length);
      all.push({ id, page: page.page, box: block.box, role: roles.get(id) ?? block.role, lang: blockLang(block, doc), dir: block.dir === 'rtl' ? 'rtl' : 'ltr', text: collapse(block.text), continues: block.continues, keywords: [] });
    });
  }
  const textual = all.filter((p) => !FURNITURE_ROLES.has(p.role as Block['role']) && p.text !== '');
  // A paragraph continued across a page or column is one paragraph for its keywords.
  const groups: Paragraph[][] = [];
  for (const p of textual) {
    const last = groups[groups.length - 1];
    if (p.continues && last) last.push(p);
    else groups.push([p]);
  }
  const keywords = tfidfKeywords(groups.map((g) => ({ text: g.map((p) => p.text).join(' '), lang: g[0]!.lang })), options.keywords);
  groups.forEach((g, i) => {
    g[0]!.keywords = keywords[i] ?? [];
  });

  // Nest: each start opens a section at its level; blocks go to the innermost open section.
  const front: Paragraph[] = [];
  const roots: Section[] = [];
  const startAt = new Map<number, Start[]>();
  for (const start of starts) {
    const at = position.get(`${start.page}:${start.index}`) ?? all.length;
    const list = startAt.get(at) ?? [];
    list.push(start);
    startAt.set(at, list);
  }
  let sectionCount = 0;
  // The stack holds each open section with the rank it was opened at (outline depth, numbering
  // depth or size rank); a section's level is its depth in the tree.
  const stack: { section: Section; rank: number }[] = [];
  const open = (start: Start, heading: Paragraph | null): void => {
    while (stack.length > 0 && stack[stack.length - 1]!.rank >= start.level) stack.pop();
    const section: Section = {
      id: sectionId(++sectionCount),
      level: stack.length + 1,
      from: start.from,
      number: start.number,
      title: start.title,
      page: start.page,
      heading,
      more: [],
      paragraphs: [],
      sections: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.section.sections.push(section);
    else roots.push(section);
    stack.push({ section, rank: start.level });
  };
  for (let i = 0; i <= all.length; i++) {
    const opening = startAt.get(i) ?? [];
    let consumed = false;
    let skip = 0;
    for (const start of opening) {
      const paragraph = all[i];
      if (start.runIn && paragraph && paragraph.text.startsWith(start.title)) {
        // The heading leaves the paragraph, which stays (with its id) as the section's first.
        paragraph.text = paragraph.text.slice(start.title.length).replace(/^[\s.:]+/u, '');
        open(start, null);
        continue;
      }
      const heading = start.onBlock && !consumed ? paragraph ?? null : null;
      open(start, heading);
      if (heading) {
        heading.role = 'heading';
        consumed = true;
        const section = stack[stack.length - 1]!.section;
        for (let k = 1; k < start.span && all[i + k]; k++) section.more.push(all[i + k]!.id);
        skip = Math.max(0, start.span - 1);
      }
    }
    const paragraph = all[i];
    if (skip > 0) {
      i += skip;
      continue;
    }
    if (!paragraph || consumed) continue;
    const current = stack[stack.length - 1];
    if (current) current.section.paragraphs.push(paragraph);
    else front.push(paragraph);
  }
  return { id: doc.id, source: doc.source, pages: doc.meta.pages ?? pages.length, lang: validLang(doc.meta.lang), metaFrom, meta, info, xmp, layout, sectionsFrom, front, sections: roots, diagnostics };
}
