/**
 * The language-model side of the join decision: does a sentence break between two fragments read
 * better than running on? The model is anything that scores a word sequence (`SequenceScorer`):
 * lib/lm/arpa.ts's `ArpaModel` (an n-gram model in ARPA text format, with back-off, shared with the
 * resegment stage) is one, and other backends plug in through the same interface.
 *
 * The decision compares, over `context` words on each side of the break,
 *   run on:  score(… left words, right words …)
 *   break:   score(… left words, </s>) + score(<s>, right words …)
 * and joins when (run on − break) exceeds a threshold. With a backward model (trained on reversed
 * text) the same comparison is made on the reversed words and the two margins are averaged.
 *
 * A model that only scores whole sentences, and answers later (KenLM's `query` in a child process:
 * lib/lm/model.ts's `LanguageModel`), goes through `SentenceScores`: the decisions are run once to learn
 * which word sequences they need, those are scored in one batch, and the decisions run again on
 * the scores.
 */
import type { LanguageModel } from './model.js';

/** Scores word sequences: log10 probability, optionally after a sentence start and before an end. */
export interface SequenceScorer {
  sequenceProb(words: readonly string[], options: { bos: boolean; eos: boolean }): number;
}

/** What a join decision needs from a model: forward scorer and, optionally, a backward one. */
export interface JoinModel {
  forward: SequenceScorer;
  backward?: SequenceScorer;
}

/** Words of a text for a model: lower-cased, split at spaces, punctuation kept as tokens. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/([\p{P}])/gu, ' $1 ')
    .split(/\s+/u)
    .filter(Boolean);
}

function margin(scorer: SequenceScorer, left: string[], right: string[]): number {
  const runOn = scorer.sequenceProb([...left, ...right], { bos: false, eos: false });
  const split = scorer.sequenceProb(left, { bos: false, eos: true }) + scorer.sequenceProb(right, { bos: true, eos: false });
  return runOn - split;
}

/**
 * The join margin of two fragments (log10 odds of running on over a break): positive favours a
 * join. `context` words are taken from the end of `left` and the start of `right`.
 */
export function joinMargin(model: JoinModel, left: string, right: string, context: number): number {
  const l = tokens(left).slice(-context);
  const r = tokens(right).slice(0, context);
  if (l.length === 0 || r.length === 0) return 0;
  const forward = margin(model.forward, l, r);
  if (!model.backward) return forward;
  const backward = margin(model.backward, [...r].reverse(), [...l].reverse());
  return (forward + backward) / 2;
}

/**
 * Whole-sentence scores as a `SequenceScorer`: every sequence is scored as a sentence, with its
 * `<s>` and `</s>`, whatever `bos` and `eos` ask. The join margin then reads S(l r) − S(l) − S(r):
 * the `<s>` before l and the `</s>` after r are on both sides and cancel, which leaves what the
 * margin compares, r after l against `</s>` after l and r after `<s>` (exactly when r has at least
 * order − 1 words; with fewer, the `</s>` after r sees a little more context on one side).
 *
 * A sequence not scored yet reads 0 and is remembered; `fill` scores all of those in one batch.
 */
export class SentenceScores implements SequenceScorer {
  private readonly scores = new Map<string, number>();
  private readonly wanted = new Map<string, readonly string[]>();

  sequenceProb(words: readonly string[]): number {
    const key = words.join(' ');
    const known = this.scores.get(key);
    if (known !== undefined) return known;
    this.wanted.set(key, words);
    return 0;
  }

  /** How many sequences were asked for and are not scored yet. */
  get missing(): number {
    return this.wanted.size;
  }

  /** Scores every sequence asked for since the last fill, in one request to the model. */
  async fill(model: LanguageModel): Promise<void> {
    const keys = [...this.wanted.keys()];
    if (keys.length === 0) return;
    const scores = await model.score(keys.map((k) => this.wanted.get(k)!));
    keys.forEach((key, i) => this.scores.set(key, scores[i]?.total ?? 0));
    this.wanted.clear();
  }
}
