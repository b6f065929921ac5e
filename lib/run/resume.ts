/**
 * The resume state of a batch run (`--resume STATE`): which documents an earlier run finished,
 * where their output ends, and the options the run was made with.
 *
 * STATE holds JSON lines: first `{"options":{…}}`, the options that shape the output, then one
 * `{"id":…,"end":N,"code":…}` per document whose output was written, N the output bytes so far and
 * code `end` or the document's error code. A line cut by a kill is ignored (its document is simply
 * done again).
 *
 * Failed documents are done again (`retry`: every error code, none, or a list of codes), since a
 * failure is often the run's, not the document's: a timeout or a memory limit too tight, a bad
 * option fixed since. With `--out-dir` each document has its own file, so only those are redone;
 * on stdout the output is one stream in input order, so the run is cut back to just before the
 * first document to redo and goes on from there, and the output stays that of a run never stopped.
 *
 * A resume with options other than those STATE records would mix two outputs in one: it is a
 * usage error unless forced. Options that change how a run goes but not what it writes (jobs,
 * limits, reporting) may change freely.
 */
import { appendFileSync, fstatSync, ftruncateSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { UsageError } from '../protocol/options.js';

/** Options that change how a run goes, not what it writes: a resume may change them. */
const RUN_CONTROL = new Set([
  'jobs', 'timeout', 'memory', 'recycleMemory', 'progress', 'quiet', 'report', 'errors', 'resume', 'retry', 'resumeForce', 'failOn',
]);

/** Options never written to STATE, though they shape the output: secrets. */
const SECRET = new Set(['password']);

/** The options of a run that shape its output, in a stable order, as STATE records them. */
export function outputOptions(options: object): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(options).sort()) {
    const value = (options as Record<string, unknown>)[key];
    if (!RUN_CONTROL.has(key) && !SECRET.has(key) && value !== undefined && typeof value !== 'function') kept[key] = value;
  }
  return kept;
}

/** Which failed documents a resume does again: `all`, `none`, or a comma-separated list of error codes. */
export function retryPolicy(value: string): (code: string) => boolean {
  const codes = value.split(',').map((c) => c.trim()).filter(Boolean);
  if (codes.includes('all')) return (code) => code !== 'end';
  if (codes.length === 0 || codes.includes('none')) return () => false;
  return (code) => codes.includes(code);
}

interface Entry {
  id: string;
  end: number;
  code: string;
}

export interface ResumeSetup {
  /** The run's options; those that shape its output are compared with STATE's. */
  options: object;
  /** Whether a failed document is done again. */
  retry: (code: string) => boolean;
  /** Each document has its own output file (`--out-dir`), so one can be redone alone. */
  filesPerDocument: boolean;
  /** Resume even when STATE was made with other options. */
  force: boolean;
}

/** The resume state, read and made consistent for this run. */
export class ResumeState {
  readonly done = new Set<string>();
  /** Output bytes written by the documents the state keeps. */
  end = 0;
  /** Failed documents the state listed and this run does again. */
  retried = 0;

  constructor(readonly path: string, setup: ResumeSetup) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`Cannot read the resume state ${path}: ${(error as Error).message}`);
    }
    const options = outputOptions(setup.options);
    let recorded: Record<string, unknown> | null = null;
    const entries: Entry[] = [];
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as { id?: unknown; end?: unknown; code?: unknown; options?: unknown };
        if (entry.options && typeof entry.options === 'object') recorded = entry.options as Record<string, unknown>;
        else if (typeof entry.id === 'string' && typeof entry.end === 'number') {
          entries.push({ id: entry.id, end: entry.end, code: typeof entry.code === 'string' ? entry.code : 'end' });
        }
      } catch {
        // not a whole line
      }
    }
    if (recorded && !setup.force) {
      const keys = [...new Set([...Object.keys(recorded), ...Object.keys(options)])].sort();
      const changed = keys.filter((k) => JSON.stringify(recorded![k]) !== JSON.stringify(options[k]));
      if (changed.length > 0) {
        const shown = changed.map((k) => `${k}: ${JSON.stringify(options[k]) ?? 'unset'} now, ${JSON.stringify(recorded![k]) ?? 'unset'} in the state`).join('; ');
        throw new UsageError(`The resume state ${path} was made with other options (${shown}); run with the same options, or add --resume-force to go on anyway`);
      }
    }
    const kept = setup.filesPerDocument ? keepFinished(entries, setup.retry) : keepUntilRetry(entries, setup.retry);
    this.retried = new Set(entries.map((e) => e.id)).size - kept.length;
    for (const entry of kept) {
      this.done.add(entry.id);
      this.end = entry.end;
    }
    // Written whole, then renamed: a kill now leaves the old state or the new one, never half.
    const lines = [{ options }, ...kept].map((e) => JSON.stringify(e) + '\n').join('');
    try {
      writeFileSync(`${path}.tmp`, lines);
      renameSync(`${path}.tmp`, path);
    } catch (error) {
      throw new UsageError(`Cannot write the resume state ${path}: ${(error as Error).message}`);
    }
  }

  /** Records a document whose output has been written in full. */
  add(id: string, end: number, code: string): void {
    this.done.add(id);
    this.end = end;
    appendFileSync(this.path, JSON.stringify({ id, end, code }) + '\n');
  }
}

/** With a file per document: every document but those to redo (the last entry of an id counts). */
function keepFinished(entries: readonly Entry[], retry: (code: string) => boolean): Entry[] {
  const last = new Map<string, Entry>();
  for (const entry of entries) last.set(entry.id, entry);
  return [...last.values()].filter((e) => !retry(e.code));
}

/** On one output stream: the documents before the first one to redo. */
function keepUntilRetry(entries: readonly Entry[], retry: (code: string) => boolean): Entry[] {
  const first = entries.findIndex((e) => retry(e.code));
  return first === -1 ? [...entries] : entries.slice(0, first);
}

/** Cuts stdout back to the end of the last finished document, when it is a file. */
export function rewindOutput(end: number): void {
  let size: number;
  try {
    const info = fstatSync(1);
    if (!info.isFile()) return;
    size = info.size;
  } catch {
    return;
  }
  if (size > end) ftruncateSync(1, end);
  else if (size < end) {
    process.stderr.write(`pdfpipe: the output file is shorter (${size} bytes) than the resume state says (${end}); append to it with >> to resume\n`);
  }
}
