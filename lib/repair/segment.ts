/**
 * The word-boundary search of resegmenting, over one line and a document's word model:
 *
 * - merge: a run of space-separated tokens becomes one word when the joined word is known, at least
 *   one of the tokens is a fragment (a single letter, or a string the document uses nowhere else),
 *   and the joined word scores better than the tokens apart;
 * - split: a token that is longer than the document's long words, changes from lower to upper case
 *   inside, or fills a whole line of a spaced script, is split into known words when that scores
 *   better and enough of the pieces are the document's common words (so compounds stay whole).
 *
 * Both searches look back at most as far as the longest known word, so the cost is linear in the
 * line's length. Every change is marked in the line's `inferred` marks (`join`/`merge-fragments`,
 * `space`/`split-glued`).
 */
import type { InferredMark, Line } from '../protocol/records.js';
import { codePoints } from '../lang/scripts.js';
import { UNSPACED, type DocumentModel } from './word-model.js';

/** What the search reads of the resegment stage's options. */
export interface SegmentOptions {
  /** A merge must beat the tokens apart by this much (log10). */
  mergeMargin: number;
  /** A split must beat the whole token by this much (log10), besides a cost per added word. */
  splitMargin: number;
  /** Share of a split's pieces that must be among the document's common words. */
  commonShare: number;
  /** A line with no space and at least this many letters is split as a whole. */
  gluedLine: number;
}

const LETTERS = /^[\p{L}\p{M}]+$/u;
const LOWER_UPPER = /\p{Ll}\p{Lu}/u;
/** The longest run of letters the split search takes on: several glued lines of a wide page. */
const MAX_RUN = 1000;
/** Tokens that are addresses or paths, never split. */
const ADDRESS = /[@/\\]|:\/\/|^www\./iu;
/** Cost (log10) of each word a split adds: more words must earn their place. */
const WORD_COST = 0.5;
/** Further cost (log10) of each unknown word in a split: the letter model alone makes short ones too cheap. */
const UNKNOWN_COST = 2;

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
function splitRun(model: DocumentModel, run: string, gluedLine: boolean, options: SegmentOptions): number[] | null {
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
function splitToken(model: DocumentModel, token: Token, gluedLine: boolean, options: SegmentOptions, context: LineContext): number[] {
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
  options: SegmentOptions,
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
