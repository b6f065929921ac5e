/**
 * resegment: re-places word spaces inside lines with a language model of the document itself.
 *
 * Space estimation from glyph gaps leaves two kinds of damage: words spread into letters or
 * fragments ("t o", "Declara tion") and words glued together ("lalibertaddepalabra"). Following
 * Tiedemann's pdf2xml, a unigram model is built per document from its own lines (plus optional word
 * lists, `--lexicon`), and each line is re-segmented by dynamic programming:
 *
 * - merge: a run of space-separated tokens becomes one word when the joined word is known, at least
 *   one of the tokens is a fragment (a single letter, or a string the document uses nowhere else),
 *   and the joined word scores better than the tokens apart;
 * - split: a token that is longer than the document's long words, changes from lower to upper case
 *   inside, or fills a whole line of a spaced script, is split into known words when that scores
 *   better and enough of the pieces are the document's common words (so compounds stay whole).
 *
 * Both searches look back at most as far as the longest known word, so the cost is linear in the
 * line's length. Lines in scripts written without spaces (Thai, Lao, Khmer, Myanmar, CJK) are left
 * alone. With `--lm` an n-gram model (ARPA text read in-process, or a KenLM binary model scored
 * through KenLM's `query`) has the last word on each changed line: the line keeps whichever of its
 * old and new forms the model scores higher. Every change is marked in the line's `inferred` marks
 * (`join`/`merge-fragments`, `space`/`split-glued`); `--explain` also reports each changed line as
 * an `info` diagnostic.
 *
 * Rewrites `text` and `inferred` of each page's `lines`. Works per document (the model is the
 * document's). De-hyphenation at line ends is done where lines are joined, in `paragraphs`.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { readFileSync } from 'node:fs';
import { ownOptions, type DocumentGroup } from '../lib/protocol/stage.js';
import {
  diagnostic,
  errorRecord,
  type DiagnosticRecord,
  type InferredMark,
  type Line,
  type PageRecord,
  type PipeRecord,
} from '../lib/protocol/records.js';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../lib/protocol/options.js';
import { runFilter } from '../lib/run/filter.js';
import { ModelError, openModel, UnigramModel, wordsOf, type LanguageModel } from '../lib/lm/models.js';
import { codePoints } from '../lib/lang/identify.js';

export interface ResegmentOptions {
  /** Word lists or text files (comma-separated paths) whose words join the document's own. */
  lexicon: string;
  /** An n-gram model (ARPA text or KenLM binary) that decides between a line's old and new forms. */
  lm: string;
  /** Report each changed line (old and new text) as an `info` diagnostic. */
  explain: boolean;
  /** A merge must beat the tokens apart by this much (log10). */
  mergeMargin: number;
  /** A split must beat the whole token by this much (log10), besides a cost per added word. */
  splitMargin: number;
  /** Share of a split's pieces that must be among the document's common words. */
  commonShare: number;
  /** A line with no space and at least this many letters is split as a whole. */
  gluedLine: number;
}

export const DEFAULTS: ResegmentOptions = {
  lexicon: '',
  lm: '',
  explain: false,
  mergeMargin: 1,
  splitMargin: 2,
  commonShare: 0.4,
  gluedLine: 20,
};

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'lexicon', type: 'string', description: 'word lists or text files whose words count as known (comma-separated paths)' },
  { key: 'lm', type: 'string', description: 'n-gram model (ARPA file, or KenLM binary through `query`) to confirm each change' },
  { key: 'explain', type: 'boolean', description: 'report each changed line as a diagnostic' },
  { key: 'mergeMargin', type: 'number', min: 0, description: 'log10 score a merge must win by' },
  { key: 'splitMargin', type: 'number', min: 0, description: 'log10 score a split must win by' },
  { key: 'commonShare', type: 'number', min: 0, description: "share of a split's pieces that must be common words" },
  { key: 'gluedLine', type: 'number', min: 1, description: 'letters of a space-less line that is split as a whole' },
];

export function normalizeOptions(partial: Partial<ResegmentOptions> = {}): ResegmentOptions {
  const options = ownOptions(DEFAULTS, partial);
  for (const key of ['mergeMargin', 'splitMargin', 'commonShare', 'gluedLine'] as const) {
    if (!Number.isFinite(options[key]) || options[key] < 0) throw new UsageError(`--${key} must be a number ≥ 0`);
  }
  return options;
}

/** Scripts written without spaces between words: their lines are never resegmented. */
const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LETTERS = /^[\p{L}\p{M}]+$/u;
const LOWER_UPPER = /\p{Ll}\p{Lu}/u;
/** Longer than the longest words of any language (German compounds run to about 60 letters). */
const MAX_WORD = 64;
/** The longest run of letters the split search takes on: several glued lines of a wide page. */
const MAX_RUN = 1000;
/** Tokens that are addresses or paths, never split. */
const ADDRESS = /[@/\\]|:\/\/|^www\./iu;
/** Cost (log10) of each word a split adds: more words must earn their place. */
const WORD_COST = 0.5;
/** Further cost (log10) of each unknown word in a split: the letter model alone makes short ones too cheap. */
const UNKNOWN_COST = 2;

/** The words a lexicon file adds: a word list (hunspell `.dic` flags dropped) or running text. */
export function readLexicon(path: string, model: UnigramModel = new UnigramModel()): UnigramModel {
  const text = readFileSync(path, 'utf8');
  const lines = text.split(/\r?\n/);
  // A hunspell .dic starts with the word count; its entries carry /FLAGS.
  const dic = /^\d+\s*$/.test(lines[0] ?? '');
  for (const [i, line] of lines.entries()) {
    if (dic && i === 0) continue;
    const entry = dic ? line.split('/')[0]! : line;
    for (const w of wordsOf(entry)) model.add(w, 1);
  }
  return model;
}

/** What the search knows about one document. */
export interface DocumentModel {
  unigram: UnigramModel;
  /** Words known from a lexicon, whatever the document says. */
  lexicon: UnigramModel | null;
  /** Tokens at least this long are candidates for splitting. */
  longWord: number;
  /** The document's most frequent words. */
  common: ReadonlySet<string>;
}

/**
 * Builds the document's model: counts of its words, with a word broken by a line-end hyphen counted
 * in its joined form, and long words seen only once left out (they may be glued words).
 */
export function documentModel(lines: readonly Line[], lexicon: UnigramModel | null = null): DocumentModel {
  const tokens: string[] = [];
  let carry = '';
  for (const [i, line] of lines.entries()) {
    if (UNSPACED.test(line.text)) continue;
    const words = wordsOf(line.text);
    if (carry && words.length > 0 && lines[i - 1]?.block === line.block) words[0] = carry + words[0];
    else if (carry) tokens.push(carry);
    carry = '';
    if (/\p{L}[-\u00ad\u2010]$/u.test(line.text) && words.length > 0) carry = words.pop()!.replace(/[-\u00ad\u2010]+$/u, '');
    for (const word of words) tokens.push(word);
  }
  if (carry) tokens.push(carry);
  const raw = new Map<string, number>();
  for (const w of tokens) raw.set(w, (raw.get(w) ?? 0) + 1);
  // Long words: longer than any word the document uses twice, and at least 14 letters. A repeated
  // "word" longer than any language's (a row of thousands of letters in a hostile file) does not
  // count: the searches below cost the run's length times this, squared for such a row.
  let longWord = 14;
  for (const [w, c] of raw) if (c > 1) longWord = Math.max(longWord, Math.min(codePoints(w) + 1, MAX_WORD));
  const unigram = new UnigramModel();
  for (const [w, c] of raw) if (c > 1 || codePoints(w) < longWord) unigram.add(w, c);
  if (lexicon) for (const w of lexicon.counts.keys()) unigram.add(w, 1);
  const common = new Set(
    [...unigram.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 100)
      .map(([w]) => w),
  );
  return { unigram, lexicon, longWord, common };
}

/**
 * Whether fragments may become `joined`: the document uses the joined word, more often than it
 * uses any one-letter fragment alone ("t o" → "to", but not "d q" → "dq" in a formula), and at
 * least twice when the fragments are longer ("Declara tion" → "Declaration", not "speed up").
 */
function mergeable(model: DocumentModel, fragments: readonly Token[], joined: string): boolean {
  const count = model.unigram.count(joined);
  if (count === 0) return false;
  const single = fragments.filter((f) => codePoints(f.core) === 1);
  if (single.length < fragments.length && count < 2) return false;
  return single.every((f) => model.unigram.count(f.core) < count);
}

/** One change to a line's text. */
export interface Change {
  kind: 'merge' | 'split';
  /** Offset in the new text of the removed space (merge) or the inserted space (split). */
  at: number;
}

interface Token {
  text: string;
  start: number;
  /** The token's letters, lowercased, when it is letters only (with trailing/leading punctuation). */
  core: string;
  lead: string;
  trail: string;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = /\S+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const t = m[0];
    const ascii = asciiToken(t, m.index);
    if (ascii) {
      out.push(ascii);
      continue;
    }
    const parts = TOKEN_PARTS.exec(t);
    const core = parts && parts[2] ? parts[2].toLowerCase() : '';
    out.push({ text: t, start: m.index, core, lead: parts?.[1] ?? '', trail: parts?.[3] ?? '' });
  }
  return out;
}

const TOKEN_PARTS = /^([^\p{L}\p{M}]*)([\p{L}\p{M}]*)([^\p{L}\p{M}]*)$/u;

const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/**
 * `tokenize`'s split of a token that is all ASCII (most are), without a regular expression; null
 * for any other token. Lead, letters, trail, as TOKEN_PARTS matches them.
 */
function asciiToken(t: string, start: number): Token | null {
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) >= 0x80) return null;
  let i = 0;
  while (i < t.length && !isAsciiLetter(t.charCodeAt(i))) i++;
  let j = i;
  while (j < t.length && isAsciiLetter(t.charCodeAt(j))) j++;
  let k = j;
  while (k < t.length && !isAsciiLetter(t.charCodeAt(k))) k++;
  // Letters again after the trail: TOKEN_PARTS does not match.
  if (k < t.length) return { text: t, start, core: '', lead: '', trail: '' };
  return { text: t, start, core: t.slice(i, j).toLowerCase(), lead: t.slice(0, i), trail: t.slice(j) };
}

/** A token that may be part of a spread-out word: one letter, or a string the document uses once. */
function isFragment(model: DocumentModel, token: Token): boolean {
  if (!token.core) return false;
  const length = codePoints(token.core);
  if (length === 1) return true;
  return model.unigram.count(token.core) <= 1 && !(model.lexicon && model.lexicon.count(token.core) > 0);
}

/**
 * Merge search over a line's tokens: best[i] is the best score of the first i tokens; a word made
 * of tokens j..i-1 is considered while its length stays within the longest known word.
 * Returns the groups of token indices to merge.
 */
function mergeGroups(model: DocumentModel, tokens: readonly Token[], margin: number): Array<[number, number]> {
  const n = tokens.length;
  const best = new Array<number>(n + 1).fill(-Infinity);
  const from = new Array<number>(n + 1).fill(0);
  best[0] = 0;
  // Each token's own score, once: the search below reads it for every group the token is in.
  const singles = tokens.map((t) => (t.core ? model.unigram.logProb(t.core) : 0));
  for (let i = 1; i <= n; i++) {
    best[i] = best[i - 1]! + singles[i - 1]!;
    from[i] = i - 1;
    let joined = '';
    let apart = 0;
    let fragment = true;
    for (let j = i - 1; j >= 0; j--) {
      const t = tokens[j]!;
      // Inner tokens must be bare letters; the first may lead with punctuation, the last trail it.
      if (!t.core || (j < i - 1 && t.trail) || (j > 0 && j < i - 1 && t.lead)) break;
      if (j < i - 1 && tokens[j + 1]!.lead) break;
      joined = t.core + joined;
      apart += singles[j]!;
      fragment &&= isFragment(model, t);
      if (codePoints(joined) > model.longWord) break;
      if (!fragment) break;
      if (j === i - 1 || !mergeable(model, tokens.slice(j, i), joined)) continue;
      const score = best[j]! + model.unigram.logProb(joined);
      if (score > best[j]! + apart + margin && score > best[i]!) {
        best[i] = score;
        from[i] = j;
      }
    }
  }
  const groups: Array<[number, number]> = [];
  for (let i = n; i > 0; i = from[i]!) if (i - from[i]! > 1) groups.push([from[i]!, i]);
  return groups.reverse();
}

/**
 * Split search over a run of letters: best[i] is the best score of its first i letters; a word
 * is at most the longest known word. In a glued line unknown pieces are allowed (they cost more per
 * letter than known ones); in a long token inside a spaced line every piece must be a word the
 * document uses more than once. A split needs three or more pieces, enough of them common words.
 * Returns the piece lengths, or null for no split.
 */
function splitRun(model: DocumentModel, run: string, gluedLine: boolean, options: ResegmentOptions): number[] | null {
  const lower = [...run].map((c) => c.toLowerCase());
  const n = lower.length;
  // No line of text is this long without a space; a hostile file's row of letters is left as it is.
  if (n > MAX_RUN) return null;
  // Pieces are cut out of the lowered run by the offsets of its letters (joining a slice of
  // `lower` for each of the n × longWord pieces tried would build each one letter by letter).
  const joined = lower.join('');
  const offsets = [0];
  for (const c of lower) offsets.push(offsets[offsets.length - 1]! + c.length);
  const best = new Array<number>(n + 1).fill(-Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = Math.max(0, i - model.longWord); j < i; j++) {
      if (best[j] === -Infinity) continue;
      const word = joined.slice(offsets[j], offsets[i]);
      if (!gluedLine && model.unigram.count(word) < 2) continue;
      // One- and two-letter pieces are words only when they are common ones ("a", "de", not "s").
      const isWord = model.unigram.count(word) > 0 && (i - j > 2 || model.common.has(word));
      const score = best[j]! + model.unigram.logProb(word) - WORD_COST - (isWord ? 0 : UNKNOWN_COST);
      if (score > best[i]!) {
        best[i] = score;
        from[i] = j;
      }
    }
  }
  if (best[n] === -Infinity) return null;
  const pieces: number[] = [];
  for (let i = n; i > 0; i = from[i]!) pieces.push(i - from[i]!);
  pieces.reverse();
  if (pieces.length < 3) return null;
  const whole = model.unigram.logProb(lower.join('')) - WORD_COST;
  if (best[n]! < whole + options.splitMargin) return null;
  // Compounds are made of content words; glued text is mostly the document's common words.
  let offset = 0;
  let common = 0;
  for (const length of pieces) {
    if (model.common.has(lower.slice(offset, offset + length).join(''))) common += 1;
    offset += length;
  }
  if (common < options.commonShare * pieces.length) return null;
  return pieces;
}

/**
 * Letters of a word broken across lines: `stem` ends the previous line before its hyphen, `tail`
 * starts the next line after this line's hyphen. A glued run is searched with them attached, so
 * "supre-" + "morecursodela…" splits as "supremo recurso de la…".
 */
export interface LineContext {
  stem: string;
  tail: string;
}

/** Drops `head` letters from the front and `rest` from the back of a split's pieces. */
function trimPieces(pieces: readonly number[], head: number, rest: number): number[] | null {
  const out = [...pieces];
  for (let h = head; h > 0 && out.length > 0; ) {
    const take = Math.min(h, out[0]!);
    out[0]! -= take;
    h -= take;
    if (out[0] === 0) out.shift();
  }
  for (let r = rest; r > 0 && out.length > 0; ) {
    const take = Math.min(r, out[out.length - 1]!);
    out[out.length - 1]! -= take;
    r -= take;
    if (out[out.length - 1] === 0) out.pop();
  }
  return out.length > 1 ? out : null;
}

/** Where a token may be split: offsets (in the token) of the spaces to insert. */
function splitToken(model: DocumentModel, token: Token, gluedLine: boolean, options: ResegmentOptions, context: LineContext): number[] {
  const text = token.text;
  // Most tokens are ordinary words: too short to be glued, no case change inside, on a line that
  // is not one glued run. Nothing below could split them.
  if (!gluedLine && text.length < model.longWord && !LOWER_UPPER.test(text)) return [];
  if (ADDRESS.test(text)) return [];
  const letters = [...text.matchAll(/[\p{L}\p{M}]+/gu)];
  const spaces: number[] = [];
  // A glued line is searched run by run, each run between punctuation however short.
  const glued = gluedLine && letters.reduce((sum, m) => sum + [...m[0]].length, 0) >= options.gluedLine;
  for (const [k, m] of letters.entries()) {
    const run = m[0];
    const start = m.index ?? 0;
    const end = start + run.length;
    const length = [...run].length;
    let pieces: number[] | null = null;
    if (glued || (length >= model.longWord && model.unigram.count(run.toLowerCase()) < 2)) {
      const stem = k === 0 && start === 0 ? context.stem : '';
      const tail = k === letters.length - 1 && /^[-\u00ad\u2010]$/u.test(text.slice(end)) ? context.tail : '';
      pieces = splitRun(model, stem + run + tail, gluedLine, options);
      if (pieces) pieces = trimPieces(pieces, [...stem].length, [...tail].length);
    } else if (LOWER_UPPER.test(run) && model.unigram.count(run.toLowerCase()) < 2) {
      // "theDeclaration": split at the case change when both sides are words the document uses.
      const cut = run.search(LOWER_UPPER) + 1;
      const left = run.slice(0, cut).toLowerCase();
      const right = run.slice(cut).toLowerCase();
      if (model.unigram.count(left) >= 2 && model.unigram.count(right) >= 2) pieces = [[...left].length, [...right].length];
    }
    if (pieces) {
      let offset = start;
      const chars = [...run];
      for (const size of pieces.slice(0, -1)) {
        offset += chars.splice(0, size).join('').length;
        spaces.push(offset);
      }
    }
    // Glued text keeps its punctuation: a space goes after a comma or semicolon before the next word.
    const next = letters[k + 1];
    if (glued && next && /^[,;:]+$/u.test(text.slice(end, next.index))) spaces.push(next.index ?? 0);
  }
  return [...new Set(spaces)].sort((a, b) => a - b);
}

/** Re-segments one line; returns the new line and the changes made. */
export function resegmentLine(
  model: DocumentModel,
  line: Line,
  options: ResegmentOptions,
  context: LineContext = { stem: '', tail: '' },
): { line: Line; changes: Change[] } {
  if (UNSPACED.test(line.text) || !/\p{L}/u.test(line.text)) return { line, changes: [] };
  const tokens = tokenize(line.text);
  // Edits on the old text: remove the space before token index k (merge) or insert at an offset (split).
  const removeBefore = new Set<number>();
  for (const [a, b] of mergeGroups(model, tokens, options.mergeMargin)) for (let k = a + 1; k < b; k++) removeBefore.add(k);
  const inserts: number[] = [];
  const gluedLine = tokens.length === 1;
  tokens.forEach((token, k) => {
    if (removeBefore.has(k) || removeBefore.has(k + 1)) return;
    for (const offset of splitToken(model, token, gluedLine, options, context)) inserts.push(token.start + offset);
  });
  if (removeBefore.size === 0 && inserts.length === 0) return { line, changes: [] };
  // Rebuild the text left to right, mapping old offsets to new ones for the existing marks.
  const old = line.text;
  const removed = new Set<number>();
  for (const k of removeBefore) {
    const t = tokens[k]!;
    const prev = tokens[k - 1]!;
    for (let p = prev.start + prev.text.length; p < t.start; p++) removed.add(p);
  }
  const insertAt = new Set(inserts);
  const map: number[] = [];
  let text = '';
  const changes: Change[] = [];
  for (let p = 0; p <= old.length; p++) {
    if (insertAt.has(p)) {
      changes.push({ kind: 'split', at: text.length });
      text += ' ';
    }
    map[p] = text.length;
    if (p === old.length) break;
    if (removed.has(p)) {
      if (!removed.has(p - 1)) changes.push({ kind: 'merge', at: text.length });
      continue;
    }
    text += old[p];
  }
  const inferred: InferredMark[] = [];
  for (const mark of line.inferred) {
    if (mark.kind === 'space' && removed.has(mark.at)) continue;
    inferred.push({ ...mark, at: map[mark.at] ?? text.length });
  }
  for (const c of changes) {
    inferred.push(c.kind === 'merge' ? { at: c.at, kind: 'join', rule: 'merge-fragments' } : { at: c.at, kind: 'space', rule: 'split-glued' });
  }
  inferred.sort((a, b) => a.at - b.at);
  return { line: { ...line, text, inferred }, changes };
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

export interface DocumentResult {
  pages: PageRecord[];
  diagnostics: DiagnosticRecord[];
  /** Each changed line: where, and its old and new text (for n-gram rescoring). */
  changed: Array<{ page: number; line: number; old: Line; changes: Change[] }>;
}

/** The pure core: re-segments every line of one document with the document's own model. */
export function resegmentDocument(group: DocumentGroup, partial: Partial<ResegmentOptions> = {}, lexicon: UnigramModel | null = null): DocumentResult {
  const options = normalizeOptions(partial);
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

/** Loads `--lexicon` files; throws UsageError when one cannot be read. */
export function loadLexicon(spec: string): UnigramModel | null {
  if (!spec) return null;
  const model = new UnigramModel();
  for (const path of spec.split(',').filter(Boolean)) {
    try {
      readLexicon(path, model);
    } catch (error) {
      throw new UsageError(`--lexicon ${path} cannot be read: ${(error as Error).message}`);
    }
  }
  return model;
}

/**
 * The Transform: buffers each document, re-segments it, and (with `--lm`) lets the n-gram model
 * confirm each change. A model that fails leaves the document with its un-resegmented lines and a
 * diagnostic saying why; the document is never lost.
 */
export function resegment(partial: Partial<ResegmentOptions> = {}): Transform {
  const options = normalizeOptions(partial);
  const lexicon = loadLexicon(options.lexicon);
  let lm: LanguageModel | null = null;
  let lmError: string | null = null;
  if (options.lm) {
    try {
      lm = openModel(options.lm);
    } catch (error) {
      if (error instanceof ModelError) throw new UsageError(error.message);
      throw error;
    }
  }
  let group: { doc: DocumentGroup['doc']; pages: PageRecord[]; diagnostics: DiagnosticRecord[] } | null = null;
  const emit = (stream: Transform, records: readonly PipeRecord[]): void => {
    for (const r of records) stream.push(r);
  };
  return new Transform({
    objectMode: true,
    transform(record: PipeRecord, _enc: BufferEncoding, done: TransformCallback) {
      if (record.type === 'doc') {
        group = { doc: record, pages: [], diagnostics: [] };
        return done();
      }
      if (group && record.type === 'page' && record.doc === group.doc.id) {
        group.pages.push(record);
        return done();
      }
      if (group && record.type === 'diagnostic' && record.doc === group.doc.id) {
        group.diagnostics.push(record);
        return done();
      }
      if (!group || !((record.type === 'end' || record.type === 'error') && record.doc === group.doc.id)) {
        this.push(record);
        return done();
      }
      const current = group;
      group = null;
      this.push(current.doc);
      if (record.type === 'error') {
        emit(this, [...current.pages, ...current.diagnostics, record]);
        return done();
      }
      let result: DocumentResult;
      try {
        result = resegmentDocument({ ...current, outcome: record }, options, lexicon);
      } catch (error) {
        this.push(errorRecord(current.doc.id, 'resegment', 'stage-failed', `resegment failed: ${(error as Error).message}`));
        return done();
      }
      const finish = (extra: DiagnosticRecord[]): void => {
        emit(this, [...current.diagnostics, ...result.pages, ...result.diagnostics, ...extra, record]);
        done();
      };
      if (!lm || lmError) {
        return finish(lmError ? [diagnostic(current.doc.id, 'resegment', 'lm-failed', lmError)] : []);
      }
      const original = current.pages;
      rescore(result, lm, current.doc.id).then(
        (mismatch) => finish(mismatch ? [mismatch] : []),
        (error: unknown) => {
          // The model failed: the document keeps its lines as they came.
          result.pages = original;
          result.diagnostics = [];
          finish([diagnostic(current.doc.id, 'resegment', 'lm-failed', `language model failed, lines left as they were: ${(error as Error).message}`)]);
        },
      );
    },
    flush(done: TransformCallback) {
      if (lm) lm.close().then(() => done(), () => done());
      else done();
    },
  });
}

export const USAGE = 'pdfpipe resegment [options] < lines.ndjson';
export const SUMMARY = "Merges spaced-out letters and splits glued words with the document's own word model.";

export async function main(argv: string[]): Promise<number> {
  const { options, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  return runFilter({ stage: 'resegment', transforms: [resegment(options)] });
}
