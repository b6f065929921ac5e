/**
 * Which of Tesseract's languages reads a page. Asked for (`--ocr-lang`), that is the answer.
 * Otherwise the document says it: its `/Lang`, when that language is written in the script of the
 * page's own letters (a destroyed text layer still shows its script: most of its letters are
 * right); else the language Tesseract reads that script with; a page without letters (a scan)
 * takes the script of the document's pages read before it, then `/Lang`, then the script
 * Tesseract's own script detection sees on the image (`osd`, once per document), then English.
 * A script's language is a guess (German read as English loses its umlauts): the first page read
 * so is identified (franc), and when that is another language Tesseract has data for, in the same
 * script, the page is read again in it, and so are the document's next pages (`identifiedLanguage`);
 * a first reading Tesseract was unsure of is read in the script's other installed languages, and
 * the surest kept (`rereadLanguages`). A language Tesseract has no data for falls back to English,
 * and the answer says so.
 */
import { execFileSync } from 'node:child_process';
import { standardIso6393, toIso6391 } from '../lang/codes.js';
import { francCode } from '../lang/identify.js';
import { letterCount, type ScriptClass } from '../lang/scripts.js';
import { detectScript, type TesseractRun } from './tesseract.js';

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
  return standardIso6393(primary);
}

/** What a page's language is chosen from. */
export interface LanguageEvidence {
  /** `--ocr-lang`; 'auto' lets the document choose. */
  configured: string;
  /** The document's `/Lang`, or null. */
  docLang: string | null;
  /** The script most letters of the page's text layer are in, or null when it has none. */
  pageScript: ScriptClass | null;
  /** The script most letters of the document's pages before this one are in (or that `osd` saw on one), or null. */
  documentScript: ScriptClass | null;
  /** Whether documentScript is what Tesseract's script detection saw. */
  detected?: boolean;
  /** The language identification found in the document's first page read by OCR, when Tesseract has data for it. */
  identified?: string;
}

/** A page's Tesseract languages and how they were chosen (for the `ocr` diagnostic). */
export function chooseLanguage(evidence: LanguageEvidence, installed: ReadonlySet<string>): { lang: string; how: string } {
  if (evidence.configured !== 'auto') return { lang: evidence.configured, how: '--ocr-lang' };
  const fromTag = evidence.docLang ? tesseractLanguage(evidence.docLang) : null;
  const script = evidence.pageScript ?? evidence.documentScript;
  const scriptOfTag = fromTag ? (LANGUAGE_SCRIPT[fromTag] ?? 'Latin') : null;
  let chosen: { lang: string; how: string };
  const identifiedScript = evidence.identified ? (LANGUAGE_SCRIPT[evidence.identified] ?? 'Latin') : null;
  if (evidence.identified && (!fromTag || scriptOfTag !== script) && (!script || identifiedScript === script)) chosen = { lang: evidence.identified, how: "the language of the document's first page read by OCR" };
  else if (fromTag && (!script || scriptOfTag === script || (scriptOfTag === 'Kana' && script === 'Han'))) chosen = { lang: fromTag, how: `the document's /Lang ${evidence.docLang}` };
  else if (script && SCRIPT_LANGUAGE[script]) {
    chosen = { lang: SCRIPT_LANGUAGE[script]!, how: `the ${script} script of ${evidence.pageScript ? "the page's text layer" : evidence.detected ? 'the image (osd)' : "the document's other pages"}` };
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

/** Tesseract's script names (osd) as script classes. */
const OSD_SCRIPTS: Record<string, ScriptClass> = {
  Latin: 'Latin', Cyrillic: 'Cyrillic', Greek: 'Greek', Arabic: 'Arabic', Hebrew: 'Hebrew', Han: 'Han', HanS: 'Han', HanT: 'Han',
  Japanese: 'Kana', Katakana: 'Kana', Hiragana: 'Kana', Hangul: 'Hangul', Korean: 'Hangul', Thai: 'Thai', Devanagari: 'Devanagari',
};

/**
 * A page's language as chooseLanguage gives it, asking Tesseract's script detection first when
 * nothing else names one and `osd` is installed; `evidence.documentScript` and `detected` keep
 * what it saw for the document's next pages.
 */
export async function pageLanguage(evidence: LanguageEvidence, image: Uint8Array, run: Omit<TesseractRun, 'lang'>): Promise<{ lang: string; how: string }> {
  const installed = installedLanguages(run.binary);
  const nothing = evidence.configured === 'auto' && !evidence.docLang && !evidence.pageScript && !evidence.documentScript;
  if (nothing && installed.has('osd')) {
    const seen = await detectScript(image, run).catch(() => null);
    if (seen && OSD_SCRIPTS[seen]) {
      evidence.documentScript = OSD_SCRIPTS[seen]!;
      evidence.detected = true;
    }
  }
  return chooseLanguage(evidence, installed);
}

/**
 * The language to read a page again in, from the text OCR gave when the language was chosen by its
 * script alone, once per document: the language franc identifies, when Tesseract has data for it
 * and it writes the same script; null when the first reading stands. `evidence.identified` keeps it.
 */
export function identifiedLanguage(evidence: LanguageEvidence, chosen: { lang: string; how: string }, text: string, installed: ReadonlySet<string>): string | null {
  if (evidence.identified !== undefined || !/ script of /u.test(chosen.how)) return null;
  const code = francCode(text);
  const lang = code === 'und' ? null : tesseractLanguage(toIso6391(code));
  const sameScript = lang !== null && (LANGUAGE_SCRIPT[lang] ?? 'Latin') === (LANGUAGE_SCRIPT[chosen.lang] ?? 'Latin');
  evidence.identified = sameScript && installed.has(lang) ? lang : chosen.lang;
  return evidence.identified === chosen.lang ? null : evidence.identified;
}

/**
 * A first reading's mean confidence (0–1, `meanConfidence`) under which Tesseract was unsure of
 * it. Scans read in their own language measure 0.9–1.0 (bench/corpus/scans: Arabic, German,
 * English, Hindi); Urdu set in Nastaliq read with `ara`, which lacks the letters Urdu adds, 0.49
 * (with `urd` 0.54, `fas` 0.42); a script read with a language of another script, 0.1–0.3.
 */
export const UNSURE_READING = 0.8;
/** At most this many more languages of a script are tried on an unsure first reading. */
export const MAX_SIBLINGS = 3;
/**
 * A first reading of fewer letters says nothing of its language, nor does Tesseract's confidence
 * in it (an empty reading has none): about a line of text.
 */
export const MIN_READING_LETTERS = 20;
/**
 * How much surer of it Tesseract must be for a reading in another language of the script to
 * replace the first: between two readings of a poor scan in close languages, a few hundredths
 * tell nothing, and the letters they differ in (ي and ی, и and і) would change on that chance.
 * Urdu in Nastaliq: `urd` 0.54 against `ara` 0.49.
 */
export const SIBLING_MARGIN = 0.03;

/** The languages to read a first page again in: the one identified in its text, then the script's others. */
export interface Rereads {
  identified: string | null;
  siblings: string[];
}

/**
 * The languages to read the document's first page read by OCR again in, once per document, when
 * its language was chosen by its script alone: the language franc identifies in the first
 * reading (`identifiedLanguage`); and, when Tesseract was unsure of that reading (UNSURE_READING)
 * and it holds MIN_READING_LETTERS letters, the other installed languages of the script, since a
 * script's usual language lacks letters its other languages add, and a reading without them
 * identifies as the usual one (Urdu read with `ara` is identified as Arabic). The caller keeps the
 * surest reading (a sibling only by SIBLING_MARGIN).
 */
export function rereadLanguages(evidence: LanguageEvidence, chosen: { lang: string; how: string }, text: string, confidence: number, installed: ReadonlySet<string>): Rereads {
  if (evidence.identified !== undefined) return { identified: null, siblings: [] };
  const identified = identifiedLanguage(evidence, chosen, text, installed);
  const script = LANGUAGE_SCRIPT[chosen.lang];
  if (!script || !/ script of /u.test(chosen.how) || confidence >= UNSURE_READING || letterCount(text) < MIN_READING_LETTERS) return { identified, siblings: [] };
  const siblings = Object.keys(LANGUAGE_SCRIPT).filter((lang) => lang !== chosen.lang && lang !== identified && LANGUAGE_SCRIPT[lang] === script && installed.has(lang));
  return { identified, siblings: siblings.slice(0, MAX_SIBLINGS) };
}
