/**
 * The Cyrillic letters each language writes, to rule out a language that franc's trigrams prefer
 * although the text uses letters its alphabet does not have. franc's profiles of the Cyrillic
 * languages share most of their trigrams, and on a paragraph or two it may rank Macedonian or
 * Bulgarian first for Russian:
 *
 *     Летом мы просыпались рано, …   franc: mk 1.000, sr 0.989, bg 0.945, ru 0.878
 *                                     ы ь ю й are 6 % of its letters: no Macedonian or Serbian
 *                                     writes them, no Bulgarian writes ы
 *
 * The alphabets are the languages' standard orthographies (lower case). A language is ruled out
 * only where its alphabet is listed here and it lacks recurring letters (`FOREIGN_LETTER_SHARE`,
 * at least `MIN_FOREIGN_LETTERS`) that the best-fitting listed alphabet writes: a quoted name from
 * another language leaves it in, and so do letters that no listed language would write.
 */

const RUSSIAN = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';

/** franc code (ISO 639-3) → the Cyrillic letters its orthography writes. */
const CYRILLIC_ALPHABETS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    rus: RUSSIAN,
    ukr: 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя',
    bel: 'абвгґдеёжзійклмнопрстуўфхцчшыьэюя',
    bul: 'абвгдежзийѝклмнопрстуфхцчшщъьюя',
    mkd: 'абвгдѓеѐжзѕиѝјклљмнњопрстќуфхцчџш',
    srp: 'абвгдђеѐжзиѝјклљмнњопрстћуфхцчџш',
    bos: 'абвгдђежзијклљмнњопрстћуфхцчџш',
    kaz: `${RUSSIAN}әғқңөұүһі`,
    khk: `${RUSSIAN}өү`,
  }).map(([code, letters]) => [code, new Set(letters)]),
);

/** True when the alphabet of `code` (a franc code) is listed here. */
export const hasAlphabet = (code: string): boolean => CYRILLIC_ALPHABETS.has(code);

/** A language is ruled out when letters its alphabet lacks are at least this share of the text's Cyrillic letters… */
const FOREIGN_LETTER_SHARE = 0.01;
/** …and at least this many. */
const MIN_FOREIGN_LETTERS = 2;

const CYRILLIC_LETTER = /(?=\p{Script=Cyrillic})\p{L}/u;

/**
 * The languages among `candidates` (franc codes; empty: all) whose Cyrillic alphabet lacks letters
 * that recur in `text` and that another candidate's alphabet has: they cannot be its language.
 * Empty for a text without Cyrillic letters.
 */
export function foreignAlphabets(text: string, candidates: readonly string[]): Set<string> {
  const ruledOut = new Set<string>();
  const listed = candidates.length === 0 ? [...CYRILLIC_ALPHABETS.keys()] : candidates.filter((code) => CYRILLIC_ALPHABETS.has(code));
  if (listed.length === 0) return ruledOut;
  const letters = new Map<string, number>();
  let total = 0;
  for (const char of text.toLowerCase()) {
    if (char.charCodeAt(0) < 0x400 || !CYRILLIC_LETTER.test(char)) continue;
    letters.set(char, (letters.get(char) ?? 0) + 1);
    total += 1;
  }
  if (total === 0) return ruledOut;
  const foreign = listed.map((code) => {
    const alphabet = CYRILLIC_ALPHABETS.get(code)!;
    let count = 0;
    for (const [letter, n] of letters) if (!alphabet.has(letter)) count += n;
    return count;
  });
  // Counted against the alphabet that fits best: letters no listed language writes (quotation
  // marks mapped to "ѕ" and "ї" by a broken font) rule out none.
  const fewest = Math.min(...foreign);
  listed.forEach((code, i) => {
    const excess = foreign[i]! - fewest;
    if (excess >= MIN_FOREIGN_LETTERS && excess >= FOREIGN_LETTER_SHARE * total) ruledOut.add(code);
  });
  return ruledOut;
}
