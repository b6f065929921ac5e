/**
 * Command-line plumbing shared by every stage: an option table that parses argv and writes
 * `--help` (defaults read from the stage's own DEFAULTS), and the run loop that wires stdin →
 * stage → stdout with outcome accounting, quiet `| head`, and a progress line on a terminal.
 */
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseNdjson, stringifyNdjson } from './ndjson.js';
import type { PipeRecord } from './records.js';

/** One command-line option of a stage. */
export interface OptionSpec {
  /** The option's key in the stage's options object (camelCase); the flag is its kebab-case. */
  key: string;
  type: 'boolean' | 'number' | 'string';
  description: string;
  choices?: readonly string[];
  /** Lower bound for numbers. */
  min?: number;
}

/** A usage error: wrong option, wrong value. The CLI exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Parses argv against the option table; unknown options and bad values throw UsageError. */
export function parseArgs<T extends object>(
  argv: readonly string[],
  specs: readonly OptionSpec[],
  defaults: T,
): { options: T; positionals: string[]; help: boolean } {
  const options: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  const positionals: string[] = [];
  let help = false;
  const byFlag = new Map(specs.map((s) => [kebab(s.key), s]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    let negated = false;
    let spec = byFlag.get(flag);
    if (!spec && flag.startsWith('no-')) {
      spec = byFlag.get(flag.slice(3));
      negated = spec?.type === 'boolean';
      if (!negated) spec = undefined;
    }
    if (!spec) throw new UsageError(`Unknown option --${flag}`);
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`Option --${flag} takes no value`);
      options[spec.key] = !negated;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`Option --${flag} needs a value`);
    if (spec.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`Option --${flag} expects a number, got "${value}"`);
      if (spec.min !== undefined && n < spec.min) throw new UsageError(`Option --${flag} must be at least ${spec.min}, got ${n}`);
      options[spec.key] = n;
    } else {
      if (spec.choices && !spec.choices.includes(value)) {
        throw new UsageError(`Option --${flag} expects one of ${spec.choices.join(', ')}, got "${value}"`);
      }
      options[spec.key] = value;
    }
  }
  return { options: options as T, positionals, help };
}

/** Writes the help text of a stage from its option table and defaults. */
export function helpText(usage: string, summary: string, specs: readonly OptionSpec[], defaults: object): string {
  const values = defaults as Record<string, unknown>;
  const rows = specs.map((s) => {
    const flag = `--${kebab(s.key)}${s.type === 'boolean' ? '' : s.type === 'number' ? ' N' : ' VALUE'}`;
    const choices = s.choices ? ` (${s.choices.join('|')})` : '';
    const value = values[s.key];
    const shown = value === undefined || value === null || value === '' ? '' : ` [default: ${String(value)}]`;
    return `  ${flag.padEnd(24)} ${s.description}${choices}${shown}`;
  });
  return `usage: ${usage}\n\n${summary}\n\noptions:\n${rows.join('\n')}\n  ${'--help'.padEnd(24)} show this help\n`;
}

/** Counts documents and failures as records pass, for the exit code and the progress line. */
export class OutcomeCounter extends Transform {
  documents = 0;
  failed = 0;
  pages = 0;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(private readonly progress: boolean) {
    super({ objectMode: true });
  }

  override _transform(record: PipeRecord, _enc: BufferEncoding, done: (e?: Error | null, r?: unknown) => void): void {
    if (record.type === 'page') this.pages += 1;
    if (record.type === 'end' || record.type === 'error') {
      this.documents += 1;
      if (record.type === 'error') this.failed += 1;
    }
    if (this.progress && Date.now() - this.lastDraw > 250) this.draw();
    done(null, record);
  }

  override _flush(done: () => void): void {
    if (this.progress) {
      this.draw();
      process.stderr.write('\n');
    }
    done();
  }

  private draw(): void {
    this.lastDraw = Date.now();
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    process.stderr.write(`\r${this.documents} documents, ${this.pages} pages, ${(this.pages / seconds).toFixed(1)} pages/s, ${this.failed} errors`);
  }
}

/** Ends the process quietly when the reader of stdout goes away (`| head`). */
export function quietOnBrokenPipe(stream: Writable = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

export interface FilterRun {
  stage: string;
  input?: Readable;
  output?: Writable;
  /** Turns records into records (the stage), optionally followed by a serializer to bytes. */
  transforms: Transform[];
  /** When set, the last transform already writes bytes; otherwise records are written as NDJSON. */
  writesBytes?: boolean;
}

/** Runs NDJSON stdin → transforms → stdout; returns the exit code (0 all documents ok, 1 some failed). */
export async function runFilter(run: FilterRun): Promise<number> {
  const input = run.input ?? process.stdin;
  const output = run.output ?? process.stdout;
  if (output === process.stdout) quietOnBrokenPipe();
  const counter = new OutcomeCounter(Boolean(process.stderr.isTTY) && output === process.stdout);
  const serialize = run.writesBytes ? [] : [stringifyNdjson()];
  const middle = run.writesBytes
    ? [...run.transforms.slice(0, -1), counter, ...run.transforms.slice(-1)]
    : [...run.transforms, counter];
  await pipeline([input, ...parseNdjson(run.stage), ...middle, ...serialize, output]);
  return counter.failed > 0 ? 1 : 0;
}

/** Runs a stage's main with the exit-code convention: 2 for usage errors, 1 for a crash. */
export async function runMain(main: (argv: string[]) => Promise<number>, argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pdfpipe: ${error.message}\n(see --help)\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`pdfpipe: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}
