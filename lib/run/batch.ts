/**
 * A batch run of `parse` or `extract`: inputs in, the chain, outcome accounting, output out.
 *
 * Accounting: every input document ends in exactly one outcome (`end` or `error`), and the run
 * counts them by code. At the end it writes a summary to stderr (documents, pages, pages/s,
 * outcomes by code), with `report` the same as JSON (with the peak memory per 1,000 documents),
 * and with `errors` every error record as NDJSON. On a terminal (or with `progress`) a live line
 * shows how far the run is; `quiet` silences both.
 *
 * Resume: with `resume STATE`, each document whose output has been written is appended to STATE
 * (its id, outcome and the byte offset where its output ends). A run started again with the same
 * arguments skips the documents that succeeded, cuts stdout (a file opened with `>>`) back to the
 * end of the last one kept, and writes the rest, so the output equals that of a run that was never
 * stopped; failed documents are done again (lib/run/resume.ts).
 */
import { appendFileSync, createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ResumeState, retryPolicy, rewindOutput } from './resume.js';
import { checkWritableFile } from './preflight.js';
import { NO_TEXT_REASONS, noTextDiagnostic, NoTextWatch } from './no-text.js';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type OptionSpec } from '../protocol/options.js';
import { clearProgress, drawProgress, EXIT, quietOnBrokenPipe, refuseTerminal, stderrLine } from './filter.js';
import { inputsFromArgs, inputsFromBase64, inputsFromList, withIds } from './inputs.js';
import { parseNdjson } from '../protocol/ndjson.js';
import type { ErrorRecord, PipeRecord } from '../protocol/records.js';
import { isWritten, isWrittenPart, type WrittenDocument, type WrittenPart } from './worker-task.js';

export interface RunOptions {
  /** Read the input paths from stdin, one a line. */
  fromList: boolean;
  /** Read stdin as one base64-encoded PDF a line (Bitextor style). */
  base64: boolean;
  /** Write the run's summary as JSON to this file. */
  report: string;
  /** Write every error record as NDJSON to this file. */
  errors: string;
  /** Record finished documents in this file, and skip the ones it lists. */
  resume: string;
  /** On resume, the failed documents done again: `all`, `none`, or error codes, comma-separated. */
  retry: string;
  /** Resume even when the state was made with other output options. */
  resumeForce: boolean;
  /** Show the progress line even when stderr is not a terminal. */
  progress: boolean;
  /** No progress line and no summary on stderr. */
  quiet: boolean;
}

export const RUN_DEFAULTS: RunOptions = {
  fromList: false,
  base64: false,
  report: '',
  errors: '',
  resume: '',
  retry: 'all',
  resumeForce: false,
  progress: false,
  quiet: false,
};

export const RUN_OPTIONS: readonly OptionSpec[] = [
  { key: 'fromList', type: 'boolean', description: 'read input paths from stdin, one a line' },
  { key: 'base64', type: 'boolean', description: 'read stdin as one base64 PDF a line; line N is document line-N' },
  { key: 'report', type: 'string', description: 'write the run summary as JSON to this file' },
  { key: 'errors', type: 'string', description: 'write the error records as NDJSON to this file' },
  { key: 'resume', type: 'string', description: 'state file: skip documents it lists as done, add each one finished' },
  { key: 'retry', type: 'string', description: 'on resume, the failed documents done again: all, none, or error codes, comma-separated (timeout,out-of-memory)' },
  { key: 'resumeForce', type: 'boolean', description: 'resume even when the state was made with other output options' },
  { key: 'progress', type: 'boolean', description: 'show the progress line even when stderr is not a terminal' },
  { key: 'quiet', type: 'boolean', short: ['q'], description: 'nothing on stderr: no progress line, no per-document error lines, no summary' },
];

const MiB = 1024 * 1024;
/** Documents per memory window in the report. */
const WINDOW = 1000;

interface MemoryWindow {
  /** Documents finished at the end of the window. */
  documents: number;
  /** Peak resident set size of the process in the window, MiB. */
  rssPeakMiB: number;
  /** Peak heap + external memory of any one parse worker in the window, MiB. */
  workerPeakMiB: number;
}

/** The run's summary, as `--report` writes it. */
export interface RunReport {
  stage: string;
  documents: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Outcomes by code: `end` for documents that succeeded, the error code for the others. */
  outcomes: Record<string, number>;
  /** Documents a previous run had finished (from the resume state), not run again. */
  skipped: number;
  /** Documents that ended well with no text, by reason (lib/run/no-text.ts); each also has a `no-text` diagnostic. */
  noText: Record<string, number>;
  /** Pages whose text reads as no language (each has a `garbled-text` diagnostic from langid). */
  garbledPages: number;
  interrupted: boolean;
  memory: { rssPeakMiB: number; workerPeakMiB: number; windows: MemoryWindow[] };
  /**
   * How busy the threads were (event-loop utilisation, 0–1): the main thread (the stages after
   * parse, and writing) and each parse worker. A main thread near 1 with idle workers means more
   * jobs cannot help.
   */
  busy: { main: number; workers: number[] };
}

/** Counts outcomes and pages as records pass; writes error records, the progress line and the summary. */
export class Accounting extends Transform {
  documents = 0;
  failed = 0;
  pages = 0;
  readonly outcomes: Record<string, number> = {};
  private readonly started = Date.now();
  private lastDraw = 0;
  private readonly errors: WriteStream | null;
  private window: MemoryWindow = { documents: 0, rssPeakMiB: 0, workerPeakMiB: 0 };
  private readonly windows: MemoryWindow[] = [];
  private rssPeak = 0;
  private workerPeak = 0;
  skipped = 0;
  /** Documents with no text, by reason. */
  readonly noText: Record<string, number> = {};
  private readonly noTextWatch = new NoTextWatch();
  /** Pages with a `garbled-text` diagnostic. */
  garbledPages = 0;
  /** Each parse worker's share of its life spent working, as last reported. */
  readonly workerBusy = new Map<number, number>();
  private readonly elu = performance.eventLoopUtilization();

  constructor(
    private readonly stage: string,
    private readonly options: Pick<RunOptions, 'errors' | 'progress' | 'quiet' | 'report'> & { append?: boolean },
  ) {
    super({ objectMode: true });
    this.errors = options.errors ? createWriteStream(options.errors, { flags: options.append ? 'a' : 'w' }) : null;
  }

  private get showProgress(): boolean {
    return !this.options.quiet && (this.options.progress || Boolean(process.stderr.isTTY));
  }

  /**
   * Counts a document whose output could not be written (`write-failed`, from the serializer) as
   * failed; one that had failed already keeps its first error in the counts.
   */
  writeFailed(failure: ErrorRecord, outcome: PipeRecord): void {
    if (outcome.type !== 'end') return;
    this.outcomes.end = (this.outcomes.end ?? 1) - 1;
    if (this.outcomes.end === 0) delete this.outcomes.end;
    this.outcomes[failure.code] = (this.outcomes[failure.code] ?? 0) + 1;
    this.failed += 1;
    this.errors?.write(JSON.stringify(failure) + '\n');
  }

  /** Notes one parse worker's memory after a document. */
  workerMemory(bytes: number): void {
    const mib = bytes / MiB;
    this.window.workerPeakMiB = Math.max(this.window.workerPeakMiB, mib);
    this.workerPeak = Math.max(this.workerPeak, mib);
  }

  override _transform(record: PipeRecord | WrittenDocument, _enc: BufferEncoding, done: TransformCallback): void {
    if (isWritten(record)) return this.written(record, done);
    if (record.type === 'page') this.pages += 1;
    else if (record.type === 'diagnostic' && record.code === 'garbled-text') this.garbledPages += 1;
    const empty = this.noTextWatch.note(record);
    if (empty !== null) {
      this.noText[empty] = (this.noText[empty] ?? 0) + 1;
      const warning = noTextDiagnostic(record.type === 'end' ? record.doc : '', this.stage, empty);
      if (!this.options.quiet) stderrLine(`pdfpipe: ${warning.doc}: no-text: ${NO_TEXT_REASONS[empty]}`);
      this.push(warning);
    }
    if (record.type === 'end' || record.type === 'error') {
      this.documents += 1;
      const code = record.type === 'end' ? 'end' : record.code;
      this.outcomes[code] = (this.outcomes[code] ?? 0) + 1;
      if (record.type === 'error') {
        this.failed += 1;
        this.errors?.write(JSON.stringify(record) + '\n');
      }
      const rss = process.memoryUsage.rss() / MiB;
      this.window.rssPeakMiB = Math.max(this.window.rssPeakMiB, rss);
      this.rssPeak = Math.max(this.rssPeak, rss);
      if (this.documents % WINDOW === 0) this.closeWindow();
    }
    if (this.showProgress && Date.now() - this.lastDraw > 250) this.draw();
    done(null, record);
  }

  /** Counts a document its worker wrote, as its records would have been counted; its `no-text` diagnostic is in its body already. */
  private written(document: WrittenDocument, done: TransformCallback): void {
    this.pages += document.pages;
    this.garbledPages += document.garbledPages;
    if (document.noText !== null) {
      this.noText[document.noText] = (this.noText[document.noText] ?? 0) + 1;
      if (!this.options.quiet) stderrLine(`pdfpipe: ${document.doc}: no-text: ${NO_TEXT_REASONS[document.noText]}`);
    }
    this._transform(document.outcome, 'utf8', () => done(null, document));
  }

  override _flush(done: TransformCallback): void {
    if (this.showProgress) clearProgress();
    done();
  }

  private closeWindow(): void {
    this.window.documents = this.documents;
    this.window.rssPeakMiB = round(this.window.rssPeakMiB);
    this.window.workerPeakMiB = round(this.window.workerPeakMiB);
    this.windows.push(this.window);
    this.window = { documents: 0, rssPeakMiB: 0, workerPeakMiB: 0 };
  }

  private seconds(): number {
    return Math.max((Date.now() - this.started) / 1000, 0.001);
  }

  /** Documents this run will read, when known before it reads them (files named as arguments); 0 otherwise. */
  total = 0;

  private draw(): void {
    this.lastDraw = Date.now();
    const seconds = this.seconds();
    const count = this.total > 0 ? `${this.documents}/${this.total} documents` : `${this.documents} documents`;
    const left = this.total - this.documents;
    const eta = this.total > 0 && this.documents > 0 && left > 0 ? `, about ${duration((seconds / this.documents) * left)} left` : '';
    drawProgress(`${count}, ${this.pages} pages, ${(this.pages / seconds).toFixed(1)} pages/s, ${this.failed} errors${eta}`);
  }

  /** The summary so far. */
  report(interrupted = false): RunReport {
    if (this.documents % WINDOW !== 0) this.closeWindow();
    const seconds = this.seconds();
    return {
      stage: this.stage,
      documents: this.documents,
      pages: this.pages,
      seconds: round(seconds),
      pagesPerSecond: round(this.pages / seconds),
      outcomes: this.outcomes,
      skipped: this.skipped,
      noText: this.noText,
      garbledPages: this.garbledPages,
      interrupted,
      memory: { rssPeakMiB: round(this.rssPeak), workerPeakMiB: round(this.workerPeak), windows: this.windows },
      busy: {
        main: round(performance.eventLoopUtilization(this.elu).utilization),
        workers: [...this.workerBusy.values()].map(round),
      },
    };
  }

  /** Writes the summary to stderr (unless quiet) and the report file; closes the errors file. */
  async finish(interrupted = false): Promise<RunReport> {
    const report = this.report(interrupted);
    if (!this.options.quiet) stderrLine(summaryLine(report));
    if (this.options.report) appendFileSync(this.options.report, JSON.stringify(report, null, 2) + '\n', { flag: 'w' });
    if (this.errors) await new Promise<void>((resolve) => this.errors!.end(resolve));
    return report;
  }
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** "42 s", "3 min 5 s", "2 h 10 min". */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** "pdfpipe extract: 456 documents (end 400, corrupt 30, …), 5120 pages in 60.1 s, 85.2 pages/s". */
export function summaryLine(report: RunReport): string {
  const codes = Object.entries(report.outcomes).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ');
  const skipped = report.skipped > 0 ? `, ${report.skipped} skipped as done by an earlier run` : '';
  const empty = Object.entries(report.noText);
  const noText = empty.length > 0
    ? `, ${empty.reduce((n, [, count]) => n + count, 0)} with no text (${empty.map(([reason, n]) => `${reason} ${n}`).join(', ')})`
    : '';
  const stopped = report.interrupted ? ' (interrupted)' : '';
  const garbled = report.garbledPages > 0 ? ` (${report.garbledPages} with garbled text)` : '';
  return `pdfpipe ${report.stage}: ${report.documents} documents (${codes || 'none'})${noText}${skipped}, ${report.pages} pages${garbled} in ${report.seconds} s, ${report.pagesPerSecond} pages/s${stopped}`;
}

/**
 * Tracks where each document's output ends in the byte stream: the serializer's output for a
 * document's outcome record completes that document, and once stdout has taken the bytes up to
 * there, the document is recorded as done.
 */
class OutputTracker {
  produced: number;
  written: number;
  private readonly pending: { id: string; end: number; code: string }[] = [];
  private prefix: string;
  /** The code of a document whose output the serializer could not write, until its outcome is measured. */
  private writeFailure: string | null = null;

  constructor(
    private readonly state: ResumeState | null,
    base: number,
    /** Written before the first document after a resume (the text format's document separator). */
    separator: string,
  ) {
    this.produced = base;
    this.written = base;
    this.prefix = state && state.done.size > 0 ? separator : '';
  }

  /** Wraps a serializer (records in, text out) so that its output per outcome is measured. */
  wrap(serializer: Transform): Transform {
    serializer.on('document-error', (failure: ErrorRecord) => (this.writeFailure = failure.code));
    const inner = serializer._transform.bind(serializer);
    serializer._transform = (input: PipeRecord | WrittenDocument, enc: BufferEncoding, done: TransformCallback) => {
      inner(input, enc, (error?: Error | null, out?: unknown) => {
        if (error) return done(error);
        let text = out as string | Buffer | undefined;
        const record = isWritten(input) ? input.outcome : input;
        if (record.type === 'end' || record.type === 'error') {
          if (this.prefix) {
            text = this.prefix + (text ?? '').toString();
            this.prefix = '';
          }
          this.produced += text === undefined ? 0 : Buffer.byteLength(text);
          this.pending.push({ id: record.doc, end: this.produced, code: this.writeFailure ?? (record.type === 'end' ? 'end' : record.code) });
          this.writeFailure = null;
        } else {
          this.produced += text === undefined ? 0 : Buffer.byteLength(text);
        }
        done(null, text);
        this.settle();
      });
    };
    return serializer;
  }

  /** Records the documents whose output has been written in full. */
  settle(): void {
    while (this.pending.length > 0 && this.pending[0]!.end <= this.written) {
      const { id, end, code } = this.pending.shift()!;
      this.state?.add(id, end, code);
    }
  }

  /** A Writable that passes bytes to `output`, counting what it has taken. */
  writer(output: NodeJS.WritableStream): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        output.write(chunk, (error) => {
          if (error) return done(error);
          this.written += chunk.byteLength;
          this.settle();
          done();
        });
      },
    });
  }
}

export interface DocumentRun {
  stage: string;
  /** Files, folders, WARC files, `-`; empty for stdin (NDJSON, list or base64). */
  positionals: readonly string[];
  options: RunOptions;
  /** The record stages; the first is parse. */
  transforms: Transform[];
  /** Records → bytes; NDJSON when absent. */
  serializer?: Transform;
  /** Written between documents by the serializer (text format): prefixed to the first document of a resumed run. */
  separator?: string;
  /** The folder each document is written to as its own file (`--out-dir`), not to stdout. */
  outDir?: string;
}

/**
 * Records as NDJSON, and a document its worker wrote as NDJSON already (lib/run/render.ts) as it
 * is: `parse`'s output either way.
 */
function ndjsonOrWritten(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(input: PipeRecord | WrittenPart | WrittenDocument, _enc, done: TransformCallback) {
      if (isWrittenPart(input)) return done(null, input.body);
      // A body its worker could not write: the outcome alone, so that the document still ends.
      if (isWritten(input)) return done(null, input.body ?? `${JSON.stringify(input.outcome)}\n`);
      done(null, `${JSON.stringify(input)}\n`);
    },
  });
}

/** The number of documents the arguments name, when they are all PDF files (folders and WARC files are counted only as they are read); 0 otherwise. */
async function countedFiles(positionals: readonly string[]): Promise<number> {
  if (positionals.length === 0 || positionals.length > 100_000) return 0;
  for (const path of positionals) {
    if (path === '-' || /\.warc(\.gz)?$/i.test(path)) return 0;
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) return 0;
  }
  return positionals.length;
}

/** The input records of a run, from its arguments or stdin. */
function inputStages(run: DocumentRun, done: ReadonlySet<string>): (NodeJS.ReadableStream | NodeJS.ReadWriteStream | ((source: AsyncIterable<PipeRecord>) => AsyncGenerator<PipeRecord>))[] {
  const { options, positionals } = run;
  if (positionals.length > 0) return [Readable.from(withIds(inputsFromArgs(positionals), done))];
  if (options.fromList) return [Readable.from(withIds(inputsFromList(process.stdin), done))];
  if (options.base64) return [Readable.from(withIds(inputsFromBase64(process.stdin), done))];
  return [process.stdin, ...parseNdjson(run.stage), (source: AsyncIterable<PipeRecord>) => withIds(source, done)];
}

/** Runs inputs → transforms → accounting → serializer → stdout; returns EXIT.documentsFailed when a document failed, else EXIT.completed. */
export async function runDocuments(run: DocumentRun): Promise<number> {
  const { options } = run;
  if (options.fromList && options.base64) {
    const { UsageError } = await import('../protocol/options.js');
    throw new UsageError('--from-list and --base64 read stdin in two different ways: choose one');
  }
  if (options.errors) checkWritableFile(options.errors, 'errors');
  if (options.report) checkWritableFile(options.report, 'report');
  if (options.resume) checkWritableFile(options.resume, 'resume');
  if (run.positionals.length === 0) refuseTerminal(process.stdin, 'PDF files or folders as arguments, or pdf records, paths (--from-list) or base64 lines (--base64)');
  quietOnBrokenPipe();
  const state = options.resume
    ? new ResumeState(options.resume, { options, retry: retryPolicy(options.retry), filesPerDocument: Boolean(run.outDir), force: options.resumeForce })
    : null;
  if (state && state.end > 0) rewindOutput(state.end);
  const accounting = new Accounting(run.stage, { ...options, append: state !== null && state.done.size > 0 });
  accounting.skipped = state?.done.size ?? 0;
  accounting.total = Math.max(0, (await countedFiles(run.positionals)) - accounting.skipped);
  for (const stage of run.transforms) {
    stage.on('worker-memory', (m: { worker: number; heapUsed: number; external: number; busy: number }) => {
      accounting.workerMemory(m.heapUsed + m.external);
      accounting.workerBusy.set(m.worker, m.busy);
    });
  }
  const tracker = new OutputTracker(state, state?.end ?? 0, run.separator ?? '');
  const serializer = tracker.wrap(run.serializer ?? ndjsonOrWritten());
  serializer.on('document-error', (failure: ErrorRecord, outcome: PipeRecord) => accounting.writeFailed(failure, outcome));
  // Slurm and Kubernetes stop a job with SIGTERM, a user with Ctrl-C: either way the summary and
  // the report are written (marked interrupted) before the process ends.
  const onSignal = (signal: NodeJS.Signals): void => {
    const status = signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    void accounting.finish(true).finally(() => process.exit(status));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await pipeline([...inputStages(run, state?.done ?? new Set()), ...run.transforms, accounting, serializer, tracker.writer(process.stdout)] as never);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  await accounting.finish();
  return accounting.failed > 0 ? EXIT.documentsFailed : EXIT.completed;
}
