/**
 * N-gram models in the ARPA text format (what KenLM's `lmplz` and most toolkits write): read
 * in-process with backoff scoring, and estimated from text (`estimateArpa`) for when `lmplz` is not
 * installed.
 */
import { readFileSync } from 'node:fs';
import { ModelError, type LanguageModel, type SentenceScore } from './model.js';

interface Gram {
  p: number;
  b: number;
}

/** An ARPA-format n-gram model held in memory. */
export class ArpaModel implements LanguageModel {
  readonly name: string;
  readonly order: number;
  private readonly grams = new Map<string, Gram>();

  private constructor(name: string, order: number) {
    this.name = name;
    this.order = order;
  }

  /** Parses ARPA text; throws ModelError with the line number on malformed input. */
  static parse(text: string, name = 'arpa'): ArpaModel {
    const lines = text.split(/\r?\n/);
    const declared: number[] = [];
    let i = 0;
    while (i < lines.length && lines[i]!.trim() !== '\\data\\') i++;
    if (i === lines.length) throw new ModelError(`${name}: no \\data\\ section, expected an ARPA model`);
    i++;
    for (; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === '') continue;
      const m = /^ngram (\d+)=(\d+)$/.exec(line);
      if (!m) break;
      declared[Number(m[1]) - 1] = Number(m[2]);
    }
    if (declared.length === 0) throw new ModelError(`${name}:${i + 1}: expected "ngram N=COUNT" lines after \\data\\`);
    const model = new ArpaModel(name, declared.length);
    let n = 0;
    const seen: number[] = [];
    for (; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === '') continue;
      if (line === '\\end\\') {
        for (let k = 0; k < declared.length; k++) {
          if ((seen[k] ?? 0) !== declared[k]) {
            throw new ModelError(`${name}:${i + 1}: ${k + 1}-grams: ${seen[k] ?? 0} entries, header says ${declared[k]}`);
          }
        }
        return model;
      }
      const section = /^\\(\d+)-grams:$/.exec(line);
      if (section) {
        n = Number(section[1]);
        if (n < 1 || n > model.order) throw new ModelError(`${name}:${i + 1}: unexpected section ${line}, the header declares ${model.order} orders`);
        continue;
      }
      if (n === 0) throw new ModelError(`${name}:${i + 1}: unexpected "${line.slice(0, 40)}", expected a \\N-grams: section`);
      const fields = line.split(/\s+/);
      const p = Number(fields[0]);
      const words = fields.slice(1, 1 + n);
      const rest = fields.slice(1 + n);
      if (!Number.isFinite(p) || words.length !== n || rest.length > 1) {
        throw new ModelError(`${name}:${i + 1}: malformed ${n}-gram entry "${line.slice(0, 60)}"`);
      }
      const b = rest.length === 1 ? Number(rest[0]) : 0;
      if (!Number.isFinite(b)) throw new ModelError(`${name}:${i + 1}: malformed backoff weight "${rest[0]}"`);
      model.grams.set(words.join(' '), { p, b });
      seen[n - 1] = (seen[n - 1] ?? 0) + 1;
    }
    throw new ModelError(`${name}:${lines.length}: unexpected end of file, expected \\end\\`);
  }

  /** Reads an ARPA file; a missing or malformed file throws ModelError. */
  static load(path: string): ArpaModel {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ModelError(`Cannot read language model ${path}: ${(error as Error).message}`);
    }
    return ArpaModel.parse(text, path);
  }

  /** log10 P(word | context) with backoff; context is the preceding words, oldest first. */
  wordProb(context: readonly string[], word: string): number {
    const ctx = context.slice(Math.max(0, context.length - (this.order - 1)));
    let backoff = 0;
    for (let start = 0; start <= ctx.length; start++) {
      const history = ctx.slice(start);
      const gram = this.grams.get([...history, word].join(' '));
      if (gram) return backoff + gram.p;
      if (history.length > 0) backoff += this.grams.get(history.join(' '))?.b ?? 0;
    }
    return backoff + (this.grams.get('<unk>')?.p ?? -100);
  }

  /** log10 P(words), after a sentence start when `bos`, followed by a sentence end when `eos`. */
  sequenceProb(words: readonly string[], options: { bos: boolean; eos: boolean }): number {
    const history: string[] = options.bos ? ['<s>'] : [];
    let total = 0;
    for (const word of options.eos ? [...words, '</s>'] : words) {
      total += this.wordProb(history, word);
      history.push(word);
    }
    return total;
  }

  sentenceProb(words: readonly string[]): number {
    return this.sequenceProb(words, { bos: true, eos: true });
  }

  async score(sentences: readonly (readonly string[])[]): Promise<SentenceScore[]> {
    return sentences.map((s) => ({ total: this.sentenceProb(s), oov: s.filter((w) => !this.grams.has(w)).length }));
  }

  async close(): Promise<void> {}
}

/**
 * Estimates an ARPA model of the given order from sentences (arrays of words), with absolute
 * discounting (D = 0.7), interpolated with the lower orders, written as ARPA probabilities and backoff
 * weights (so each context's distribution sums to one).
 */
export function estimateArpa(sentences: Iterable<readonly string[]>, order = 3, discount = 0.7): string {
  const counts: Map<string, number>[] = Array.from({ length: order }, () => new Map());
  for (const words of sentences) {
    const seq = ['<s>', ...words, '</s>'];
    for (let n = 1; n <= order; n++) {
      for (let i = 0; i + n <= seq.length; i++) {
        if (n === 1 && seq[i] === '<s>') continue;
        const key = seq.slice(i, i + n).join(' ');
        counts[n - 1]!.set(key, (counts[n - 1]!.get(key) ?? 0) + 1);
      }
    }
  }
  const unigrams = counts[0]!;
  unigrams.set('<unk>', 0);
  // Context totals and distinct continuations, for every context of every order.
  const ctxTotal = new Map<string, number>();
  const ctxTypes = new Map<string, number>();
  for (let n = 2; n <= order; n++) {
    for (const [key, c] of counts[n - 1]!) {
      const ctx = key.slice(0, key.lastIndexOf(' '));
      ctxTotal.set(ctx, (ctxTotal.get(ctx) ?? 0) + c);
      ctxTypes.set(ctx, (ctxTypes.get(ctx) ?? 0) + 1);
    }
  }
  const total = [...unigrams.values()].reduce((a, b) => a + b, 0);
  const vocab = unigrams.size;
  // Unigrams: discounted mass spread evenly (also over <unk>).
  const uniDiscounted = [...unigrams.values()].filter((c) => c > 0).length * discount;
  const prob: Map<string, number>[] = Array.from({ length: order }, () => new Map());
  for (const [w, c] of unigrams) prob[0]!.set(w, (Math.max(c - discount, 0) + uniDiscounted / vocab) / total);
  prob[0]!.set('<s>', 0);
  const lower = (key: string, n: number): number => {
    // Probability of the last word given a shorter context, following backoff.
    const words = key.split(' ');
    let bo = 1;
    for (let k = n; k >= 1; k--) {
      const sub = words.slice(words.length - k).join(' ');
      const p = prob[k - 1]!.get(sub);
      if (p !== undefined && p > 0) return bo * p;
      const ctx = words.slice(words.length - k, words.length - 1).join(' ');
      if (k > 1) bo *= backoffOf(ctx);
    }
    return bo * (prob[0]!.get('<unk>') ?? 1e-7);
  };
  const backoffs = new Map<string, number>();
  function backoffOf(ctx: string): number {
    return backoffs.get(ctx) ?? 1;
  }
  for (let n = 2; n <= order; n++) {
    const byCtx = new Map<string, string[]>();
    for (const key of counts[n - 1]!.keys()) {
      const ctx = key.slice(0, key.lastIndexOf(' '));
      let list = byCtx.get(ctx);
      if (!list) byCtx.set(ctx, (list = []));
      list.push(key);
    }
    for (const [ctx, keys] of byCtx) {
      const t = ctxTotal.get(ctx) ?? 1;
      const gamma = ((ctxTypes.get(ctx) ?? 0) * discount) / t;
      for (const key of keys) {
        const shorter = key.split(' ').slice(1).join(' ');
        prob[n - 1]!.set(key, (counts[n - 1]!.get(key)! - discount) / t + gamma * lower(shorter, n - 1));
      }
      // Interpolated estimates: the unseen words of a context get exactly gamma × the lower order.
      backoffs.set(ctx, gamma);
    }
  }
  const lg = (p: number): string => (p > 0 ? Math.log10(p).toFixed(6) : '-99');
  const out: string[] = ['\\data\\'];
  for (let n = 1; n <= order; n++) out.push(`ngram ${n}=${prob[n - 1]!.size}`);
  for (let n = 1; n <= order; n++) {
    out.push('', `\\${n}-grams:`);
    for (const [key, p] of prob[n - 1]!) {
      const bo = n < order && backoffs.has(key) ? `\t${lg(backoffs.get(key)!)}` : '';
      out.push(`${lg(p)}\t${key}${bo}`);
    }
  }
  out.push('', '\\end\\', '');
  return out.join('\n');
}
