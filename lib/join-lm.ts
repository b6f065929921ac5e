/**
 * The language-model side of the join decision: does a sentence break between two fragments read
 * better than running on? The model is anything that scores a word sequence (`SequenceScorer`);
 * `ArpaModel` is one small backend (an n-gram model in ARPA text format, with back-off), and other
 * backends plug in through the same interface.
 *
 * The decision compares, over `context` words on each side of the break,
 *   run on:  score(… left words, right words …)
 *   break:   score(… left words, </s>) + score(<s>, right words …)
 * and joins when (run on − break) exceeds a threshold. With a backward model (trained on reversed
 * text) the same comparison is made on the reversed words and the two margins are averaged.
 */
import { readFileSync } from 'node:fs';

/** Scores word sequences: log10 probability, optionally after a sentence start and before an end. */
export interface SequenceScorer {
  score(words: readonly string[], options: { bos: boolean; eos: boolean }): number;
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
  const runOn = scorer.score([...left, ...right], { bos: false, eos: false });
  const split = scorer.score(left, { bos: false, eos: true }) + scorer.score(right, { bos: true, eos: false });
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

/** A model file that cannot be used. */
export class ModelError extends Error {
  override name = 'ModelError';
}

/** An n-gram model read from an ARPA file (the text format KenLM and SRILM write). */
export class ArpaModel implements SequenceScorer {
  readonly order: number;
  private readonly grams = new Map<string, { p: number; bo: number }>();

  constructor(text: string, source = 'model') {
    let n = 0;
    let order = 0;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '' || line === '\\data\\' || line.startsWith('ngram ')) continue;
      if (line === '\\end\\') break;
      const section = /^\\(\d+)-grams:$/.exec(line);
      if (section) {
        n = Number(section[1]);
        order = Math.max(order, n);
        continue;
      }
      if (n === 0) throw new ModelError(`${source}: Unexpected "${line.slice(0, 40)}" before an n-gram section, expected an ARPA file`);
      const fields = line.split(/\s+/u);
      if (fields.length < n + 1) throw new ModelError(`${source}: Unexpected ${n}-gram line "${line.slice(0, 60)}"`);
      const p = Number(fields[0]);
      const words = fields.slice(1, n + 1);
      const bo = fields.length > n + 1 ? Number(fields[n + 1]) : 0;
      if (!Number.isFinite(p) || !Number.isFinite(bo)) throw new ModelError(`${source}: Unexpected number in "${line.slice(0, 60)}"`);
      this.grams.set(words.join(' '), { p, bo });
    }
    if (order === 0) throw new ModelError(`${source}: no n-gram sections, expected an ARPA file`);
    this.order = order;
  }

  /** Reads an ARPA file; a missing or malformed file throws ModelError. */
  static load(path: string): ArpaModel {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ModelError(`Cannot read language model ${path}: ${(error as Error).message}`);
    }
    return new ArpaModel(text, path);
  }

  /** log10 P(word | history) with back-off; unknown words score as <unk> (or −100 without one). */
  private wordScore(history: readonly string[], word: string): number {
    let backoff = 0;
    for (let start = Math.max(0, history.length - this.order + 1); start <= history.length; start++) {
      const context = history.slice(start);
      const hit = this.grams.get([...context, word].join(' '));
      if (hit) return backoff + hit.p;
      const ctx = context.length > 0 ? this.grams.get(context.join(' ')) : undefined;
      if (ctx) backoff += ctx.bo;
    }
    return backoff + (this.grams.get('<unk>')?.p ?? -100);
  }

  score(words: readonly string[], options: { bos: boolean; eos: boolean }): number {
    const history: string[] = options.bos ? ['<s>'] : [];
    let total = 0;
    for (const word of [...words, ...(options.eos ? ['</s>'] : [])]) {
      total += this.wordScore(history, word);
      history.push(word);
    }
    return total;
  }
}
