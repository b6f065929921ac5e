/**
 * Checks made once, in the main thread, before a run reads any document: that the files and
 * folders the options name for output can be written. A path that cannot is a usage error
 * (exit 2) with the reason, not a stack trace halfway through the run, and not a run that
 * parses every document and then loses the result.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../protocol/options.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  ENOSPC: 'no space left',
};

const reason = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${REASONS[code] ?? code}` : (error as Error).message;
};

/**
 * Creates `dir` and its missing parents one level at a time, and checks that a file can be made
 * in it. (Node's recursive mkdir loops forever on some paths, such as one below /proc.)
 */
export function prepareOutputFolder(dir: string, option: string): void {
  const missing: string[] = [];
  for (let path = resolve(dir); ; path = dirname(path)) {
    let exists = false;
    try {
      exists = statSync(path).isDirectory() || fail(`--${option} ${dir}: ${path} is not a folder`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--${option} ${dir}: cannot use ${path} (${reason(error)})`);
    }
    if (exists || dirname(path) === path) break;
    missing.unshift(path);
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`--${option} ${dir}: cannot create ${path} (${reason(error)})`);
    }
  }
  const probe = join(dir, `.pdfpipe-${process.pid}.probe`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (error) {
    throw new UsageError(`--${option} ${dir}: cannot write in this folder (${reason(error)})`);
  }
}

/** Checks that `path` can be opened for writing (a file the run appends to or replaces); leaves no new file. */
export function checkWritableFile(path: string, option: string): void {
  let existed = true;
  try {
    statSync(path);
  } catch {
    existed = false;
  }
  try {
    closeSync(openSync(path, 'a'));
    if (!existed) unlinkSync(path);
  } catch (error) {
    throw new UsageError(`--${option} ${path}: cannot write this file (${reason(error)})`);
  }
}

function fail(message: string): never {
  throw new UsageError(message);
}
