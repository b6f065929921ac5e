/** Opening a language model file by what it holds: ARPA text in-process, anything else through KenLM. */
import { closeSync, openSync, readSync } from 'node:fs';
import { ArpaModel } from './arpa.js';
import { KenlmQuery, type KenlmOptions } from './kenlm.js';
import { ModelError, type LanguageModel } from './model.js';

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
