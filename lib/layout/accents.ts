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

/**
 * Puts a separately drawn accent onto the letter it sits over or under: "I" + "˙" → "İ",
 * "s" + "¸" → "ş". The letter is found by the accent's centre within the run below it, assuming
 * even glyph widths in that run. Accents that sit over no run stay as they are.
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
    if (text.length > 1 && COMBINING[first] !== undefined && out.some((o) => o.x <= item.x + 0.5 && right(o) > item.x + 0.5)) {
      const glyph = item.w / [...text].length;
      out.push(Object.assign(copy(item), { text: first, w: glyph }));
      out.push(Object.assign(copy(item), { text: text.slice(first.length), x: item.x + glyph, w: item.w - glyph }));
    } else if (text === item.text) {
      out.push(item);
    } else {
      out.push(Object.assign(copy(item), { text }));
    }
  }
  const accents = out.filter((item) => COMBINING[item.text.trim()] !== undefined && item.text.trim().length === 1);
  const removed = new Set<Item>();
  for (const accent of accents) {
    const centre = accent.x + accent.w / 2;
    const found = out.findIndex((o) => o !== accent && !removed.has(o) && !accents.includes(o) && o.x <= centre && right(o) >= centre && o.text.trim() !== '');
    if (found < 0) continue;
    const host = copies.has(out[found]!) ? out[found]! : (out[found] = copy(out[found]!));
    const chars = [...host.text];
    const index = Math.min(chars.length - 1, Math.max(0, Math.floor(((centre - host.x) / Math.max(host.w, 0.01)) * chars.length)));
    chars.splice(index + 1, 0, COMBINING[accent.text.trim()]!);
    host.text = chars.join('').normalize('NFC');
    removed.add(accent);
  }
  return out.filter((item) => !removed.has(item));
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
