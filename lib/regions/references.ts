/**
 * The bibliography: the blocks after a "References" heading, up to the next heading, and runs of
 * labelled entries ("[12] …", "12. …" with a year) wherever they stand. An entry the paragraph
 * rules broke into several blocks (a lone "(2000)" line, a page break inside an entry) is joined
 * back into one block per entry when the list labels its entries.
 */
import { unionBox } from '../layout/geometry.js';
import { FURNITURE_ROLES, type Block, type PageRecord } from '../protocol/records.js';

/** The heading of a bibliography, numbered or not, in the languages pdfpipe meets most. */
export const REFERENCES_HEADING =
  /^(?:(?:\d{1,2}|[IVX]{1,5}|[A-Z])\.?\s+)?(?:references?(?: and notes)?|bibliography|literature(?: cited)?|works cited|citations|literatur(?:verzeichnis)?|références(?: bibliographiques)?|bibliographie|referencias(?: bibliográficas)?|bibliografía|bibliografia|riferimenti(?: bibliografici)?|referências|список литературы|литература|参考文献|문헌|参考資料)\s*:?$/iu;

/** An entry's label: "[12]", "[Knu84]", "12.", "(12)", "12)". */
export const REFERENCE_LABEL = /^\s*(?:\[[\p{L}\p{N}+.\- ]{1,12}\]|\d{1,3}\.(?=\s)|\(\d{1,3}\)|\d{1,3}\)(?=\s))/u;

/** A year of publication, as references give it. */
const YEAR = /\b(1[6-9]\d\d|20\d\d)[a-z]?\b/u;

/** Fewest consecutive labelled entries with years that make a bibliography without a heading. */
const MIN_RUN = 3;

/** Text set below this × the body size is small print. */
const SMALLER = 0.97;

/** An author's initial as references write it: "A. ", "J.-P. ". */
const INITIAL = /(?<![\p{L}])\p{Lu}\.(?:-\p{Lu}\.)?\s/gu;

/**
 * True when a block reads as bibliography entries: a year for every three lines or fewer, and as
 * many authors' initials as years.
 */
export function referenceLike(block: Block): boolean {
  const years = block.text.match(new RegExp(YEAR.source, 'gu'))?.length ?? 0;
  const initials = block.text.match(INITIAL)?.length ?? 0;
  return years >= 1 && years * 3 >= block.lines && initials >= years;
}

/** The share of a bibliography's blocks that must start with a label for unlabelled ones to be continuations. */
const LABELLED_SHARE = 0.6;

interface Located {
  page: PageRecord;
  block: Block;
}

const content = (pages: readonly PageRecord[]): Located[] =>
  pages.flatMap((page) => (page.blocks ?? []).filter((b) => !FURNITURE_ROLES.has(b.role)).map((block) => ({ page, block })));

/**
 * True when `block` is the next section's heading after the bibliography's heading `heading`:
 * set like it (font and size) or larger, short, and not an entry.
 */
function nextHeading(heading: Block, block: Block): boolean {
  if (block.lines > 2 || REFERENCE_LABEL.test(block.text) || /[.,;]$/u.test(block.text.trim())) return false;
  const sameStyle = block.font === heading.font && Math.abs(block.size - heading.size) < heading.size * 0.05;
  return sameStyle || block.size > heading.size * 1.05 || (block.role === 'heading' && block.size >= heading.size * 0.95);
}

/**
 * Marks the document's bibliography entries as `reference` (their heading as `heading`) and joins
 * the pieces of labelled entries. Returns how many blocks it marked.
 */
export function markReferences(pages: PageRecord[], bodySize: number): number {
  const located = content(pages);
  const inList = new Set<Block>();
  // After a bibliography heading, up to the next heading set like it; captions of floats stay captions.
  for (let i = 0; i < located.length; i++) {
    const heading = located[i]!.block;
    if (heading.lines > 2 || !REFERENCES_HEADING.test(heading.text.trim())) continue;
    heading.role = 'heading';
    for (let k = i + 1; k < located.length; k++) {
      const block = located[k]!.block;
      if (nextHeading(heading, block)) break;
      if (block.role !== 'caption') inList.add(block);
    }
  }
  // Blocks that read as entries (authors' initials, years), set smaller than the body or
  // several in a row: a bibliography without a heading (RevTeX sets none) or with labels the
  // paragraph rules split from their entries. Bare label columns between them go with them.
  let entries: Block[] = [];
  const closeEntries = (): void => {
    if (entries.some(referenceLike) && (entries.length >= MIN_RUN || entries.some((b) => b.size < bodySize * SMALLER))) for (const block of entries) inList.add(block);
    entries = [];
  };
  for (const { block } of located) {
    if (referenceLike(block) || (entries.length > 0 && /^[\d\s.,[\]()]+$/u.test(block.text))) entries.push(block);
    else closeEntries();
  }
  closeEntries();
  // Runs of labelled entries with years, where no heading announced them.
  let run: Block[] = [];
  const closeRun = (): void => {
    if (run.length >= MIN_RUN) for (const block of run) inList.add(block);
    run = [];
  };
  for (const { block } of located) {
    if (REFERENCE_LABEL.test(block.text) && YEAR.test(block.text) && block.role !== 'heading') run.push(block);
    else if (run.length > 0 && !REFERENCE_LABEL.test(block.text) && YEAR.test(block.text) && block.lines <= 2) run.push(block);
    else closeRun();
  }
  closeRun();
  for (const block of inList) {
    block.role = 'reference';
    block.continues = false;
  }
  mergeEntries(pages, inList);
  return inList.size;
}

/** Joins each unlabelled block of a labelled list to the entry before it. */
function mergeEntries(pages: PageRecord[], inList: ReadonlySet<Block>): void {
  const entries = [...inList];
  const labelled = entries.filter((b) => REFERENCE_LABEL.test(b.text)).length;
  if (entries.length === 0 || labelled < entries.length * LABELLED_SHARE) return;
  let entry: Block | null = null;
  for (const page of pages) {
    const kept: Block[] = [];
    for (const block of page.blocks ?? []) {
      if (!inList.has(block)) {
        if (!FURNITURE_ROLES.has(block.role)) entry = null;
        kept.push(block);
        continue;
      }
      if (REFERENCE_LABEL.test(block.text) || !entry) {
        entry = block;
        kept.push(block);
        continue;
      }
      appendBlock(entry, block, page === pageOf(pages, entry));
    }
    page.blocks = kept;
  }
}

const pageOf = (pages: readonly PageRecord[], block: Block): PageRecord | undefined => pages.find((p) => p.blocks?.includes(block));

/** `piece` appended to `entry` after a space; its box joins the entry's only on the same page. */
function appendBlock(entry: Block, piece: Block, samePage: boolean): void {
  const offset = entry.text.length + 1;
  entry.inferred = [...entry.inferred, { at: entry.text.length, kind: 'space', rule: 'reference-entry' }, ...piece.inferred.map((m) => ({ ...m, at: m.at + offset }))];
  entry.text = `${entry.text} ${piece.text}`;
  entry.lines += piece.lines;
  if (samePage) entry.box = unionBox([entry.box, piece.box]);
}
