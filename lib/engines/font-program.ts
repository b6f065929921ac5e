/**
 * What the glyphs of a TrueType/OpenType font program mean, read from its own tables: the `cmap`
 * gives the characters of the glyphs it maps, and `GSUB` the rest — a glyph a single substitution
 * puts in place of another means what that one means (the vowel sign ि drawn in one of its widths),
 * and a ligature means its components in order (च्च). With `hmtx`, a program can be checked to be the
 * one a page's glyphs were drawn with (their advances). Pure
 * functions over the font's bytes; a table that is absent or malformed gives nothing, never throws.
 */

/** The tables of a font program by tag, or an empty map when the bytes are no sfnt. */
export function fontTables(bytes: Uint8Array): Map<string, DataView> {
  const tables = new Map<string, DataView>();
  if (bytes.length < 12) return tables;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(4);
  for (let i = 0; i < count && 12 + 16 * i + 16 <= bytes.length; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length <= bytes.length) tables.set(tag, new DataView(bytes.buffer, bytes.byteOffset + offset, length));
  }
  return tables;
}

/** Each glyph's advance width in font units (from `hhea` and `hmtx`), by glyph id. */
export function advanceWidths(tables: Map<string, DataView>): number[] {
  const hhea = tables.get('hhea');
  const hmtx = tables.get('hmtx');
  if (!hhea || !hmtx || hhea.byteLength < 36) return [];
  const metrics = hhea.getUint16(34);
  const widths: number[] = [];
  for (let g = 0; g < metrics && 4 * g + 2 <= hmtx.byteLength; g++) widths.push(hmtx.getUint16(4 * g));
  return widths;
}

/** A glyph as a page draws it: its id and the width of its box over the font size (in em). */
export interface GlyphSample {
  glyph: number;
  advance: number;
}

/** A TrueType glyph's ink width (xMax − xMin of its `glyf` header) in font units, or null. */
export function inkWidth(tables: Map<string, DataView>, glyph: number): number | null {
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  if (!head || !loca || !glyf || head.byteLength < 52) return null;
  const long = head.getInt16(50) === 1;
  const at = long ? 4 * glyph : 2 * glyph;
  if (at + (long ? 8 : 4) > loca.byteLength) return null;
  const start = long ? loca.getUint32(at) : 2 * loca.getUint16(at);
  const end = long ? loca.getUint32(at + 4) : 2 * loca.getUint16(at + 2);
  if (end <= start || start + 10 > glyf.byteLength) return 0;
  return glyf.getInt16(start + 6) - glyf.getInt16(start + 2);
}

/**
 * Whether a program is the one a page's glyphs were drawn with: at least `minSamples` distinct
 * glyphs, and every one's width in the program — its advance or its ink, whichever the engine
 * measured the box by — within ADVANCE_TOLERANCE em of the box drawn.
 */
export function advancesAgree(tables: Map<string, DataView>, samples: readonly GlyphSample[], minSamples = MIN_SAMPLES): boolean {
  const head = tables.get('head');
  if (!head || head.byteLength < 20) return false;
  const unitsPerEm = head.getUint16(18) || 1000;
  const widths = advanceWidths(tables);
  const glyphs = new Set<number>();
  for (const { glyph, advance } of samples) {
    const width = widths[Math.min(glyph, widths.length - 1)];
    const ink = inkWidth(tables, glyph);
    const near = (w: number | null | undefined): boolean => w !== null && w !== undefined && Math.abs(w / unitsPerEm - advance) <= ADVANCE_TOLERANCE;
    if (glyph >= 0x10000 || !(near(width) || near(ink))) return false;
    glyphs.add(glyph);
  }
  return glyphs.size >= minSamples;
}
const ADVANCE_TOLERANCE = 0.01;
const MIN_SAMPLES = 2;

/** The characters of the glyphs the `cmap` maps (its Unicode subtables, formats 4 and 12). */
function cmapTexts(cmap: DataView | undefined, codes?: Set<number>): Map<number, string> {
  const texts = new Map<number, string>();
  if (!cmap || cmap.byteLength < 4) return texts;
  const subtables = cmap.getUint16(2);
  for (let i = 0; i < subtables && 4 + 8 * i + 8 <= cmap.byteLength; i++) {
    const platform = cmap.getUint16(4 + 8 * i);
    const encoding = cmap.getUint16(6 + 8 * i);
    if (!(platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10)))) continue;
    const at = cmap.getUint32(8 + 8 * i);
    if (at + 2 > cmap.byteLength) continue;
    const format = cmap.getUint16(at);
    const set = (code: number, glyph: number): void => {
      if (glyph !== 0) codes?.add(code);
      if (glyph !== 0 && !texts.has(glyph)) texts.set(glyph, String.fromCodePoint(code));
    };
    if (format === 4) {
      const segments = cmap.getUint16(at + 6) / 2;
      const ends = at + 14;
      const starts = ends + 2 * segments + 2;
      const deltas = starts + 2 * segments;
      const ranges = deltas + 2 * segments;
      if (ranges + 2 * segments > cmap.byteLength) continue;
      for (let s = 0; s < segments; s++) {
        const end = cmap.getUint16(ends + 2 * s);
        const start = cmap.getUint16(starts + 2 * s);
        const delta = cmap.getInt16(deltas + 2 * s);
        const range = cmap.getUint16(ranges + 2 * s);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          if (range === 0) set(c, (c + delta) & 0xffff);
          else {
            const p = ranges + 2 * s + range + 2 * (c - start);
            if (p + 2 > cmap.byteLength) break;
            const g = cmap.getUint16(p);
            if (g !== 0) set(c, (g + delta) & 0xffff);
          }
        }
      }
    } else if (format === 12) {
      const groups = cmap.getUint32(at + 12);
      for (let k = 0; k < groups && at + 16 + 12 * k + 12 <= cmap.byteLength; k++) {
        const p = at + 16 + 12 * k;
        const start = cmap.getUint32(p);
        const end = Math.min(cmap.getUint32(p + 4), 0x10ffff);
        const glyph = cmap.getUint32(p + 8);
        for (let c = start; c <= end; c++) set(c, glyph + c - start);
      }
    }
  }
  return texts;
}

/** The glyphs a coverage table lists, in coverage order. */
export function coverage(t: DataView, at: number): number[] {
  const glyphs: number[] = [];
  if (at + 4 > t.byteLength) return glyphs;
  const format = t.getUint16(at);
  const n = t.getUint16(at + 2);
  if (format === 1) for (let i = 0; i < n && at + 6 + 2 * i <= t.byteLength; i++) glyphs.push(t.getUint16(at + 4 + 2 * i));
  else if (format === 2) {
    for (let i = 0; i < n && at + 4 + 6 * i + 6 <= t.byteLength; i++) {
      const start = t.getUint16(at + 4 + 6 * i);
      const end = t.getUint16(at + 6 + 6 * i);
      for (let g = start; g <= end; g++) glyphs.push(g);
    }
  }
  return glyphs;
}

/** One substitution: the glyphs in (one, or a ligature's components), the glyph out, and the index of its lookup. */
export type Substitution = { from: number[]; to: number; lookup: number };

/** The single (type 1) and ligature (type 4) substitutions of every GSUB lookup, through extensions (type 7). */
export function substitutions(gsub: DataView | undefined): Substitution[] {
  const out: Substitution[] = [];
  let lookup = 0;
  if (!gsub || gsub.byteLength < 10) return out;
  const lookups = gsub.getUint16(8);
  if (lookups + 2 > gsub.byteLength) return out;
  const count = gsub.getUint16(lookups);
  const subtable = (type: number, at: number): void => {
    if (at + 6 > gsub.byteLength) return;
    const format = gsub.getUint16(at);
    if (type === 7) {
      // An extension holds a subtable of another type (never another extension).
      if (gsub.getUint16(at + 2) !== 7 && at + 8 <= gsub.byteLength) subtable(gsub.getUint16(at + 2), at + gsub.getUint32(at + 4));
    } else if (type === 1) {
      const covered = coverage(gsub, at + gsub.getUint16(at + 2));
      if (format === 1) {
        const delta = gsub.getInt16(at + 4);
        for (const g of covered) out.push({ from: [g], to: (g + delta) & 0xffff, lookup });
      } else if (format === 2) {
        covered.forEach((g, i) => {
          if (at + 6 + 2 * i + 2 <= gsub.byteLength) out.push({ from: [g], to: gsub.getUint16(at + 6 + 2 * i), lookup });
        });
      }
    } else if (type === 4 && format === 1) {
      const covered = coverage(gsub, at + gsub.getUint16(at + 2));
      const sets = gsub.getUint16(at + 4);
      for (let s = 0; s < sets && s < covered.length; s++) {
        const set = at + gsub.getUint16(at + 6 + 2 * s);
        const ligatures = gsub.getUint16(set);
        for (let l = 0; l < ligatures; l++) {
          const lig = set + gsub.getUint16(set + 2 + 2 * l);
          if (lig + 4 > gsub.byteLength) continue;
          const to = gsub.getUint16(lig);
          const parts = gsub.getUint16(lig + 2);
          const from = [covered[s]!];
          for (let k = 1; k < parts && lig + 4 + 2 * k <= gsub.byteLength; k++) from.push(gsub.getUint16(lig + 2 + 2 * k));
          out.push({ from, to, lookup });
        }
      }
    }
  };
  for (let i = 0; i < count && lookups + 2 + 2 * i + 2 <= gsub.byteLength; i++) {
    const at = lookups + gsub.getUint16(lookups + 2 + 2 * i);
    if (at + 6 > gsub.byteLength) continue;
    lookup = i;
    const type = gsub.getUint16(at);
    const n = gsub.getUint16(at + 4);
    for (let k = 0; k < n && at + 6 + 2 * k + 2 <= gsub.byteLength; k++) subtable(type, at + gsub.getUint16(at + 6 + 2 * k));
  }
  return out;
}

/** Every character the program's `cmap` draws a glyph for. */
export function cmapCodes(tables: Map<string, DataView>): Set<number> {
  const codes = new Set<number>();
  cmapTexts(tables.get('cmap'), codes);
  return codes;
}

/**
 * The text of every glyph the font can draw from characters: the `cmap`'s glyphs, then, until
 * nothing changes, the glyphs single and ligature substitutions make from glyphs already known.
 */
export function glyphTexts(tables: Map<string, DataView>): Map<number, string> {
  const texts = cmapTexts(tables.get('cmap'));
  const subs = substitutions(tables.get('GSUB'));
  for (let pass = 0, changed = true; changed && pass < MAX_PASSES; pass++) {
    changed = false;
    for (const { from, to } of subs) {
      if (texts.has(to)) continue;
      const parts = from.map((g) => texts.get(g));
      if (parts.every((p) => p !== undefined)) {
        texts.set(to, parts.join(''));
        changed = true;
      }
    }
  }
  return texts;
}
/** Substitutions chain (a half form, then a conjunct of it): a few passes reach them all. */
const MAX_PASSES = 6;
