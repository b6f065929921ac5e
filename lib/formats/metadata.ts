/**
 * Metadata from the document's dictionaries (the Info dictionary, the XMP packet) and the patterns
 * that read front matter: whether a title is believable, e-mail addresses, affiliations, the
 * abstract and keywords labels, author lines. The Info dictionary's title is used when it is
 * plausible: not empty, not the file name, not "Microsoft Word - x.docx".
 */
import { collapse, comparable, letters, words } from './words.js';

/** Metadata as found in one source. */
export interface MetaSource {
  title: string | null;
  authors: string[];
  affiliations: string[];
  emails: string[];
  keywords: string[];
  abstract: string | null;
}

const JUNK_TITLE = [
  /^(microsoft\s+(word|powerpoint|excel)|writer|untitled|document|doc|title|slide|presentation|print|unknown|none|null)\b[\s\d-]*$/i,
  /^microsoft\s+\w+\s+-/i,
  /\.(docx?|pdf|tex|dvi|ps|eps|odt|rtf|txt|indd|qxd|html?|xlsx?|pptx?)$/i,
  /^[\w.-]+\.\w{2,4}$/,
  /^[\w-]*\d[\w-]*$/,
];

/** Why an Info title is not believable, or null when it is. */
export function implausibleTitle(title: string, id: string): string | null {
  const text = collapse(title);
  if (text === '') return 'it is empty';
  if (letters(text) < 3) return 'it has fewer than three letters';
  if (/[\uFFFD\u0000-\u0008\u000E-\u001F]/u.test(text)) return 'it holds replacement or control characters';
  const base = id.split('/').pop() ?? id;
  if (comparable(text) === comparable(base)) return 'it is the file name';
  for (const pattern of JUNK_TITLE) if (pattern.test(text)) return 'it looks like a file or program name';
  return null;
}

/** An e-mail address. */
export const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
/** Words that name an institution or an address: an affiliation line. */
export const AFFILIATION =
  /universit|institut|department|dipartiment|departament|départ|dept\b|laborator|college|school|centre|center|academy|acad[eé]m|facult|division|observator|hospital|gmbh|\binc\b|corporation|\bvia\b|street|\broad\b|avenue|\bcnrs\b|\binfn\b|\bp\.\s?o\.\s?box|fakult|universidad|universit[àé]|politecnico|research|collaboration/iu;
/** The abstract's label at the start of a block ("Abstract", "Résumé") and the punctuation after it. */
export const ABSTRACT = /^\s*(abstract|summary|r[ée]sum[ée]|zusammenfassung|аннотация|resumen)\b[\s.:—–-]*/iu;
/** The keywords' label at the start of a block ("Keywords:", "Index Terms—"). */
export const KEYWORDS = /^\s*(key\s*-?\s*words(?:\s+and\s+phrases)?|index\s+terms|mots[- ]cl[ée]s|schlagw[öo]rter)\s*[:.—–-]\s*/iu;

/** Splits an author line into names: commas, "and", "&", footnote marks removed. */
export function splitAuthors(text: string): string[] {
  return collapse(
    text
      .replace(EMAIL, ' ')
      .replace(/[<([{]\s*[>)\]}]/gu, ' ')
      .replace(/[∗*†‡§¶#♯♭♮⋆]+/gu, ' ')
      .replace(/(?<=\p{L})\d+(,\d+)*/gu, ' ')
      .replace(/\(\s*dated:[^)]*\)/giu, ' '),
  )
    .split(/\s*(?:,|;|\band\b|&|\bund\b|\bet\b)\s*/u)
    .map((name) => name.trim().replace(/^[\d,\s]+|[\d,\s]+$/gu, ''))
    .filter((name) => letters(name) >= 2 && words(name).length <= 5);
}

/** Particles that stay lower-case inside names. */
const NAME_PARTICLES = new Set(['von', 'van', 'der', 'den', 'de', 'di', 'da', 'du', 'del', 'della', 'le', 'la', 'dos', 'das', 'bin', 'ibn', 'al', 'el', 'ter', 'zu']);

/** True when a line reads as a list of personal names: two words or more each, every word capitalised. */
export function looksLikeNames(text: string): boolean {
  const names = splitAuthors(text);
  if (names.length === 0) return false;
  const good = names.filter((name) => words(name).length >= 2 && words(name).every((w) => /^[\p{Lu}\p{Lt}]/u.test(w) || NAME_PARTICLES.has(w.toLowerCase())) && !/\d/u.test(name));
  return good.length >= names.length * 0.8;
}

/** The metadata fields of a dictionary-like source (the Info dictionary, the XMP packet). */
export interface Fields {
  title?: string | undefined;
  author?: string | undefined;
  keywords?: string | undefined;
  description?: string | undefined;
}

/** Metadata from a dictionary-like source, and why its title was not believed (null when it was). */
export function fieldSource(fields: Fields, id: string): { source: MetaSource; reason: string | null } {
  const text = (value: unknown): string => (typeof value === 'string' ? collapse(value) : '');
  const title = text(fields.title);
  const reason = implausibleTitle(title, id);
  const author = text(fields.author);
  const description = text(fields.description);
  return {
    source: {
      title: reason === null ? title : null,
      authors: author === '' ? [] : splitAuthors(author),
      affiliations: [],
      emails: author.match(EMAIL) ?? [],
      keywords: text(fields.keywords).split(/[;,]/).map(collapse).filter((k) => k !== ''),
      abstract: description.length > 80 ? description : null,
    },
    reason: title === '' ? 'it has no title' : reason,
  };
}
