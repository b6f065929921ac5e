/**
 * What Korean prose at large says about a line break inside Hangul: where each syllable stands in
 * words, which pairs of syllables are written together and which with a space between, and how
 * long words are, counted over Korean help texts that Debian packages and the word list of
 * Tesseract's Korean model, and that list's longer words (data/hangul-spacing.tsv, built by
 * scripts/hangul-spacing.mjs). A document of a few hundred words shows most of its stems once, so its own words cannot
 * tell "잊지 | 못할" (two words: "못" starts words) from "비행시 | 간은" (one: "시간" is written
 * together); the language's counts can. They are read once, on the first Korean line break, and
 * stand behind the document's own counts (lib/paragraphs/hangul.ts), which win where the document
 * has something to say.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Counts by key, and their sum. */
export interface Tally<K> {
  counts: Map<K, number>;
  total: number;
}

/** The counts of data/hangul-spacing.tsv. */
export interface HangulPrior {
  /** Word length in syllables → words. */
  lengths: Tally<number>;
  /** Syllable → words it starts, words it stands in but not at the start, words it ends, words it stands in but not at the end. */
  starts: Tally<string>;
  notStarts: Tally<string>;
  ends: Tally<string>;
  notEnds: Tally<string>;
  /** Two syllables → how often written together in a word, and with a space between. */
  together: Map<string, number>;
  apart: Map<string, number>;
  /** The word list's words of three syllables or more. */
  words: Set<string>;
}

/** The table, beside the package's dist folder (the same three folders up from this module and from the worker bundles). */
export const HANGUL_SPACING = resolve(dirname(fileURLToPath(import.meta.url)), '../../../data/hangul-spacing.tsv');

const tally = <K>(): Tally<K> => ({ counts: new Map(), total: 0 });
const add = <K>(t: Tally<K>, key: K, n: number): void => {
  t.counts.set(key, n);
  t.total += n;
};

/** Reads a table of data/hangul-spacing.tsv's format. */
export function parseHangulPrior(text: string): HangulPrior {
  const prior: HangulPrior = { lengths: tally(), starts: tally(), notStarts: tally(), ends: tally(), notEnds: tally(), together: new Map(), apart: new Map(), words: new Set() };
  // A line at a time by its offsets: the words, most of the lines, are taken without splitting.
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const kind = text[at];
    if (text[at + 1] === '\t') {
      if (kind === 'W') prior.words.add(text.slice(at + 2, end));
      else {
        const [key, ...counts] = text.slice(at + 2, end).split('\t');
        const n = counts.map(Number);
        if (kind === 'L') add(prior.lengths, Number(key), n[0]!);
        else if (kind === 'S') {
          add(prior.starts, key!, n[0]!);
          add(prior.notStarts, key!, n[1]!);
          add(prior.ends, key!, n[2]!);
          add(prior.notEnds, key!, n[3]!);
        } else if (kind === 'P') {
          prior.together.set(key!, n[0]!);
          prior.apart.set(key!, n[1]!);
        }
      }
    }
    at = end + 1;
  }
  return prior;
}

let loaded: HangulPrior | null | undefined;

/**
 * The table of the package, read on first use; null when it is not there or holds no words (the
 * document's own counts then decide alone).
 */
export function hangulPrior(): HangulPrior | null {
  if (loaded === undefined) {
    try {
      const prior = parseHangulPrior(readFileSync(HANGUL_SPACING, 'utf8'));
      loaded = prior.starts.total > 0 && prior.notStarts.total > 0 && prior.lengths.total > 0 ? prior : null;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}
