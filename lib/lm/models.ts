/**
 * Language models for re-segmentation, behind one interface.
 *
 * - `UnigramModel`: word counts built on the fly from a document (and optional word lists); the
 *   default, synchronous, used by the dynamic-programming search itself.
 * - `ArpaModel`: an n-gram model in the ARPA text format (what KenLM's `lmplz` and most toolkits
 *   write), read in-process; backoff scoring.
 * - `KenlmQuery`: KenLM's `query` program as one long-lived child process speaking its line protocol
 *   (one sentence in, one `Total: … OOV: …` line out), for binary or large models.
 *
 * The n-gram models score whole sentences (log10 probability, `<s>`/`</s>` added); the search uses
 * them to choose between a line as it was and as re-segmented. `estimateArpa` builds a small ARPA
 * model from text in-process (absolute discounting with backoff) for when `lmplz` is not installed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A sentence's score: log10 P(sentence) (higher is better) and how many of its words the model does not know. */
export interface SentenceScore {
  total: number;
  oov: number;
}

/** A sentence-level language model. */
export interface LanguageModel {
  readonly name: string;
  /** The score of each sentence, a sentence being its words in order. */
  score(sentences: readonly (readonly string[])[]): Promise<SentenceScore[]>;
  /** Releases the model (ends a child process). */
  close(): Promise<void>;
}

/** Words as the models see them: lowercased, letters and marks (inner hyphens and apostrophes kept). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/\s+/u)) {
    // A word that starts and ends with an ASCII letter or digit has nothing to trim.
    const word = isAsciiAlnum(raw.charCodeAt(0)) && isAsciiAlnum(raw.charCodeAt(raw.length - 1)) ? raw : raw.replace(/^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, '');
    if (word) out.push(word);
  }
  return out;
}

const isAsciiAlnum = (code: number): boolean => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

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

/** A malformed model file: the message says where. */
export class ModelError extends Error {
  override name = 'ModelError';
}

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

/** Finds a KenLM program: in $KENLM_BIN (a folder or the program itself), then on PATH. */
export function findKenlm(program: 'query' | 'lmplz' | 'build_binary', env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  const configured = env.KENLM_BIN;
  if (configured) candidates.push(configured.endsWith(program) ? configured : join(configured, program));
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir) candidates.push(join(dir, program));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** Reads one line of `query -v sentence` output; null when it is not one. */
export function parseQueryLine(line: string): { total: number; oov: number } | null {
  const m = /^Total: (\S+) OOV: (\d+)$/.exec(line.trim());
  if (!m) return null;
  const total = Number(m[1]);
  return Number.isFinite(total) || m[1] === '-inf' ? { total: m[1] === '-inf' ? -Infinity : total, oov: Number(m[2]) } : null;
}

export interface KenlmOptions {
  /** Path of the `query` program (default: found by `findKenlm`). */
  binary?: string;
  /** A reply slower than this (ms) counts as a hang: the process is killed and restarted. */
  timeoutMs?: number;
  /** How many times a dead or hung process is restarted before the model gives up. */
  maxRestarts?: number;
}

interface Pending {
  resolve: (value: SentenceScore) => void;
  reject: (error: Error) => void;
}

/**
 * KenLM's `query` as one long-lived process: sentences are written one a line to its stdin (waiting
 * for 'drain' when the pipe is full) and answers are read in order from its stdout. A process that
 * exits, prints something that is not an answer, or stays silent past the timeout is killed; the
 * requests in flight fail with a clear error and the next request starts a fresh process.
 */
export class KenlmQuery implements LanguageModel {
  readonly name: string;
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly pending: Pending[] = [];
  private buffer = '';
  private stderr = '';
  private timer: NodeJS.Timeout | null = null;
  private restarts = 0;
  private failure: Error | null = null;
  private readonly binary: string;
  private readonly timeoutMs: number;
  private readonly maxRestarts: number;

  constructor(readonly model: string, options: KenlmOptions = {}) {
    this.name = `kenlm:${model}`;
    const binary = options.binary ?? findKenlm('query');
    if (!binary) throw new ModelError('KenLM `query` program not found: install KenLM and put `query` on PATH, or set KENLM_BIN to its folder');
    try {
      accessSync(binary, constants.X_OK);
    } catch {
      throw new ModelError(`KenLM \`query\` program not found at ${binary}`);
    }
    try {
      accessSync(model, constants.R_OK);
    } catch {
      throw new ModelError(`language model ${model} cannot be read`);
    }
    this.binary = binary;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRestarts = options.maxRestarts ?? 2;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.failure) throw this.failure;
    const child = spawn(this.binary, ['-b', '-v', 'sentence', this.model], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.buffer = '';
    this.stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(child, chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    child.stdin.on('error', () => {
      // EPIPE when the process died: reported by 'exit'.
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const message = error.code === 'ENOENT' ? `KenLM \`query\` program not found at ${this.binary}` : `KenLM query failed: ${error.message}`;
      this.fail(child, new ModelError(message), true);
    });
    child.on('exit', (code, signal) => {
      const why = this.stderr.trim().split('\n').slice(-2).join(' ');
      this.fail(child, new ModelError(`KenLM query exited (${signal ?? `code ${code}`})${why ? `: ${why}` : ''}`), false);
    });
    return child;
  }

  private onData(child: ChildProcessWithoutNullStreams, chunk: string): void {
    if (child !== this.child) return;
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const answer = parseQueryLine(line);
      const request = this.pending.shift();
      if (!request) continue;
      if (!answer) {
        this.pending.unshift(request);
        this.fail(child, new ModelError(`KenLM query printed "${line.slice(0, 80)}", expected "Total: … OOV: …"`), false);
        return;
      }
      request.resolve(answer);
    }
    this.arm();
  }

  /** Restarts the hang timer while answers are owed. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const child = this.child;
    if (this.pending.length > 0 && child) {
      this.timer = setTimeout(() => this.fail(child, new ModelError(`KenLM query gave no answer within ${this.timeoutMs} ms`), false), this.timeoutMs);
      this.timer.unref();
    }
  }

  private fail(child: ChildProcessWithoutNullStreams, error: Error, permanent: boolean): void {
    if (child !== this.child) return;
    this.child = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    child.kill('SIGKILL');
    this.restarts += 1;
    if (permanent || this.restarts > this.maxRestarts) this.failure = error;
    for (const request of this.pending.splice(0)) request.reject(error);
  }

  async score(sentences: readonly (readonly string[])[]): Promise<SentenceScore[]> {
    if (sentences.length === 0) return [];
    const child = this.child ?? this.start();
    const answers = sentences.map(
      () => new Promise<SentenceScore>((resolve, reject) => this.pending.push({ resolve, reject })),
    );
    this.arm();
    for (const words of sentences) {
      // The protocol is one sentence a line, words separated by spaces.
      const line = words.map((w) => w.replace(/\s+/gu, '')).filter(Boolean).join(' ') + '\n';
      if (!child.stdin.write(line)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            child.stdin.off('drain', done);
            child.off('exit', done);
            resolve();
          };
          child.stdin.on('drain', done);
          child.on('exit', done);
        });
      }
      if (child !== this.child) break;
    }
    return Promise.all(answers);
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (this.timer) clearTimeout(this.timer);
    if (!child) return;
    for (const request of this.pending.splice(0)) request.reject(new ModelError('KenLM query closed'));
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    });
  }
}

/** Opens `--lm PATH`: an ARPA text file in-process, anything else (KenLM binary) through `query`. */
export function openModel(path: string, options: KenlmOptions = {}): LanguageModel {
  let head: Buffer;
  try {
    // Only the head: a binary model can be gigabytes.
    const fd = openSync(path, 'r');
    try {
      head = Buffer.alloc(4096);
      head = head.subarray(0, readSync(fd, head, 0, head.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ModelError(`language model ${path} cannot be read: ${(error as Error).message}`);
  }
  const text = head.toString('latin1');
  if (/^\s*(?:[^\n]*\n)*?\\data\\/.test(text) && !text.startsWith('mmap lm')) return ArpaModel.load(path);
  return new KenlmQuery(path, options);
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
