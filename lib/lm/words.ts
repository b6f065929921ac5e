/** Words as the language models see them. */

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
