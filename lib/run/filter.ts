/**
 * The run loop of a stage run as a Unix filter: NDJSON stdin → stage → stdout, with outcome
 * accounting for the exit code, quiet `| head`, and a progress line on a terminal.
 */
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseNdjson, stringifyNdjson } from '../protocol/ndjson.js';
import { UsageError } from '../protocol/options.js';
import type { PipeRecord } from '../protocol/records.js';

/** Erases the line the cursor is on: carriage return, then erase to the end of the line. */
const ERASE_LINE = '\r\x1b[K';
/** Whether a progress line stands on stderr's last line, without a newline. */
let progressShown = false;

/** Draws the progress line on stderr in place of the last one. */
export function drawProgress(text: string): void {
  process.stderr.write(ERASE_LINE + text);
  progressShown = true;
}

/** Writes a line to stderr (an error, the summary), erasing the progress line first so the two never mix; the next draw puts it back. */
export function stderrLine(text: string): void {
  process.stderr.write((progressShown ? ERASE_LINE : '') + text + '\n');
  progressShown = false;
}

/** Erases the progress line, if one is shown. */
export function clearProgress(): void {
  if (progressShown) process.stderr.write(ERASE_LINE);
  progressShown = false;
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
    if (this.progress) clearProgress();
    done();
  }

  private draw(): void {
    this.lastDraw = Date.now();
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    drawProgress(`${this.documents} documents, ${this.pages} pages, ${(this.pages / seconds).toFixed(1)} pages/s, ${this.failed} errors`);
  }
}

/** A usage error when the records would come from a terminal: a user who gave no input, not one who means to type NDJSON. */
export function refuseTerminal(input: Readable | NodeJS.ReadableStream, what = 'records'): void {
  if ((input as { isTTY?: boolean }).isTTY) throw new UsageError(`No input: give ${what} on stdin (a pipe or a file), not the terminal`);
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
  refuseTerminal(input);
  const output = run.output ?? process.stdout;
  if (output === process.stdout) quietOnBrokenPipe();
  const counter = new OutcomeCounter(Boolean(process.stderr.isTTY) && output === process.stdout);
  const serialize = run.writesBytes ? [] : [stringifyNdjson()];
  const middle = run.writesBytes
    ? [...run.transforms.slice(0, -1), counter, ...run.transforms.slice(-1)]
    : [...run.transforms, counter];
  await pipeline([input, ...parseNdjson(run.stage), ...middle, ...serialize, output]);
  return counter.failed > 0 ? EXIT.documentsFailed : EXIT.completed;
}

/**
 * The exit statuses of every command, for schedulers (Snakemake, Slurm, Spark's `pipe`, Hadoop
 * Streaming) that read a non-zero status as "the job failed, throw its output away". A run that
 * read all its input completed, whatever became of single documents: their failures are in the
 * outcome records, `--errors` and the summary. Only `--fail-on error` turns them into a status.
 */
export const EXIT = {
  /** The run completed (documents may have failed, unless `--fail-on error`). */
  completed: 0,
  /** The run completed and some documents failed; only with `--fail-on error`. */
  documentsFailed: 1,
  /** A usage error: a bad option or value, a file an option names that cannot be read or written. */
  usage: 2,
  /** pdfpipe itself failed (a bug, or the system refused something the run needs). */
  crashed: 70,
  /** Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), after writing the summary and the report. */
  interrupted: 130,
  terminated: 143,
} as const;

/** The `--fail-on` policy in argv (the last one given before `--`); `none` by default. */
export function failPolicy(argv: readonly string[]): 'none' | 'error' {
  let policy: 'none' | 'error' = 'none';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const value = arg === '--fail-on' ? argv[++i] : arg.startsWith('--fail-on=') ? arg.slice('--fail-on='.length) : undefined;
    if (value === 'error' || value === 'none') policy = value;
  }
  return policy;
}

/** Writes a crash of pdfpipe itself to stderr and sets the crash status. */
export function reportCrash(error: unknown): void {
  process.stderr.write(`pdfpipe: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exitCode = EXIT.crashed;
}

/**
 * Runs a stage's main with the exit-status convention (`EXIT`): main resolves to
 * `EXIT.completed` or `EXIT.documentsFailed`, which `--fail-on none` (the default) turns into 0;
 * a UsageError is 2 and anything else thrown a crash.
 */
export async function runMain(main: (argv: string[]) => Promise<number>, argv: string[]): Promise<void> {
  try {
    const status = await main(argv);
    process.exitCode = status === EXIT.documentsFailed && failPolicy(argv) === 'none' ? EXIT.completed : status;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pdfpipe: ${error.message}\n(see --help)\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    reportCrash(error);
  }
}
