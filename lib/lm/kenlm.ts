/**
 * KenLM's programs: finding them, and `query` as one long-lived child process speaking its line
 * protocol (one sentence in, one `Total: … OOV: …` line out), for binary or large models.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ModelError, type LanguageModel, type SentenceScore } from './model.js';

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

/** Options of KenLM's `query` process. */
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
