/**
 * `pdfpipe lm build`: estimates an ARPA n-gram model from text on stdin (one sentence or line a
 * line), for `resegment --lm`. Words are lowercased and stripped of punctuation, as the models are
 * queried. With KenLM's `lmplz` installed (on PATH or in $KENLM_BIN) it does the
 * estimation (modified Kneser-Ney); otherwise a smaller in-process estimate is written (absolute
 * discounting with backoff), which is enough for choosing between segmentations of a line.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../protocol/options.js';
import { estimateArpa } from './arpa.js';
import { findKenlm } from './kenlm.js';
import { wordsOf } from './words.js';

export interface LmBuildOptions {
  /** n-gram order. */
  order: number;
  /** Estimate in-process even when `lmplz` is installed. */
  inProcess: boolean;
  /** Memory `lmplz` may use (its -S option). */
  memory: string;
}

export const DEFAULTS: LmBuildOptions = { order: 3, inProcess: false, memory: '10%' };

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'order', type: 'number', min: 1, description: 'n-gram order' },
  { key: 'inProcess', type: 'boolean', description: 'estimate in-process even when lmplz is installed' },
  { key: 'memory', type: 'string', description: "memory lmplz may use (its -S option, e.g. 10% or 500M)" },
];

export const USAGE = 'pdfpipe lm build [options] < text.txt > model.arpa';
export const SUMMARY = 'Estimates an n-gram language model (ARPA) from text, for resegment --lm.';

/** Runs lmplz over stdin; resolves with its exit code. */
async function runLmplz(binary: string, options: LmBuildOptions): Promise<number> {
  const child = spawn(binary, ['-o', String(options.order), '-S', options.memory, '--discount_fallback'], {
    stdio: ['pipe', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  // lmplz sees the words as the models are queried: lowercased, punctuation stripped.
  async function* normalized(): AsyncGenerator<string> {
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      const words = wordsOf(line);
      if (words.length > 0) yield words.join(' ') + '\n';
    }
  }
  await pipeline(normalized, child.stdin).catch(() => undefined);
  const code = await exited;
  if (code !== 0) process.stderr.write(`pdfpipe lm build: lmplz failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}\n`);
  return code === 0 ? 0 : 1;
}

export async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  if (verb !== 'build') throw new UsageError(`Unknown lm command "${verb}", expected build`);
  const { options, help } = parseArgs(rest, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  const lmplz = options.inProcess ? null : findKenlm('lmplz');
  if (lmplz) return runLmplz(lmplz, options);
  const sentences: string[][] = [];
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const words = wordsOf(line);
    if (words.length > 0) sentences.push(words);
  }
  process.stdout.write(estimateArpa(sentences, options.order));
  return 0;
}
