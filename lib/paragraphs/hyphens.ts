/**
 * Line-end hyphens: the document's own words (how often each is written, the parts of its
 * hyphenated compounds, whether it marks hyphenation breaks), the choice for a hyphen that ends a
 * line (join the word, keep the hyphen, or keep it before a space), and the joining of a
 * paragraph's lines with spaces (none inside CJK or Thai text).
 */
import type { InferredMark, Line, NoteRef } from '../protocol/records.js';
import { hangulJoin, hangulWords, type HangulWords } from './hangul.js';
import { codePoints } from '../lang/scripts.js';

/**
 * Thai writes a space after the repetition mark ๆ and around numbers ("เรื่อย ๆ ด้วย", "ประมาณ ๑๒
 * ชั่วโมง"): a line that ends or starts so keeps its space where Thai lines join.
 */
function thaiSpaced(left: string, right: string): boolean {
  const a = left.at(-1) ?? '';
  const b = right[0] ?? '';
  if (a === REPETITION_MARK) return true;
  return DIGIT.test(a) !== DIGIT.test(b) && (THAI.test(a) || THAI.test(b));
}
const DIGIT = /\p{Nd}/u;
const THAI = /\p{Script=Thai}/u;
/** Thai's mai yamok, ๆ. */
const REPETITION_MARK = '\u0e46';

/** Russian and Ukrainian particles always written after a hyphen, and no word's end. */
const HYPHEN_PARTICLE = /^(?:нибудь|небудь|либо)$/u;

/** A character of a script written without spaces (CJK, Thai): lines in it join without one. */
export const NO_SPACE_JOIN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303f\uff00-\uffef]/u;
const LINE_END_HYPHEN = /(\p{L})[-\u00ad\u2010]$/u;
const HANGUL_CHAR = /\p{Script=Hangul}/u;
const STARTS_UPPER = /^\p{Lu}/u;

/**
 * Words of the document, for deciding line-end hyphens: how often each is written (lowercased), the
 * parts of words written with a hyphen inside a line, and whether the document marks its own
 * hyphenation breaks with soft hyphens (then a plain hyphen at a line end is a real one).
 */
export class Vocabulary extends Set<string> {
  readonly counts = new Map<string, number>();
  /** First parts of hyphenated words ("non" of "non-political"), and last parts. */
  readonly hyphenLeft = new Set<string>();
  readonly hyphenRight = new Set<string>();
  /** Lines that end in a soft hyphen or U+2010 (hyphenation breaks the generator marked). */
  softBreaks = 0;
  /** The most frequent words, most frequent first. */
  common: string[] = [];
  /** The Korean words, for lines broken between two syllables (lib/paragraphs/hangul.ts). */
  hangul: HangulWords | null = null;

  count(word: string): number {
    return this.counts.get(word) ?? 0;
  }
}

/** Words of the document, for deciding line-end hyphens. */
export function vocabulary(lines: readonly Line[]): Vocabulary {
  const words = new Vocabulary();
  let broken = false;
  for (const line of lines) {
    if (/[\u00ad\u2010]$/u.test(line.text.trim())) words.softBreaks += 1;
    // The halves of a word broken at a line end are not words: they do not count.
    let text = line.text.toLowerCase();
    if (broken) text = text.replace(/^\s*[\p{L}\p{M}]+/u, '');
    // Both expressions below need a hyphen at the end (before any spaces); tried from every
    // letter of a line, they are slow, and most lines do not end in one.
    const hyphenAtEnd = endsInHyphen(text);
    broken = hyphenAtEnd && /\p{L} ?[-\u00ad\u2010]\s*$/u.test(text);
    if (hyphenAtEnd) text = text.replace(/[\p{L}\p{M}]+ ?[-\u00ad\u2010]\s*$/u, '');
    for (const w of text.replace(/\u00ad/g, '').split(/[^\p{L}\p{M}\-\u2010]+/u)) {
      if (!w) continue;
      const word = w.includes('\u2010') ? w.replace(/\u2010/g, '-') : w;
      const count = words.counts.get(word);
      if (count === undefined) words.add(word);
      words.counts.set(word, (count ?? 0) + 1);
      if (!word.includes('-')) continue;
      const parts = word.split('-').filter(Boolean);
      if (parts.length > 1) {
        words.hyphenLeft.add(parts[0]!);
        words.hyphenRight.add(parts[parts.length - 1]!);
      }
    }
  }
  words.common = [...words.counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([w]) => w);
  if (lines.some((line) => HANGUL_CHAR.test(line.text))) words.hangul = hangulWords(lines.map((line) => line.text));
  return words;
}

/** Letters of the scripts whose typesetting hyphenates words at line ends. */
const HYPHENATED_SCRIPT = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Georgian}]/u;
/** The shortest word (code points) read as said twice across a line-end hyphen: a lone letter repeated is no word. */
const REDUPLICATED_MIN = 2;

/** True when a text ends in a hyphen (- U+00AD U+2010), spaces after it aside. */
function endsInHyphen(text: string): boolean {
  const trimmed = text.trimEnd();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  return last === 0x2d || last === 0xad || last === 0x2010;
}

/**
 * What to do with a hyphen that ends a line before `right`: join the word ("exam-" + "ple"), keep
 * the hyphen ("well-" + "known", "Anglo-" + "Saxon"), or keep it and add a space (a suspended
 * compound: "Rede-" + "und Meinungsfreiheit"). `left` is the line's last word with its hyphen.
 */
export function hyphenChoice(left: string, right: string, words: ReadonlySet<string>): { choice: 'join' | 'keep' | 'space'; rule: string } {
  const hyphen = left.at(-1) ?? '-';
  const stem = left.slice(0, -1).toLowerCase().replace(/\u2010/g, '-');
  const lower = right.toLowerCase();
  const joined = stem + lower;
  const hyphenated = `${stem}-${lower}`;
  const vocab = words instanceof Vocabulary ? words : null;
  const count = (w: string): number => (vocab ? vocab.count(w) : words.has(w) ? 1 : 0);
  // In a document that marks hyphenation breaks (U+2010 or a soft hyphen at line ends), one is.
  if (hyphen !== '-' && vocab && vocab.softBreaks > 0) return { choice: 'join', rule: 'dehyphenate' };
  // The document's own spelling decides first.
  const hyph = count(hyphenated);
  const join = count(joined);
  if (hyph > join) return { choice: 'keep', rule: 'keep-hyphen' };
  if (join > 0) return { choice: 'join', rule: 'dehyphenate' };
  // A word said twice is a reduplication ("दूर-" + "दूर", "খুব-" + "খুব") in a script whose
  // typesetting hardly hyphenates. Latin, Greek, Cyrillic, Armenian and Georgian words are
  // hyphenated, some into two equal halves ("cher-" + "cher", "mur-" + "mur"), and their
  // reduplications ("anak-anak") cannot be told from those by the halves alone.
  if (codePoints(stem) >= REDUPLICATED_MIN && stem === lower && !HYPHENATED_SCRIPT.test(stem)) return { choice: 'keep', rule: 'keep-hyphen' };
  // A word that already has a hyphen mostly breaks at its hyphens ("non-self-" + "governing"),
  // unless what follows is a short ending the document does not use as a word ("co-opera-" + "tion").
  const last = stem.slice(stem.lastIndexOf('-') + 1);
  if (stem.includes('-') && (count(lower) > 0 || count(last) > 0 || lower.length >= 6)) return { choice: 'keep', rule: 'keep-hyphen' };
  // A capital after the hyphen continues a compound of names ("Anglo-" + "Saxon").
  if (STARTS_UPPER.test(right)) return { choice: 'keep', rule: 'keep-hyphen' };
  // Russian and Ukrainian particles always written after a hyphen, and no word's end ("что-" + "нибудь").
  if (HYPHEN_PARTICLE.test(lower)) return { choice: 'keep', rule: 'keep-hyphen' };
  if (!vocab) return { choice: 'join', rule: 'dehyphenate' };
  // Both halves are words of the document ("как-" + "либо").
  if (stem.length >= 3 && lower.length >= 3 && count(stem) >= 2 && count(lower) >= 2) return { choice: 'keep', rule: 'keep-hyphen' };
  // "Rede- und Meinungsfreiheit": the next word is one of the document's commonest short words.
  if (stem.length >= 3 && lower.length <= 4 && vocab.common.includes(lower)) return { choice: 'space', rule: 'suspended-hyphen' };
  // A document that marks its hyphenation breaks writes a plain hyphen only where the word has one.
  if (hyphen === '-' && vocab.softBreaks > 0) return { choice: 'keep', rule: 'keep-hyphen' };
  // The document writes compounds with these parts.
  if (vocab.hyphenLeft.has(stem) || vocab.hyphenRight.has(lower)) return { choice: 'keep', rule: 'keep-hyphen' };
  return { choice: 'join', rule: 'dehyphenate' };
}

/**
 * Joins a paragraph's lines. A line-end hyphen between letters is dropped ("exam-" + "ple"), kept
 * ("well-known", "Anglo-Saxon") or kept before a space ("Rede- und") as `hyphenChoice` decides; a
 * soft hyphen is always dropped. A space that the space estimation put before a line-end hyphen
 * (letter-spaced justified text: "schüt -") does not stop the word from being joined.
 */
export function joinLines(lines: readonly Line[], words: ReadonlySet<string>): { text: string; inferred: InferredMark[]; refs: NoteRef[] } {
  let text = '';
  const inferred: InferredMark[] = [];
  const refs: NoteRef[] = [];
  let softBreak = false;
  let hangulRule: string | null = null;
  for (const line of lines) {
    // Soft hyphens are invisible; one at the end of a line (Chromium follows it with U+2010)
    // marks a hyphenation break for certain.
    const raw = line.text.trim();
    const next = raw.replace(/\u00ad/g, '');
    if (text === '') {
      text = next;
    } else {
      // The paragraph so far ends in a hyphen: the tests below need one, and tried on all of a
      // long paragraph they are slow.
      const last = text.charCodeAt(text.length - 1);
      const endsHyphen = last === 0x2d || last === 0xad || last === 0x2010;
      // "schüt -": a space the space estimation put before a line-end hyphen is taken back.
      // Only when the document knows the joined word: "musiał -" + "doprowadzony" is a dash.
      if (endsHyphen && /\p{L} [-\u2010]$/u.test(text) && /^\p{Ll}/u.test(next)) {
        const mark = inferred.findIndex((m) => m.kind === 'space' && m.at === text.length - 2);
        const stem = /([\p{L}\p{M}]+) [-\u2010]$/u.exec(text)?.[1]?.toLowerCase() ?? '';
        const right = /^[\p{L}\p{M}]+/u.exec(next)?.[0]?.toLowerCase() ?? '';
        if (mark >= 0 && words.has(stem + right)) {
          inferred.splice(mark, 1);
          text = text.slice(0, -2) + text.slice(-1);
        }
      }
      // A letter (one or two code units) and the hyphen: the end of the text is enough.
      const hyphen = endsHyphen ? LINE_END_HYPHEN.exec(text.slice(-3)) : null;
      if (softBreak && /\p{L}/u.test(next[0] ?? '')) {
        if (/[-\u2010]$/u.test(text)) text = text.slice(0, -1);
        inferred.push({ at: text.length, kind: 'join', rule: 'dehyphenate' });
        text += next;
      } else if (hyphen && /^\p{L}/u.test(next)) {
        // The hyphenated word cannot reach back past a space: only the text after the last one is searched.
        const left = /[\p{L}\p{M}\-\u2010]+[-\u00ad\u2010]$/u.exec(text.slice(text.lastIndexOf(' ') + 1))?.[0] ?? '';
        const right = /^[\p{L}\p{M}]+/u.exec(next)?.[0] ?? '';
        const { choice, rule } = hyphenChoice(left, right, words);
        if (choice === 'join') text = text.slice(0, -1);
        else if (text.endsWith('\u2010')) text = text.slice(0, -1) + '-';
        inferred.push({ at: text.length, kind: choice === 'space' ? 'break' : 'join', rule });
        text += choice === 'space' ? ' ' + next : next;
      } else if (words instanceof Vocabulary && words.hangul && (HANGUL_CHAR.test(text.at(-1) ?? '') || HANGUL_CHAR.test(next[0] ?? '')) && (hangulRule = hangulJoin(text, next, words.hangul))) {
        // A Korean line broken between two syllables of a word, or between a number and its counter.
        inferred.push({ at: text.length, kind: 'join', rule: hangulRule });
        text += next;
      } else if (NO_SPACE_JOIN.test(text.at(-1) ?? '') && NO_SPACE_JOIN.test(next[0] ?? '') && !thaiSpaced(text, next)) {
        inferred.push({ at: text.length, kind: 'join', rule: 'no-space-script' });
        text += next;
      } else {
        inferred.push({ at: text.length, kind: 'break', rule: 'line-join' });
        text += ' ' + next;
      }
    }
    softBreak = /\u00ad[-\u2010]?$/u.test(raw);
    // Marks of the line keep their offsets relative to where the line's text landed.
    const start = text.length - next.length;
    for (const mark of line.inferred) if (mark.at <= next.length) inferred.push({ ...mark, at: start + mark.at });
    for (const ref of line.refs ?? []) refs.push({ ...ref, at: start + Math.min(ref.at, next.length) });
  }
  return { text, inferred, refs };
}
