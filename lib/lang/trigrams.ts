/**
 * franc's trigram ranking (`francAll`), reimplemented on typed arrays: a text's trigrams counted
 * once in a hash table, and every candidate language scored in one walk over them.
 */
import { data as profilesByScript } from 'franc/data.js';
import { expressions as scriptExpressions } from 'franc/expressions.js';
import { collapse } from '../formats/words.js';

/**
 * franc's ranking of a text: each candidate's distance from the text (lower is closer). A decision
 * needs only the best language and the prior's score, so the list of (code, score) pairs that
 * `francAll` gives, one array per language, is made only when asked for (`list`).
 */
export class Ranking {
  /** The best language's index: the least distance, the first of equals (as a stable sort puts it). */
  private readonly top: number;
  private readonly max: number;

  /** `distances` null: each language scores 1 (a text that only one language, or `und`, fits). */
  constructor(
    private readonly languages: readonly string[],
    private readonly distances: Float64Array | null = null,
    private readonly length = 0,
  ) {
    let top = 0;
    if (distances) for (let l = 1; l < distances.length; l++) if (distances[l]! < distances[top]!) top = l;
    this.top = top;
    this.max = distances ? length * MAX_DIFFERENCE - distances[top]! : 0;
  }

  /** The best language and its score (1, or 0 when franc's normalisation divides by zero); undefined for none. */
  get best(): [string, number] | undefined {
    const code = this.languages[this.top];
    return code === undefined ? undefined : [code, this.score(this.top)];
  }

  /** A language's score, normalised as franc does; undefined when it is no candidate. */
  scoreOf(code: string): number | undefined {
    const l = this.languages.indexOf(code);
    return l < 0 ? undefined : this.score(l);
  }

  /** The ranking of the languages not in `excluded`; this one when that would leave none. */
  without(excluded: ReadonlySet<string>): Ranking {
    const kept = this.languages.flatMap((code, l) => (excluded.has(code) ? [] : [l]));
    if (kept.length === this.languages.length || kept.length === 0) return this;
    const distances = this.distances;
    return new Ranking(
      kept.map((l) => this.languages[l]!),
      distances && Float64Array.from(kept, (l) => distances[l]!),
      this.length,
    );
  }

  /** francAll's list: (code, score) pairs, best first. */
  list(): [string, number][] {
    const distances = this.distances;
    if (!distances) return this.languages.map((code): [string, number] => [code, 1]);
    const order = this.languages.map((_, l) => l).sort((a, b) => distances[a]! - distances[b]!);
    return order.map((l): [string, number] => [this.languages[l]!, this.score(l)]);
  }

  private score(l: number): number {
    if (!this.distances) return 1;
    return 1 - (this.distances[l]! - this.distances[this.top]!) / this.max || 0;
  }
}

// franc scores a text against each language of its script by walking the text's trigrams once per
// language, with an object lookup each time: ~0.4 ms a paragraph, which made language
// identification the slowest stage. The same model indexed the other way round — for each
// trigram, its weight in every candidate language — scores all languages in one walk. The
// result is franc's, number for number (test/lib/lang/trigrams.test.ts checks it against francAll).

/** franc's largest penalty, for a trigram missing from a language's profile. */
const MAX_DIFFERENCE = 300;
/** franc reads this many characters. */
const MAX_LENGTH = 2048;

/**
 * The candidate languages of one script, and for each trigram the languages whose profiles hold
 * it, with its weight there: pairs (language index, weight) packed flat. Most trigrams are in a
 * few profiles, so a text's walk touches only those.
 */
interface ScriptIndex {
  languages: string[];
  weights: Map<number, number[]>;
}

/**
 * A small number for each UTF-16 code unit of franc's profiles (about 500 of them), 0 for any
 * other: a trigram of profile characters is then one small integer (`trigramKey`), which a map
 * finds faster than a three-character string that has to be cut out of the text first. A trigram
 * with any other character is in no profile.
 */
const CHAR_IDS = new Uint16Array(0x10000);
let charIds = 0;
for (const languages of Object.values(profilesByScript as Record<string, Record<string, string>>)) {
  for (const trigrams of Object.values(languages)) {
    for (let i = 0; i < trigrams.length; i++) {
      const code = trigrams.charCodeAt(i);
      if (code !== 0x7c && CHAR_IDS[code] === 0) CHAR_IDS[code] = ++charIds;
    }
  }
}
if (charIds >= 1 << 10) throw new Error(`franc's profiles have ${charIds} characters, more than a trigram key holds`);

/** The key of the trigram at `i` in `text` (profiles hold three code units a trigram), or -1 when a character is in no profile. */
export function trigramKey(text: string, i: number): number {
  const a = CHAR_IDS[text.charCodeAt(i)]!;
  const b = CHAR_IDS[text.charCodeAt(i + 1)]!;
  const c = CHAR_IDS[text.charCodeAt(i + 2)]!;
  return a === 0 || b === 0 || c === 0 ? -1 : (a << 20) | (b << 10) | c;
}

const scriptIndexes = new Map<string, ScriptIndex | null>();

/** The index for one script and one candidate list (empty: all of franc's), built on first use. */
function scriptIndex(script: string, only: readonly string[]): ScriptIndex | null {
  const cacheKey = `${script}|${listKey(only)}`;
  if (scriptIndexes.has(cacheKey)) return scriptIndexes.get(cacheKey)!;
  const profiles = (profilesByScript as Record<string, Record<string, string>>)[script];
  let index: ScriptIndex | null = null;
  if (profiles) {
    const languages = Object.keys(profiles).filter((code) => only.length === 0 || only.includes(code));
    const weights = new Map<number, number[]>();
    languages.forEach((code, l) => {
      // franc's weight of a trigram is its position in the profile, most frequent first.
      profiles[code]!.split('|').forEach((trigram, weight) => {
        const key = trigramKey(trigram, 0);
        const row = weights.get(key);
        if (row) row.push(l, weight);
        else weights.set(key, [l, weight]);
      });
    });
    index = { languages, weights };
  }
  scriptIndexes.set(cacheKey, index);
  return index;
}

const scriptTesters = Object.entries(scriptExpressions as Record<string, RegExp>).map(
  ([script, expression]): [string, RegExp] => [script, new RegExp(`^(?:${expression.source})$`, expression.flags.replace('g', ''))],
);
/** The scripts of each code point seen so far, by code point (an array: no string made per character). */
const scriptsOfChar: (number[] | undefined)[] = [];

/**
 * The script (franc's name) most of a text's characters are in, with its share: franc's rule,
 * counted a character at a time from a memo instead of one regular-expression pass per script.
 */
function topScript(text: string): [string | undefined, number] {
  const counts = new Array<number>(scriptTesters.length).fill(0);
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    let scripts = scriptsOfChar[code];
    if (!scripts) {
      const char = String.fromCodePoint(code);
      scripts = [];
      for (let s = 0; s < scriptTesters.length; s++) if (scriptTesters[s]![1].test(char)) scripts.push(s);
      scriptsOfChar[code] = scripts;
    }
    for (const s of scripts) counts[s]!++;
  }
  let top: string | undefined;
  let topShare = -1;
  scriptTesters.forEach(([script], s) => {
    const share = counts[s]! / text.length || 0;
    if (share > topShare) {
      topShare = share;
      top = script;
    }
  });
  return [top, topShare];
}

/** A text's trigrams, as `trigramCounts` counts them. */
export interface Trigrams {
  /** Counts of the trigrams made of profile characters, by `trigramKey`. */
  known: TrigramTable;
  /** The other trigrams: in no profile, so only how many differ matters. */
  unknown: Set<string>;
  /** Trigrams counted, repeats included. */
  total: number;
}

/** A text's letter trigrams and their counts, cleaned and padded as franc does. */
export function trigramCounts(text: string): Trigrams {
  const clean = ` ${collapse(text.replace(/[\u0021-\u0040]+/g, ' ')).toLowerCase()} `;
  const total = Math.max(0, clean.length - 2);
  const known = new TrigramTable(total);
  const unknown = new Set<string>();
  for (let i = 0; i + 3 <= clean.length; i++) {
    const key = trigramKey(clean, i);
    if (key >= 0) known.add(key);
    else unknown.add(clean.slice(i, i + 3));
  }
  return { known, unknown, total };
}

/**
 * Counts of trigram keys (positive integers below 2³⁰) in a hash table of typed arrays, sized for
 * the trigrams of one text: counting a text's trigrams in a Map was the stage's largest cost.
 * Slots are read in table order (`keys[s]` 0 for an empty slot); the order of the sums made over
 * them does not matter, they are sums of integers.
 */
class TrigramTable {
  readonly keys: Int32Array;
  readonly counts: Int32Array;
  /** How many different keys. */
  size = 0;
  private readonly shift: number;

  constructor(most: number) {
    let bits = 4;
    while (1 << bits < 2 * most) bits++;
    this.keys = new Int32Array(1 << bits);
    this.counts = new Int32Array(1 << bits);
    this.shift = 32 - bits;
  }

  add(key: number): void {
    const mask = this.keys.length - 1;
    for (let s = Math.imul(key, 0x9e3779b1) >>> this.shift; ; s = (s + 1) & mask) {
      if (this.keys[s] === key) {
        this.counts[s]!++;
        return;
      }
      if (this.keys[s] === 0) {
        this.keys[s] = key;
        this.counts[s] = 1;
        this.size++;
        return;
      }
    }
  }
}

/**
 * franc's `francAll` over `only` (franc codes; empty: all): (code, score) pairs, best first,
 * scores normalised as franc does (1 for the best); [['und', 1]] when it cannot tell.
 */
export function rankLanguages(value: string, only: readonly string[], minLength = 10, counts?: Trigrams): [string, number][] {
  return rank(value, only, minLength, counts).list();
}

const UND = new Ranking(['und']);
/** The ranking of a text too short to judge: no language at all. */
export const NO_LANGUAGE = new Ranking([]);

/** `rankLanguages` as a Ranking; `counts`: the text's trigrams when already counted. */
export function rank(value: string, only: readonly string[], minLength = 10, counts?: Trigrams): Ranking {
  if (value.length < minLength) return UND;
  const text = value.slice(0, MAX_LENGTH);
  const [script, share] = topScript(text);
  const index = script ? scriptIndex(script, only) : null;
  if (!index) {
    // A script with one language (franc names the script by it), or none.
    if (!script || share === 0 || (only.length > 0 && !only.includes(script))) return UND;
    return new Ranking([script]);
  }
  if (index.languages.length === 0) return UND;
  // Every trigram costs every language MAX_DIFFERENCE, less what it saves where the profile has it.
  const distances = new Float64Array(index.languages.length);
  const { known, unknown } = counts && value.length <= MAX_LENGTH ? counts : trigramCounts(text);
  const trigrams = known.size + unknown.size;
  for (let s = 0; s < known.keys.length; s++) {
    const trigram = known.keys[s]!;
    if (trigram === 0) continue;
    const count = known.counts[s]!;
    const row = index.weights.get(trigram);
    if (!row) continue;
    for (let i = 0; i < row.length; i += 2) {
      const l = row[i]!;
      distances[l] = distances[l]! - MAX_DIFFERENCE + Math.abs(count - row[i + 1]! - 1);
    }
  }
  for (let l = 0; l < distances.length; l++) distances[l] = distances[l]! + trigrams * MAX_DIFFERENCE;
  return new Ranking(index.languages, distances, text.length);
}

/** A list's items joined, once per list object: the same list comes with every block of a document. */
const listKeys = new WeakMap<readonly string[], string>();
/** The key of a candidate list, for the caches by list (`scriptIndex`'s, `identify`'s). */
export function listKey(list: readonly string[]): string {
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, (key = list.join(',')));
  return key;
}
