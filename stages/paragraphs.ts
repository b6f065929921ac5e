/**
 * paragraphs: lines → blocks (paragraphs, headings, list items, furniture, footnotes).
 *
 * Inside each layout block a new paragraph starts at a wider line gap than the block's usual one,
 * at a change of font size, at a list bullet, at a first-line indent, or (in justified text) after
 * a short line that ends a sentence. Headings are short paragraphs set larger than the document's
 * body text; footnotes are small text below the body at the foot of the page. Lines are joined
 * with a space (none inside CJK or Thai text), and a line-end hyphen is removed when the joined
 * word reads better: kept when the document itself writes the hyphenated form, removed otherwise.
 * A paragraph that runs on past a column or page break is marked `continues`.
 *
 * Adds `blocks` to each page. Works per document, because body size and run-on paragraphs span pages.
 */
import { documentTransform, ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import { median, mostCommon, unionBox } from '../lib/layout/geometry.js';
import { codePoints } from '../lib/lang/identify.js';
import { FURNITURE_ROLES, type Block, type InferredMark, type Line, type PageRecord, type Role } from '../lib/protocol/records.js';
import { helpText, parseArgs, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';

export interface ParagraphsOptions {
  /** A line gap more than this × the block's usual gap starts a paragraph. */
  gapRatio: number;
  /** A change of font size by more than this fraction starts a paragraph. */
  sizeChange: number;
  /** A first line indented by more than this × font size starts a paragraph. */
  indent: number;
  /** A line ended by choice (a paragraph end) when the next line's first word would have fitted
   * in the room left at its end with this much to spare (× font size). */
  chosenBreakRoom: number;
  /** A paragraph of at most this many lines set this much larger than body text is a heading. */
  headingSize: number;
  headingMaxLines: number;
  /** Text at most this × body size at the foot of a page, below the body, is a footnote. */
  footnoteSize: number;
}

export const DEFAULTS: ParagraphsOptions = {
  gapRatio: 1.3,
  sizeChange: 0.12,
  chosenBreakRoom: 0.5,
  indent: 0.9,
  headingSize: 1.12,
  headingMaxLines: 3,
  footnoteSize: 0.92,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'gapRatio', type: 'number', min: 1, description: "line gap that starts a paragraph, × the block's usual gap" },
  { key: 'sizeChange', type: 'number', min: 0, description: 'change of font size that starts a paragraph, fraction' },
  { key: 'chosenBreakRoom', type: 'number', min: 0, description: "room to spare after the next line's first word that ends a paragraph, × font size" },
  { key: 'indent', type: 'number', min: 0, description: 'first-line indent that starts a paragraph, × font size' },
  { key: 'headingSize', type: 'number', min: 1, description: 'size of a heading relative to body text' },
  { key: 'headingMaxLines', type: 'number', min: 1, description: 'most lines a heading has' },
  { key: 'footnoteSize', type: 'number', min: 0, description: 'largest footnote size relative to body text' },
];

export function normalizeOptions(partial: Partial<ParagraphsOptions> = {}): ParagraphsOptions {
  return ownOptions(DEFAULTS, partial);
}

const BULLET = /^\s*(?:[•◦▪▫●○■□‣⁃∙·\-–—*]|\(?\d{1,3}[.)]|\(?[a-z][.)]|[ivx]{1,4}[.)])\s+/u;
const SENTENCE_END = /[.!?。！？:;…"”»)\]]\s*$/u;
const NO_SPACE_JOIN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303f\uff00-\uffef]/u;
const LINE_END_HYPHEN = /(\p{L})[-\u00ad\u2010]$/u;
const STARTS_LOWER = /^\p{Ll}/u;
const STARTS_UPPER = /^\p{Lu}/u;

/**
 * Words of the document, for deciding line-end hyphens: how often each is written (lowercased), the
 * parts of words written with a hyphen inside a line, and whether the document marks its own
 * hyphenation breaks with soft hyphens (then a plain hyphen at a line end is a real one).
 */
export class Vocabulary extends Set<string> {
  readonly counts = new Map<string, number>();
  /** First parts of hyphenated words ("non" of "non-political"), and last parts. */
  readonly hyphenLeft = new Set<string>();
  readonly hyphenRight = new Set<string>();
  /** Lines that end in a soft hyphen or U+2010 (hyphenation breaks the generator marked). */
  softBreaks = 0;
  /** The most frequent words, most frequent first. */
  common: string[] = [];

  count(word: string): number {
    return this.counts.get(word) ?? 0;
  }
}

/** Words of the document, for deciding line-end hyphens. */
export function vocabulary(lines: readonly Line[]): Vocabulary {
  const words = new Vocabulary();
  let broken = false;
  for (const line of lines) {
    if (/[\u00ad\u2010]$/u.test(line.text.trim())) words.softBreaks += 1;
    // The halves of a word broken at a line end are not words: they do not count.
    let text = line.text.toLowerCase();
    if (broken) text = text.replace(/^\s*[\p{L}\p{M}]+/u, '');
    // Both expressions below need a hyphen at the end (before any spaces); tried from every
    // letter of a line, they are slow, and most lines do not end in one.
    const hyphenAtEnd = endsInHyphen(text);
    broken = hyphenAtEnd && /\p{L} ?[-\u00ad\u2010]\s*$/u.test(text);
    if (hyphenAtEnd) text = text.replace(/[\p{L}\p{M}]+ ?[-\u00ad\u2010]\s*$/u, '');
    for (const w of text.replace(/\u00ad/g, '').split(/[^\p{L}\p{M}\-\u2010]+/u)) {
      if (!w) continue;
      const word = w.includes('\u2010') ? w.replace(/\u2010/g, '-') : w;
      const count = words.counts.get(word);
      if (count === undefined) words.add(word);
      words.counts.set(word, (count ?? 0) + 1);
      if (!word.includes('-')) continue;
      const parts = word.split('-').filter(Boolean);
      if (parts.length > 1) {
        words.hyphenLeft.add(parts[0]!);
        words.hyphenRight.add(parts[parts.length - 1]!);
      }
    }
  }
  words.common = [...words.counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([w]) => w);
  return words;
}

/** True when a text ends in a hyphen (- U+00AD U+2010), spaces after it aside. */
function endsInHyphen(text: string): boolean {
  const trimmed = text.trimEnd();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  return last === 0x2d || last === 0xad || last === 0x2010;
}

/**
 * What to do with a hyphen that ends a line before `right`: join the word ("exam-" + "ple"), keep
 * the hyphen ("well-" + "known", "Anglo-" + "Saxon"), or keep it and add a space (a suspended
 * compound: "Rede-" + "und Meinungsfreiheit"). `left` is the line's last word with its hyphen.
 */
export function hyphenChoice(left: string, right: string, words: ReadonlySet<string>): { choice: 'join' | 'keep' | 'space'; rule: string } {
  const hyphen = left.at(-1) ?? '-';
  const stem = left.slice(0, -1).toLowerCase().replace(/\u2010/g, '-');
  const lower = right.toLowerCase();
  const joined = stem + lower;
  const hyphenated = `${stem}-${lower}`;
  const vocab = words instanceof Vocabulary ? words : null;
  const count = (w: string): number => (vocab ? vocab.count(w) : words.has(w) ? 1 : 0);
  // In a document that marks hyphenation breaks (U+2010 or a soft hyphen at line ends), one is.
  if (hyphen !== '-' && vocab && vocab.softBreaks > 0) return { choice: 'join', rule: 'dehyphenate' };
  // The document's own spelling decides first.
  const hyph = count(hyphenated);
  const join = count(joined);
  if (hyph > join) return { choice: 'keep', rule: 'keep-hyphen' };
  if (join > 0) return { choice: 'join', rule: 'dehyphenate' };
  // A word that already has a hyphen mostly breaks at its hyphens ("non-self-" + "governing"),
  // unless what follows is a short ending the document does not use as a word ("co-opera-" + "tion").
  const last = stem.slice(stem.lastIndexOf('-') + 1);
  if (stem.includes('-') && (count(lower) > 0 || count(last) > 0 || lower.length >= 6)) return { choice: 'keep', rule: 'keep-hyphen' };
  // A capital after the hyphen continues a compound of names ("Anglo-" + "Saxon").
  if (STARTS_UPPER.test(right)) return { choice: 'keep', rule: 'keep-hyphen' };
  if (!vocab) return { choice: 'join', rule: 'dehyphenate' };
  // Both halves are words of the document ("как-" + "либо").
  if (stem.length >= 3 && lower.length >= 3 && count(stem) >= 2 && count(lower) >= 2) return { choice: 'keep', rule: 'keep-hyphen' };
  // "Rede- und Meinungsfreiheit": the next word is one of the document's commonest short words.
  if (stem.length >= 3 && lower.length <= 4 && vocab.common.includes(lower)) return { choice: 'space', rule: 'suspended-hyphen' };
  // A document that marks its hyphenation breaks writes a plain hyphen only where the word has one.
  if (hyphen === '-' && vocab.softBreaks > 0) return { choice: 'keep', rule: 'keep-hyphen' };
  // The document writes compounds with these parts.
  if (vocab.hyphenLeft.has(stem) || vocab.hyphenRight.has(lower)) return { choice: 'keep', rule: 'keep-hyphen' };
  return { choice: 'join', rule: 'dehyphenate' };
}

/**
 * Joins a paragraph's lines. A line-end hyphen between letters is dropped ("exam-" + "ple"), kept
 * ("well-known", "Anglo-Saxon") or kept before a space ("Rede- und") as `hyphenChoice` decides; a
 * soft hyphen is always dropped. A space that the space estimation put before a line-end hyphen
 * (letter-spaced justified text: "schüt -") does not stop the word from being joined.
 */
export function joinLines(lines: readonly Line[], words: ReadonlySet<string>): { text: string; inferred: InferredMark[] } {
  let text = '';
  const inferred: InferredMark[] = [];
  let softBreak = false;
  for (const line of lines) {
    // Soft hyphens are invisible; one at the end of a line (Chromium follows it with U+2010)
    // marks a hyphenation break for certain.
    const raw = line.text.trim();
    const next = raw.replace(/\u00ad/g, '');
    if (text === '') {
      text = next;
    } else {
      // The paragraph so far ends in a hyphen: the tests below need one, and tried on all of a
      // long paragraph they are slow.
      const last = text.charCodeAt(text.length - 1);
      const endsHyphen = last === 0x2d || last === 0xad || last === 0x2010;
      // "schüt -": a space the space estimation put before a line-end hyphen is taken back.
      // Only when the document knows the joined word: "musiał -" + "doprowadzony" is a dash.
      if (endsHyphen && /\p{L} [-\u2010]$/u.test(text) && /^\p{Ll}/u.test(next)) {
        const mark = inferred.findIndex((m) => m.kind === 'space' && m.at === text.length - 2);
        const stem = /([\p{L}\p{M}]+) [-\u2010]$/u.exec(text)?.[1]?.toLowerCase() ?? '';
        const right = /^[\p{L}\p{M}]+/u.exec(next)?.[0]?.toLowerCase() ?? '';
        if (mark >= 0 && words.has(stem + right)) {
          inferred.splice(mark, 1);
          text = text.slice(0, -2) + text.slice(-1);
        }
      }
      // A letter (one or two code units) and the hyphen: the end of the text is enough.
      const hyphen = endsHyphen ? LINE_END_HYPHEN.exec(text.slice(-3)) : null;
      if (softBreak && /\p{L}/u.test(next[0] ?? '')) {
        if (/[-\u2010]$/u.test(text)) text = text.slice(0, -1);
        inferred.push({ at: text.length, kind: 'join', rule: 'dehyphenate' });
        text += next;
      } else if (hyphen && /^\p{L}/u.test(next)) {
        // The hyphenated word cannot reach back past a space: only the text after the last one is searched.
        const left = /[\p{L}\p{M}\-\u2010]+[-\u00ad\u2010]$/u.exec(text.slice(text.lastIndexOf(' ') + 1))?.[0] ?? '';
        const right = /^[\p{L}\p{M}]+/u.exec(next)?.[0] ?? '';
        const { choice, rule } = hyphenChoice(left, right, words);
        if (choice === 'join') text = text.slice(0, -1);
        else if (text.endsWith('\u2010')) text = text.slice(0, -1) + '-';
        inferred.push({ at: text.length, kind: choice === 'space' ? 'break' : 'join', rule });
        text += choice === 'space' ? ' ' + next : next;
      } else if (NO_SPACE_JOIN.test(text.at(-1) ?? '') && NO_SPACE_JOIN.test(next[0] ?? '')) {
        inferred.push({ at: text.length, kind: 'join', rule: 'no-space-script' });
        text += next;
      } else {
        inferred.push({ at: text.length, kind: 'break', rule: 'line-join' });
        text += ' ' + next;
      }
    }
    softBreak = /\u00ad[-\u2010]?$/u.test(raw);
    // Marks of the line keep their offsets relative to where the line's text landed.
    const start = text.length - next.length;
    for (const mark of line.inferred) if (mark.at <= next.length) inferred.push({ ...mark, at: start + mark.at });
  }
  return { text, inferred };
}


const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });
const firstSegment = (text: string): string => WORDS.segment(text)[Symbol.iterator]().next().value?.segment ?? '';

/**
 * True when a line ended by choice, not for want of room: the next line's first word would have
 * fitted in the space left at its end. Text set without blank lines or indents (plain-text
 * documents, some word processors) shows its paragraph ends only this way.
 *
 *   |The following items were flagged:      |   room at the end ≥ "affidavits" + a space
 *   |affidavits filed after the fifth of the|   → the line was ended on purpose
 *
 * Both lines must start at the block's edge (centred lines are short on both sides), and a line
 * ending in a hyphen was broken for want of room.
 */
export function endsByChoice(previous: Line, line: Line, left: number, rightEdge: number, spare = DEFAULTS.chosenBreakRoom): boolean {
  const rtl = previous.dir === 'rtl';
  const start = (l: Line) => (rtl ? rightEdge - (l.box.x + l.box.w) : l.box.x - left);
  if (start(previous) > 0.5 * previous.size || start(line) > 0.5 * line.size) return false;
  const text = line.text.trim();
  if (/[-\u00ad\u2010]$/u.test(previous.text.trim()) || text.length === 0) return false;
  const room = rtl ? previous.box.x - left : rightEdge - (previous.box.x + previous.box.w);
  // In scripts written without spaces a line may break after any word (Thai) or character (CJK).
  const unspaced = NO_SPACE_JOIN.test(text[0] ?? '');
  const firstWord = unspaced ? firstSegment(text) : FIRST_WORD.exec(text)![0];
  const perChar = line.box.w / codePoints(text);
  return room > ([...firstWord].length + (unspaced ? 0 : 1)) * perChar + spare * line.size;
}

/** The text up to its first space: its first word when the text is trimmed. */
const FIRST_WORD = /^\S*/u;

/** Splits the lines of one layout block into paragraphs (arrays of lines). */
export function splitParagraphs(lines: readonly Line[], options: ParagraphsOptions): Line[][] {
  if (lines.length === 0) return [];
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) gaps.push(lines[i]!.base - lines[i - 1]!.base);
  const usual = median(gaps.filter((g) => g > 0));
  const left = Math.min(...lines.map((l) => l.box.x));
  const rightEdge = Math.max(...lines.map((l) => l.box.x + l.box.w));
  const fullLines = lines.slice(0, -1).filter((l) => rightEdge - (l.box.x + l.box.w) < 0.6 * l.size).length;
  const justified = lines.length >= 3 && fullLines >= 0.6 * (lines.length - 1);
  const indentedLines = lines.filter((l) => l.box.x - left > options.indent * l.size).length;
  const paragraphs: Line[][] = [[lines[0]!]];
  for (let i = 1; i < lines.length; i++) {
    const previous = lines[i - 1]!;
    const line = lines[i]!;
    const gap = line.base - previous.base;
    const sizeJump = Math.abs(line.size - previous.size) > options.sizeChange * Math.max(line.size, previous.size);
    const wideGap = usual > 0 && gap > options.gapRatio * usual;
    const bullet = BULLET.test(line.text);
    // First-line indents only mean a new paragraph when indented lines are the minority.
    const indented = line.box.x - left > options.indent * line.size && indentedLines < lines.length / 2;
    const shortEnd =
      justified && rightEdge - (previous.box.x + previous.box.w) > 2 * previous.size && SENTENCE_END.test(previous.text);
    const chosenBreak = endsByChoice(previous, line, left, rightEdge, options.chosenBreakRoom);
    if (wideGap || sizeJump || bullet || indented || shortEnd || chosenBreak || gap < 0) paragraphs.push([line]);
    else paragraphs[paragraphs.length - 1]!.push(line);
  }
  return paragraphs;
}

/** The size of body text: the size that carries most characters. */
export function bodySize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    if (line.role && FURNITURE_ROLES.has(line.role)) continue;
    const size = Math.round(line.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/** The pure core: blocks for every page of one document. */
export function paragraphsOfDocument(group: DocumentGroup, partial: Partial<ParagraphsOptions> = {}): { pages: PageRecord[] } {
  const options = normalizeOptions(partial);
  const allLines = group.pages.flatMap((p) => p.lines ?? []);
  const words = vocabulary(allLines);
  const body = bodySize(allLines);
  let previousBody: Block | null = null;
  const pages = group.pages.map((page) => {
    const lines = page.lines ?? [];
    const blocks: Block[] = [];
    const bodyBottom = Math.max(0, ...lines.filter((l) => !l.role && Math.abs(l.size - body) < 0.5).map((l) => l.box.y + l.box.h));
    let index = 0;
    while (index < lines.length) {
      const blockId = lines[index]!.block;
      const group: Line[] = [];
      while (index < lines.length && lines[index]!.block === blockId) group.push(lines[index++]!);
      const furniture = group.find((l) => l.role)?.role;
      const parts = furniture ? [group] : splitParagraphs(group, options);
      parts.forEach((part, partIndex) => {
        const size = median(part.map((l) => l.size));
        let role: Role = furniture ?? 'body';
        const first = part[0]!;
        if (!furniture) {
          if (size >= options.headingSize * body && part.length <= options.headingMaxLines) role = 'heading';
          else if (BULLET.test(first.text)) role = 'list';
          else if (size <= options.footnoteSize * body && first.box.y >= bodyBottom - 1 && part.every((l) => l.box.y > page.height / 2)) role = 'footnote';
        }
        const { text, inferred } = joinLines(part, words);
        const block: Block = {
          text,
          box: unionBox(part.map((l) => l.box)),
          role,
          font: mostCommon(part.map((l) => l.font)),
          size: Math.round(size * 100) / 100,
          dir: mostCommon(part.map((l) => l.dir)) === 'rtl' ? 'rtl' : 'ltr',
          continues: false,
          lines: part.length,
          inferred,
        };
        // The first paragraph of a layout block may run on from the last body paragraph before it.
        if (partIndex === 0 && role !== 'heading' && previousBody && runsOn(previousBody, block)) block.continues = true;
        if (role === 'body' || role === 'list') previousBody = block;
        else if (role === 'heading') previousBody = null;
        blocks.push(block);
      });
    }
    return { ...page, blocks };
  });
  return { pages };
}

/** A paragraph runs on when the previous one stops mid-sentence and this one does not start a new one. */
function runsOn(previous: Block, next: Block): boolean {
  if (next.role !== 'body' || SENTENCE_END.test(previous.text)) return false;
  return STARTS_LOWER.test(next.text) || /[,\-\u00ad]$/u.test(previous.text) || !/[.!?。]$/u.test(previous.text.trim());
}

export function paragraphs(partial: Partial<ParagraphsOptions> = {}) {
  const options = normalizeOptions(partial);
  return documentTransform('paragraphs', (group) => paragraphsOfDocument(group, options));
}

export const USAGE = 'pdfpipe paragraphs [options] < lines.ndjson';
export const SUMMARY = 'Groups lines into paragraphs, headings, list items and footnotes; joins lines and removes line-end hyphens.';

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'paragraphs', transforms: [paragraphs(options)] });
}
