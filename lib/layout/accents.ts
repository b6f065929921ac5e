/**
 * Accents drawn apart: spacing accents that some generators (groff, old TeX) draw as separate
 * glyphs over a letter, put back onto that letter as combining marks.
 */
import type { Item } from '../protocol/records.js';
import { right } from './geometry.js';

/** Spacing accents that some generators (groff, old TeX) draw as separate glyphs over a letter. */
const COMBINING: Record<string, string> = {
  '\u02d9': '\u0307', '\u00b8': '\u0327', '\u02db': '\u0328', '\u00b4': '\u0301', '`': '\u0300', '\u02c6': '\u0302',
  '^': '\u0302', '\u02dc': '\u0303', '~': '\u0303', '\u00a8': '\u0308', '\u02d8': '\u0306', '\u02c7': '\u030c',
  '\u02da': '\u030a', '\u02dd': '\u030b', '\u00af': '\u0304',
};

/*
 * Where an accent drawn apart may stand against its letter, relative to the letter's font size:
 *
 *        ´          ← over a capital, raised up to ACCENT_RISE em above the letter's baseline
 *   ┌────┼────┐
 *   │    É    │     the accent's centre within the letter's run (horizontally)
 *   └────¸────┘     ← a cedilla or ogonek hangs from (at most ACCENT_DROP em below) the baseline
 */
/** An accent's baseline may lie this far (× font size) above its letter's: raised over a capital. */
const ACCENT_RISE = 0.6;
/** An accent's baseline may lie this far (× font size) below its letter's. */
const ACCENT_DROP = 0.3;
/** Marks drawn below the letter: a dotless ı or ȷ keeps its form under them. */
const BELOW = new Set(['\u0327', '\u0328']);
/** The dotted letters of the dotless ı and ȷ, which an accent over them stands for. */
const DOTTED: Record<string, string> = { '\u0131': 'i', '\u0237': 'j' };

/**
 * Puts a separately drawn accent onto the letter it sits over or under: "I" + "˙" → "İ",
 * "s" + "¸" → "ş", "´" + "e" → "é" (TeX draws the accent first), "ı" + "¨" → "ï". The letter
 * is found by the accent's centre within a run whose baseline lies at most ACCENT_RISE em below
 * the accent's (ACCENT_DROP em above it), the nearest such run, assuming even glyph widths in that
 * run. The items may be a row or a whole block (an accent raised over a capital may stand in a row
 * of its own). Accents that sit over no run stay as they are.
 */
export function attachAccents(items: readonly Item[]): Item[] {
  // Most rows are plain ASCII with no spacing accent: nothing to attach or normalise.
  if (items.every((item) => isPlain(item.text))) return [...items];
  const out: Item[] = [];
  // A run is copied only when its text changes (the page's runs pass on to later stages as they
  // are); `copies` are the runs made here, which may be changed again below.
  const copies = new Set<Item>();
  const copy = (item: Item): Item => {
    const made = { ...item };
    copies.add(made);
    return made;
  };
  for (const item of items) {
    // Plain runs have nothing to combine or normalise, and cannot start with an accent.
    if (isPlain(item.text)) {
      out.push(item);
      continue;
    }
    // Inside a run the accent follows its letter; combine it there.
    const text = item.text.replace(ACCENT_AFTER_LETTER, (_m, letter: string, accent: string) => letter + COMBINING[accent]).normalize('NFC');
    const first = [...text][0] ?? '';
    // A run that starts with an accent drawn back over the previous run's letter: split it off.
    if (text.length > 1 && COMBINING[first] !== undefined && items.some((o) => o !== item && o.x <= item.x + 0.5 && right(o) > item.x + 0.5 && sitsOver(item, o))) {
      const glyph = item.w / [...text].length;
      out.push(Object.assign(copy(item), { text: first, w: glyph }));
      out.push(Object.assign(copy(item), { text: text.slice(first.length), x: item.x + glyph, w: item.w - glyph }));
    } else if (text === item.text) {
      out.push(item);
    } else {
      out.push(Object.assign(copy(item), { text }));
    }
  }
  const accents = out.filter(isAccent);
  const removed = new Set<Item>();
  for (const accent of accents) {
    const centre = accent.x + accent.w / 2;
    let found = -1;
    out.forEach((o, i) => {
      if (o === accent || removed.has(o) || accents.includes(o) || o.x > centre || right(o) < centre || o.text.trim() === '') return;
      if (!sitsOver(accent, o)) return;
      if (found < 0 || Math.abs(o.y - accent.y) < Math.abs(out[found]!.y - accent.y)) found = i;
    });
    if (found < 0) continue;
    const host = copies.has(out[found]!) ? out[found]! : (out[found] = copy(out[found]!));
    const chars = [...host.text];
    const index = Math.min(chars.length - 1, Math.max(0, Math.floor(((centre - host.x) / Math.max(host.w, 0.01)) * chars.length)));
    const mark = COMBINING[accent.text.trim()]!;
    const letter = chars[index]!;
    if (DOTTED[letter] !== undefined && !BELOW.has(mark)) chars[index] = DOTTED[letter]!;
    chars.splice(index + 1, 0, mark);
    host.text = chars.join('').normalize('NFC');
    removed.add(accent);
  }
  return settleMarks(out.filter((item) => !removed.has(item)));
}

/** A run of combining marks alone: a sukun, a dagesh or a vowel point drawn as a glyph of its own. */
const MARKS_ONLY = /^\s*[\p{Mn}\p{Me}]+\s*$/u;

/**
 * Gives each run of combining marks alone the baseline of the letter run it stands over or under.
 * Some generators draw such a mark at its own raised or lowered baseline; it would otherwise stand
 * as a row, or a block, of its own. The mark keeps its text and place: the script's own code puts
 * it into its letter (lib/scripts/rtl.ts on right-to-left lines).
 *
 *        ْ       ← baseline raised by the mark's offset: takes the baseline of the run below it
 *   ┌────┼────┐
 *   │   الْ   │
 *   └─────────┘
 */
function settleMarks(items: Item[]): Item[] {
  if (!items.some((item) => MARKS_ONLY.test(item.text))) return items;
  return items.map((mark) => {
    if (!MARKS_ONLY.test(mark.text)) return mark;
    const centre = mark.x + mark.w / 2;
    let host: Item | undefined;
    for (const o of items) {
      if (o === mark || MARKS_ONLY.test(o.text) || o.text.trim() === '' || o.x > centre || right(o) < centre || !sitsOver(mark, o)) continue;
      if (!host || Math.abs(o.y - mark.y) < Math.abs(host.y - mark.y)) host = o;
    }
    return host && host.y !== mark.y ? { ...mark, y: host.y } : mark;
  });
}

/** Whether an accent's baseline lies where it may belong to a letter of `host` (ACCENT_RISE, ACCENT_DROP). */
/**
 * A run that is one spacing accent alone (spaces around it aside). The length is tested first: a
 * lookup by a run's whole text would make the engine hash every run of a non-ASCII page.
 */
function isAccent(item: Item): boolean {
  const text = item.text.length > 1 ? item.text.trim() : item.text;
  return text.length === 1 && Object.hasOwn(COMBINING, text);
}

function sitsOver(accent: Item, host: Item): boolean {
  const rise = host.y - accent.y;
  return rise <= ACCENT_RISE * host.size && -rise <= ACCENT_DROP * host.size;
}

/**
 * ASCII text without any of the spacing accents above (`, ^ and ~ are its ASCII ones, the ASCII
 * keys of COMBINING). A code unit at a time: asked of every run, where a regular expression costs
 * more than the test.
 */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === 0x60 || code === 0x5e || code === 0x7e) return false;
  }
  return true;
}

const ACCENT_AFTER_LETTER = new RegExp(`(\\p{L})([${Object.keys(COMBINING).filter((c) => c !== '^' && c !== '~' && c !== '`').join('')}])`, 'gu');
