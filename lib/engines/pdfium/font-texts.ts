/**
 * The text of glyphs a font's Unicode map leaves out, derived from the font program: PDFium
 * reports such a glyph by its raw code, which in an Identity-encoded CID font is the glyph id of
 * the program it was cut from (XeTeX's Devanagari: "ɡ" U+0261 for glyph 609, a short-i sign of one
 * of its widths). The embedded subset keeps no cmap or GSUB; the installed program of the same name
 * does, and is used when its glyphs of those ids have the advances the page draws them with.
 */
import { advancesAgree, type GlyphSample } from '../font-program.js';
import { installedFont } from '../installed-fonts.js';

/** Glyph id → text for a PDF font whose installed program draws the page's glyphs with their advances; null otherwise. */
export function derivedGlyphTexts(name: string, samples: readonly GlyphSample[]): Map<number, string> | null {
  const installed = installedFont(name);
  return installed && advancesAgree(installed.tables, samples) ? installed.texts : null;
}
