/**
 * Glyphs whose text depends on the glyphs before them, read from a font program's contextual
 * substitutions (GSUB lookup types 5 and 6). A font may move a mark's meaning onto another glyph of
 * its syllable: Noto Sans Devanagari draws "हिंदी" with an i-matra made for the anusvara (glyph 619,
 * one of the widths of ि cut for ं) and puts an empty glyph, 652, where the anusvara was. The same
 * glyph stands for a reph, a candrabindu and their pairs, each after its own i-matra. A rule that
 * puts, at one place, one glyph for several marks (the placeholder) and, at another, a variant for
 * the glyph there says: after that variant, the placeholder is that mark.
 *
 *   rule:  [ि widths] [consonant] [ं]  →  lookup 83 at 0 (ि → 618…629), lookup 88 at 2 (ं → 652)
 *   so:    652 after any of 618…629 is ं;  after 630…641 (lookup 84, for र्) it is र्;  …
 *
 * Pure functions over the font's tables; what is absent or malformed gives nothing, never throws.
 */
import { advanceWidths, coverage, inkWidth, substitutions } from './font-program.js';

/** A contextual rule: the glyphs each place of its input may hold, and the lookups it applies where. */
interface ContextRule {
  input: ReadonlyArray<ReadonlySet<number>>;
  records: ReadonlyArray<readonly [place: number, lookup: number]>;
}

/** A font's placeholder glyphs: each one's possible texts, and its text after each variant that decides it. */
export interface GlyphContexts {
  candidates: Map<number, Set<string>>;
  byVariant: Map<number, Map<number, string>>;
  /** The placeholders that draw nothing (no outline, no advance). */
  empty: Set<number>;
}

/**
 * The texts a font's placeholder glyphs take after the variants that decide them (see the module
 * comment), given the texts of its glyphs (glyphTexts). A pairing that two rules give different
 * texts is left out.
 */
export function glyphContexts(tables: Map<string, DataView>, texts: ReadonlyMap<number, string>): GlyphContexts {
  const candidates = new Map<number, Set<string>>();
  const contexts = new Map<number, Map<number, string>>();
  const gsub = tables.get('GSUB');
  if (!gsub) return { candidates, byVariant: contexts, empty: new Set() };
  // Each lookup's single substitutions, and the glyphs they put in place of glyphs of different texts.
  const single = new Map<number, Map<number, number>>();
  for (const { from, to, lookup } of substitutions(gsub)) {
    if (from.length !== 1) continue;
    let map = single.get(lookup);
    if (!map) single.set(lookup, (map = new Map()));
    map.set(from[0]!, to);
    const text = texts.get(from[0]!);
    if (text !== undefined) (candidates.get(to) ?? candidates.set(to, new Set()).get(to)!).add(text);
  }
  for (const [glyph, found] of candidates) if (found.size < 2) candidates.delete(glyph);
  const placeholder = (glyph: number): boolean => candidates.has(glyph);
  const conflicting = new Set<string>();
  for (const rule of contextRules(gsub)) {
    for (const [place, lookup] of rule.records) {
      const marks = single.get(lookup);
      const held = rule.input[place];
      if (!marks || !held) continue;
      for (const [other, variantLookup] of rule.records) {
        const variants = single.get(variantLookup);
        const others = rule.input[other];
        if (other === place || !variants || !others) continue;
        for (const mark of held) {
          const glyph = marks.get(mark);
          const text = texts.get(mark);
          if (glyph === undefined || text === undefined || !placeholder(glyph)) continue;
          let byVariant = contexts.get(glyph);
          if (!byVariant) contexts.set(glyph, (byVariant = new Map()));
          for (const before of others) {
            const variant = variants.get(before);
            if (variant === undefined) continue;
            // A variant that is a ligature with the mark (रु for र and ु) says it already.
            const own = texts.get(variant)?.includes(text) ? '' : text;
            const known = byVariant.get(variant);
            if (known !== undefined && known !== own) conflicting.add(`${glyph} ${variant}`);
            else byVariant.set(variant, own);
          }
        }
      }
    }
  }
  for (const key of conflicting) {
    const [held, variant] = key.split(' ').map(Number) as [number, number];
    contexts.get(held)?.delete(variant);
  }
  const advances = advanceWidths(tables);
  const empty = new Set([...candidates.keys()].filter((glyph) => inkWidth(tables, glyph) === 0 && advances[glyph] === 0));
  return { candidates, byVariant: contexts, empty };
}

/** The characters before a placeholder: the raw codes of those left out of their font's Unicode map, and the others. */
export interface GlyphsBefore {
  raw: number[];
  texts: string[];
}
/** How many characters before a placeholder may decide it, or already say its text (its syllable's). */
export const CONTEXT_CHARACTERS = 4;

/**
 * The text of a placeholder glyph (`code`) after the characters before it: what the latest variant
 * among them says; nothing when one of them already is one of its possible texts (Noto Serif Devanagari under XeTeX: the i-matra made for the anusvara mapped to "िं", the
 * placeholder after its consonant left out); null when it is no placeholder or nothing decides.
 */
export function textInContext(contexts: GlyphContexts, code: number, before: GlyphsBefore): string | null {
  const byVariant = contexts.byVariant.get(code);
  for (let i = before.raw.length - 1; byVariant && i >= 0; i--) {
    const text = byVariant.get(before.raw[i]!);
    if (text !== undefined) return text;
  }
  // An empty placeholder no variant left out of the map decides draws nothing: the glyphs the
  // page maps carry what it stands for (Noto Serif Devanagari's i-matras made for a reph or an
  // anusvara, mapped "र्ि" and "िं" by XeTeX).
  if (contexts.empty.has(code)) return '';
  const possible = contexts.candidates.get(code);
  const said = before.texts.join('');
  if (possible && [...possible].some((text) => said.includes(text))) return '';
  return null;
}

/** The rules of the contextual (5) and chained contextual (6) lookups, formats 1–3, through extensions (7). */
function contextRules(gsub: DataView): ContextRule[] {
  const rules: ContextRule[] = [];
  const u16 = (at: number): number => (at + 2 <= gsub.byteLength ? gsub.getUint16(at) : 0);
  const records = (at: number, n: number): Array<readonly [number, number]> => Array.from({ length: n }, (_, i) => [u16(at + 4 * i), u16(at + 2 + 4 * i)] as const);
  const glyphs = (list: number[]): Set<number> => new Set(list);
  const classMembers = (at: number): Map<number, Set<number>> => {
    const members = new Map<number, Set<number>>();
    const add = (glyph: number, cls: number): void => void (members.get(cls) ?? members.set(cls, new Set()).get(cls)!).add(glyph);
    if (u16(at) === 1) {
      const start = u16(at + 2);
      for (let i = 0; i < u16(at + 4); i++) add(start + i, u16(at + 6 + 2 * i));
    } else if (u16(at) === 2) {
      for (let i = 0; i < u16(at + 2); i++) for (let g = u16(at + 4 + 6 * i); g <= u16(at + 6 + 6 * i); g++) add(g, u16(at + 8 + 6 * i));
    }
    return members;
  };
  const subtable = (type: number, at: number): void => {
    if (at + 6 > gsub.byteLength) return;
    const format = u16(at);
    // An extension holds a subtable of another type (never another extension).
    if (type === 7) return u16(at + 2) === 7 || at + 8 > gsub.byteLength ? undefined : subtable(u16(at + 2), at + gsub.getUint32(at + 4));
    if (type !== 5 && type !== 6) return;
    const chained = type === 6;
    if (format === 3) {
      if (!chained) {
        // glyph count, lookup count, the input's coverages, the lookups
        const n = u16(at + 2);
        const input = Array.from({ length: n }, (_, i) => glyphs(coverage(gsub, at + u16(at + 6 + 2 * i))));
        return void rules.push({ input, records: records(at + 6 + 2 * n, u16(at + 4)) });
      }
      // backtrack, input and lookahead coverages, then the lookups
      let p = at + 2;
      p += 2 + 2 * u16(p);
      const n = u16(p);
      const input = Array.from({ length: n }, (_, i) => glyphs(coverage(gsub, at + u16(p + 2 + 2 * i))));
      p += 2 + 2 * n;
      p += 2 + 2 * u16(p);
      rules.push({ input, records: records(p + 2, u16(p)) });
      return;
    }
    if (format !== 1 && format !== 2) return;
    const first = coverage(gsub, at + u16(at + 2));
    const classes = format === 2 ? classMembers(at + u16(at + (chained ? 6 : 4))) : null;
    const setsAt = at + (format === 2 ? (chained ? 10 : 6) : 4);
    for (let s = 0; s < u16(setsAt); s++) {
      const set = u16(setsAt + 2 + 2 * s);
      if (!set) continue;
      const head = format === 1 ? new Set(first[s] !== undefined ? [first[s]!] : []) : new Set(first.filter((g: number) => classes?.get(s)?.has(g)));
      for (let r = 0; r < u16(at + set); r++) {
        let p = at + set + u16(at + set + 2 + 2 * r);
        if (chained) p += 2 + 2 * u16(p);
        // A rule: its glyph count, (unchained) its lookup count, the input after the first glyph.
        const n = u16(p);
        const inputAt = p + (chained ? 2 : 4);
        const rest = Array.from({ length: Math.max(0, n - 1) }, (_, i) => u16(inputAt + 2 * i));
        // A class rule's class 0 is every glyph no class lists: too many to tell; the rule is skipped.
        if (classes && rest.includes(0)) continue;
        const input = [head, ...rest.map((v) => (classes ? (classes.get(v) ?? new Set<number>()) : new Set([v])))];
        if (!chained) {
          rules.push({ input, records: records(p + 4 + 2 * (n - 1), u16(p + 2)) });
          continue;
        }
        p += 2 + 2 * (n - 1);
        p += 2 + 2 * u16(p);
        rules.push({ input, records: records(p + 2, u16(p)) });
      }
    }
  };
  const list = u16(8);
  for (let i = 0; i < u16(list); i++) {
    const at = list + u16(list + 2 + 2 * i);
    for (let k = 0; k < u16(at + 4); k++) subtable(u16(at), at + u16(at + 6 + 2 * k));
  }
  return rules;
}
