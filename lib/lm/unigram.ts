/**
 * The default model of re-segmentation: word counts built on the fly from a document (and optional
 * word lists), with a character trigram model for the letters of the words it does not know.
 */
import type { LanguageModel, SentenceScore } from './model.js';
import { wordsOf } from './words.js';

/**
 * Letters of unknown words: a character trigram model over the known words (each word once), with
 * interpolated estimates down to a uniform letter. It tells "palabra" (ends like the document's
 * words) from "palabr" + "a", which a plain per-letter cost cannot.
 */
export class CharModel {
  /**
   * Counts of one, two and three characters (as targets and as histories, in one table), keyed by
   * `key`: each character (code point, and the markers ^ and $, which count as the characters they
   * are) has a number from 1 up, and a sequence of them is one number, so that no string is made
   * or hashed per count or lookup. `positions` is the number of characters predicted.
   */
  private readonly grams = new Map<number | string, number>();
  private readonly ids = new Map<string, number>();
  /** Numbers per character position in a key: the alphabet, the markers, and one for any unseen character. */
  private readonly radix: number;
  private readonly positions: number;
  private readonly alphabet: number;

  constructor(words: Iterable<string>) {
    const letters = new Set<string>();
    const all: string[][] = [];
    for (const word of words) {
      const chars = ['^', '^', ...word, '$'];
      all.push(chars);
      for (let i = 2; i < chars.length - 1; i++) letters.add(chars[i]!);
    }
    for (const chars of all) for (const c of chars) if (!this.ids.has(c)) this.ids.set(c, this.ids.size + 1);
    this.radix = this.ids.size + 2;
    let positions = 0;
    const grams = this.grams;
    const add = (key: number | string): void => {
      grams.set(key, (grams.get(key) ?? 0) + 1);
    };
    for (const chars of all) {
      const codes = chars.map((c) => this.ids.get(c)!);
      for (let i = 2; i < codes.length; i++) {
        const a = codes[i - 2]!;
        const b = codes[i - 1]!;
        const c = codes[i]!;
        add(this.key(0, 0, c));
        add(this.key(0, b, c));
        add(this.key(a, b, c));
        add(this.key(0, 0, b));
        add(this.key(0, a, b));
        positions++;
      }
    }
    this.positions = positions;
    this.alphabet = letters.size + 1;
  }

  /**
   * The key of the sequence a b c (0 for a position left empty: a shorter sequence). A number
   * while one holds it exactly, else a string of the same numbers.
   */
  private key(a: number, b: number, c: number): number | string {
    const r = this.radix;
    return r < EXACT_RADIX ? (a * r + b) * r + c : `${a},${b},${c}`;
  }

  /** log10 P(word and its end) under the model. */
  logProb(word: string): number {
    const unseen = this.radix - 1;
    const start = this.ids.get('^') ?? unseen;
    const codes = [start, start];
    for (const c of word) codes.push(this.ids.get(c) ?? unseen);
    codes.push(this.ids.get('$') ?? unseen);
    const g = (a: number, b: number, c: number): number => this.grams.get(this.key(a, b, c)) ?? 0;
    let total = 0;
    for (let i = 2; i < codes.length; i++) {
      const a = codes[i - 2]!;
      const b = codes[i - 1]!;
      const c = codes[i]!;
      const p1 = (g(0, 0, c) + 1) / (this.positions + this.alphabet);
      const p2 = (g(0, b, c) + 2 * p1) / (g(0, 0, b) + 2);
      const p3 = (g(a, b, c) + 2 * p2) / (g(0, a, b) + 2);
      total += Math.log10(p3);
    }
    return total;
  }
}

/** The largest radix whose three-place numbers (radix³) are exact doubles. */
const EXACT_RADIX = Math.floor(Math.cbrt(Number.MAX_SAFE_INTEGER));

/** Word counts, with a letter model for the words it does not know. */
export class UnigramModel implements LanguageModel {
  readonly name = 'unigram';
  readonly counts = new Map<string, number>();
  total = 0;
  private letters: CharModel | null = null;
  private unknownMass = 0;

  /** Adds every word of a text. */
  addText(text: string, weight = 1): void {
    for (const w of wordsOf(text)) this.add(w, weight);
  }

  add(word: string, weight = 1): void {
    this.counts.set(word, (this.counts.get(word) ?? 0) + weight);
    this.total += weight;
    this.letters = null;
  }

  count(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  /**
   * log10 P(word). A known word: its relative count. An unknown word: the share of words seen once
   * (the mass left for new words) times its letters' probability under the letter model.
   */
  logProb(word: string): number {
    const n = Math.max(this.total, 1);
    const c = this.counts.get(word) ?? 0;
    if (c > 0) return Math.log10(c / n);
    if (!this.letters) {
      this.letters = new CharModel(this.counts.keys());
      let once = 0;
      for (const v of this.counts.values()) if (v <= 1) once += 1;
      this.unknownMass = Math.log10(Math.max(once, 1) / n);
    }
    return this.unknownMass + this.letters.logProb(word);
  }

  async score(sentences: readonly (readonly string[])[]): Promise<SentenceScore[]> {
    return sentences.map((s) => ({ total: s.reduce((sum, w) => sum + this.logProb(w), 0), oov: s.filter((w) => !this.counts.has(w)).length }));
  }

  async close(): Promise<void> {}
}
