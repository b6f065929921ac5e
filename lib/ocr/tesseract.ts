/**
 * Tesseract as a child process: one process per page, the page image on its stdin (a PNM, which
 * Leptonica reads from memory, so no temporary file), its TSV of words on stdout. A process that
 * outlives the page's time limit is killed. A missing program is `OcrUnavailable`, which the engine
 * reports once per document; anything else that goes wrong with a page is `OcrFailed`.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Tesseract cannot be run at all (not installed, not at the path given). */
export class OcrUnavailable extends Error {}
/** Tesseract ran but gave no usable answer for one page (a hang, a crash, a missing language). */
export class OcrFailed extends Error {}

/** The environment variable that names the Tesseract program, when no option does. */
export const TESSERACT_ENV = 'PDFPIPE_TESSERACT';

/** Finds Tesseract: the path given, else $PDFPIPE_TESSERACT, else `tesseract` on PATH; null when none runs. */
export function findTesseract(configured = '', env: NodeJS.ProcessEnv = process.env): string | null {
  const explicit = configured || env[TESSERACT_ENV] || '';
  const candidates = explicit ? [explicit] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'tesseract'));
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

/** How one page is read. */
export interface TesseractRun {
  /** The program (from findTesseract). */
  binary: string;
  /** Tesseract's language codes, `+`-joined (`eng`, `deu+fra`). */
  lang: string;
  /** The resolution the image was rendered at, which Tesseract uses for its size estimates. */
  dpi: number;
  /** A page slower than this (ms) counts as a hang: the process is killed. */
  timeoutMs: number;
}

/** The most of Tesseract's complaints kept for a message. */
const STDERR_KEPT = 2000;

/** Runs Tesseract over one page image (PNM bytes) and resolves to its TSV output followed by its plain text. */
export function recognize(image: Uint8Array, run: TesseractRun): Promise<string> {
  return runTesseract(['stdin', 'stdout', '-l', run.lang, '--psm', '3', '--dpi', String(run.dpi), 'tsv', 'txt'], image, run);
}

/**
 * The script Tesseract's orientation and script detection (`--psm 0`, the `osd` data) sees on a
 * page image ("Latin", "Cyrillic", "Arabic", "Han", "Devanagari"…), or null when it cannot say.
 */
export async function detectScript(image: Uint8Array, run: Omit<TesseractRun, 'lang'>): Promise<string | null> {
  const answer = await runTesseract(['stdin', 'stdout', '--psm', '0', '--dpi', String(run.dpi)], image, run);
  return /^Script: (\S+)/mu.exec(answer)?.[1] ?? null;
}

/**
 * Runs Tesseract with `args` over an image on its stdin and resolves to its stdout. OpenMP is held
 * to one thread: documents already run in parallel, one per worker, and Tesseract's own threads
 * only wait for each other on a busy machine (three times the wall time of one thread here).
 */
function runTesseract(args: string[], image: Uint8Array, run: Omit<TesseractRun, 'lang'>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.binary, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    const out: Buffer[] = [];
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null, value = ''): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(value);
    };
    const timer = setTimeout(() => finish(new OcrFailed(`Tesseract gave no answer within ${run.timeoutMs} ms`)), run.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    child.stdin.on('error', () => {
      // EPIPE when the process died early: 'exit' reports it.
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(error.code === 'ENOENT' || error.code === 'EACCES' ? new OcrUnavailable(`Tesseract cannot be run at ${run.binary}`) : new OcrFailed(`Tesseract failed: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish(null, Buffer.concat(out).toString('utf8'));
      else {
        const why = stderr.trim().split('\n').slice(-2).join(' ');
        finish(new OcrFailed(`Tesseract exited (${signal ?? `code ${code}`})${why ? `: ${why}` : ''}`));
      }
    });
    child.stdin.end(image);
  });
}
