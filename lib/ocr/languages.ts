/**
 * Which of Tesseract's languages reads a page. Asked for (`--ocr-lang`), that is the answer.
 * Otherwise the document says it: its `/Lang`, when that language is written in the script of the
 * page's own letters (a destroyed text layer still shows its script: most of its letters are
 * right); else the language Tesseract reads that script with; a page without letters (a scan)
 * takes the script of the document's pages read before it, then `/Lang`, then English. A language
 * Tesseract has no data for falls back to English, and the answer says so.
 */
import { execFileSync } from 'node:child_process';
import { iso6393 } from 'iso-639-3';
import type { ScriptClass } from '../lang/scripts.js';

/** The language Tesseract reads a script with when nothing names one. */
const SCRIPT_LANGUAGE: Partial<Record<ScriptClass, string>> = {
  Latin: 'eng', Cyrillic: 'rus', Greek: 'ell', Arabic: 'ara', Hebrew: 'heb', Han: 'chi_sim', Kana: 'jpn',
  Hangul: 'kor', Thai: 'tha', Devanagari: 'hin',
};

/** The script a Tesseract language writes in, for the languages whose script is not Latin. */
const LANGUAGE_SCRIPT: Record<string, ScriptClass> = {
  rus: 'Cyrillic', ukr: 'Cyrillic', bel: 'Cyrillic', bul: 'Cyrillic', mkd: 'Cyrillic', srp: 'Cyrillic', kaz: 'Cyrillic', mon: 'Cyrillic',
  ell: 'Greek', ara: 'Arabic', fas: 'Arabic', urd: 'Arabic', pus: 'Arabic', heb: 'Hebrew', yid: 'Hebrew',
  chi_sim: 'Han', chi_tra: 'Han', jpn: 'Kana', kor: 'Hangul', tha: 'Thai', hin: 'Devanagari', mar: 'Devanagari', nep: 'Devanagari', san: 'Devanagari',
};

/** The Tesseract language of a BCP 47 tag (`de-DE` → deu, `zh-TW` → chi_tra), or null. */
export function tesseractLanguage(tag: string): string | null {
  const [primary = '', ...rest] = tag.toLowerCase().split(/[-_]/u);
  if (primary === 'zh') return rest.some((part) => part === 'tw' || part === 'hk' || part === 'hant') ? 'chi_tra' : 'chi_sim';
  if (/^[a-z]{3}$/u.test(primary)) return primary;
  return iso6393.find((entry) => entry.iso6391 === primary)?.iso6393 ?? null;
}

/** What a page's language is chosen from. */
export interface LanguageEvidence {
  /** `--ocr-lang`; 'auto' lets the document choose. */
  configured: string;
  /** The document's `/Lang`, or null. */
  docLang: string | null;
  /** The script most letters of the page's text layer are in, or null when it has none. */
  pageScript: ScriptClass | null;
  /** The script most letters of the document's pages before this one are in, or null. */
  documentScript: ScriptClass | null;
}

/** A page's Tesseract languages and how they were chosen (for the `ocr` diagnostic). */
export function chooseLanguage(evidence: LanguageEvidence, installed: ReadonlySet<string>): { lang: string; how: string } {
  if (evidence.configured !== 'auto') return { lang: evidence.configured, how: '--ocr-lang' };
  const fromTag = evidence.docLang ? tesseractLanguage(evidence.docLang) : null;
  const script = evidence.pageScript ?? evidence.documentScript;
  const scriptOfTag = fromTag ? (LANGUAGE_SCRIPT[fromTag] ?? 'Latin') : null;
  let chosen: { lang: string; how: string };
  if (fromTag && (!script || scriptOfTag === script || (scriptOfTag === 'Kana' && script === 'Han'))) chosen = { lang: fromTag, how: `the document's /Lang ${evidence.docLang}` };
  else if (script && SCRIPT_LANGUAGE[script]) {
    chosen = { lang: SCRIPT_LANGUAGE[script]!, how: `the ${script} script of ${evidence.pageScript ? "the page's text layer" : "the document's other pages"}` };
  } else chosen = { lang: 'eng', how: 'nothing names a language' };
  if (installed.size > 0 && !installed.has(chosen.lang)) return { lang: 'eng', how: `${chosen.how} names ${chosen.lang}, which Tesseract has no data for` };
  return chosen;
}

const INSTALLED = new Map<string, Set<string>>();

/** The languages a Tesseract program has data for (`--list-langs`), asked once per program; empty when it cannot say. */
export function installedLanguages(binary: string): ReadonlySet<string> {
  let languages = INSTALLED.get(binary);
  if (!languages) {
    try {
      const listed = execFileSync(binary, ['--list-langs'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
      languages = new Set(listed.split('\n').slice(1).map((line) => line.trim()).filter(Boolean));
    } catch {
      languages = new Set();
    }
    INSTALLED.set(binary, languages);
  }
  return languages;
}
