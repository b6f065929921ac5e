/**
 * Sentence segmentation for aligners: ICU's sentence boundaries (`Intl.Segmenter`), then a break
 * after a known abbreviation ("Dr.", "z. B.", "p. ex.") or a single initial ("J. Smith") is undone.
 * ICU itself only knows a few abbreviations; these lists cover the common languages' usual ones.
 */

/** Abbreviations (without their final period, lower case) that do not end a sentence, by language. */
const ABBREVIATIONS: Record<string, readonly string[]> = {
  common: ['e.g', 'i.e', 'etc', 'vs', 'cf', 'no', 'nr', 'vol', 'fig', 'pp', 'p', 'ca', 'approx', 'st', 'art', 'para', 'ch', 'sec', 'ed', 'eds', 'jr', 'sr', 'mr', 'mrs', 'ms', 'dr', 'prof'],
  en: ['inc', 'ltd', 'co', 'corp', 'dept', 'est', 'gen', 'gov', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'u.s', 'u.k', 'a.m', 'p.m'],
  de: ['z.b', 'z. b', 'd.h', 'd. h', 'u.a', 'u. a', 'bzw', 'vgl', 'ggf', 'usw', 'abs', 'nr', 'hr', 'fr', 'str', 's', 'bspw', 'inkl', 'evtl', 'zzgl', 'gem'],
  fr: ['m', 'mm', 'mme', 'mlle', 'p. ex', 'p.ex', 'cf', 'env', 'chap', 'av', 'bd'],
  es: ['sr', 'sra', 'srta', 'ud', 'uds', 'p. ej', 'p.ej', 'pág', 'núm', 'av', 'avda', 'dña'],
  it: ['sig', 'sigg', 'dott', 'ecc', 'pag', 'es'],
  pt: ['sr', 'sra', 'dra', 'pág', 'av', 'ex'],
  nl: ['bijv', 'o.a', 'enz', 'blz', 'dhr', 'mevr'],
  pl: ['np', 'tzn', 'itd', 'itp', 'tj', 'ul', 'nr', 'godz', 'r', 'w', 'ok', 'wg'],
  ru: ['т.е', 'т. е', 'т.д', 'т. д', 'т.п', 'т. п', 'г', 'гг', 'стр', 'им', 'см', 'напр', 'ул'],
  tr: ['vb', 'vs', 'bkz', 'dr', 'prof', 'sn'],
};

function abbreviationSet(lang: string): Set<string> {
  return new Set([...(ABBREVIATIONS.common ?? []), ...(ABBREVIATIONS[lang] ?? [])]);
}

/** True when `before` (text up to and including a period) ends with an abbreviation or an initial. */
function endsWithAbbreviation(before: string, abbreviations: ReadonlySet<string>): boolean {
  const trimmed = before.trimEnd();
  if (!trimmed.endsWith('.')) return false;
  const body = trimmed.slice(0, -1);
  // A single letter: an initial ("J. Smith") or part of an abbreviation ("z. B.", "p. ex.").
  if (/(?:^|[\s(.])\p{L}$/u.test(body)) return true;
  for (const size of [3, 2, 1]) {
    const words = body.split(/\s+/u).slice(-size).join(' ').toLowerCase();
    const word = words.replace(/^[("'\u201c\u00ab]+/u, '');
    if (abbreviations.has(word)) return true;
  }
  return false;
}

/** The sentences of a text, trimmed, in order, for the language `lang` (ISO 639-1 or "und"). */
export function sentences(text: string, lang = 'und'): string[] {
  const locale = lang && lang !== 'und' ? lang : 'en';
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  } catch {
    segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
  }
  const abbreviations = abbreviationSet(lang);
  const out: string[] = [];
  let pending = '';
  for (const { segment } of segmenter.segment(text)) {
    pending += segment;
    if (endsWithAbbreviation(pending, abbreviations)) continue;
    const sentence = pending.trim();
    if (sentence) out.push(sentence);
    pending = '';
  }
  const rest = pending.trim();
  if (rest) out.push(rest);
  return out;
}

/** Offsets (UTF-16) where each sentence of `text` starts, matching `sentences(text, lang)`. */
export function sentenceStarts(text: string, lang = 'und'): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const sentence of sentences(text, lang)) {
    const index = text.indexOf(sentence, at);
    starts.push(index < 0 ? at : index);
    at = (index < 0 ? at : index) + sentence.length;
  }
  return starts;
}
