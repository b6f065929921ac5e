/**
 * Keywords are TF-IDF over the document's paragraphs: words from `Intl.Segmenter` (so Chinese,
 * Japanese and Thai are cut into words too), lower-cased, stop-words of the paragraph's language
 * removed, scored by frequency in the paragraph × log(paragraphs / paragraphs with the word).
 */
import { stopWords } from '../lang/stopwords.js';

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(lang: string | null): Intl.Segmenter {
  const key = lang ?? '';
  let found = segmenters.get(key);
  if (!found) {
    try {
      found = new Intl.Segmenter(lang ?? undefined, { granularity: 'word' });
    } catch {
      found = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    segmenters.set(key, found);
  }
  return found;
}

/** The words of a text (Intl.Segmenter's word-like segments), lower-cased, without stop-words or numbers. */
export function keywordTerms(text: string, tag: string | null): string[] {
  const lang = validLang(tag);
  const stop = stopWords(lang);
  const out: string[] = [];
  for (const segment of segmenter(lang).segment(text)) {
    if (!segment.isWordLike) continue;
    const word = segment.segment.toLocaleLowerCase(lang ?? undefined);
    if (!/\p{L}/u.test(word) || stop.has(word)) continue;
    // One Latin, Cyrillic or Greek letter is no keyword; one ideograph may be.
    if ([...word].length < 2 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(word)) continue;
    out.push(word);
  }
  return out;
}

/** TF-IDF keywords of each text against the others (pure): at most `limit` per text, best first. */
export function tfidfKeywords(texts: readonly { text: string; lang: string | null }[], limit: number): string[][] {
  const terms = texts.map(({ text, lang }) => keywordTerms(text, lang));
  const df = new Map<string, number>();
  for (const list of terms) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = texts.length;
  return terms.map((list) => {
    if (list.length === 0 || limit <= 0) return [];
    const tf = new Map<string, number>();
    for (const term of list) tf.set(term, (tf.get(term) ?? 0) + 1);
    const scored = [...tf].map(([term, count], order) => ({ term, order, score: (count / list.length) * Math.log(n / (df.get(term) ?? 1)) }));
    return scored
      .filter((s) => s.score > 0)
      // Equal scores (words seen once, in one paragraph): the longer word says more.
      .sort((a, b) => b.score - a.score || [...b.term].length - [...a.term].length || a.order - b.order)
      .slice(0, limit)
      .map((s) => s.term);
  });
}

/** A language tag as given when it is well-formed BCP 47, else null (a PDF's /Lang can hold anything). */
export function validLang(tag: unknown): string | null {
  if (typeof tag !== 'string' || tag === '' || tag === 'und') return null;
  try {
    return Intl.getCanonicalLocales(tag).length === 1 ? tag : null;
  } catch {
    return null;
  }
}
