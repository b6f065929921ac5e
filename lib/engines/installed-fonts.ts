/**
 * The font programs installed on this machine, found by the PostScript name a PDF gives its font
 * ("ABCDEF+NotoSansDevanagari-Regular" → …/NotoSansDevanagari-Regular.ttf): the full program of an
 * embedded subset, whose tables (cmap, GSUB) the subset left out. The folders are read once per
 * process; a name no file is called after gives null. The caller checks the program is the one
 * the subset was cut from (font-program.ts, sameGlyphNumbering).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join } from 'node:path';
import { cmapCodes, fontTables, glyphTexts } from './font-program.js';

/** Where Debian and fontconfig keep fonts. */
const FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts', join(homedir(), '.local/share/fonts'), join(homedir(), '.fonts')];
/** How deep the folders are walked. */
const MAX_DEPTH = 5;

let files: Map<string, string> | null = null;

function indexFonts(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (/^\.(ttf|otf)$/iu.test(extname(e.name))) {
        const key = e.name.slice(0, -4).toLowerCase();
        if (!found.has(key)) found.set(key, path);
      }
    }
  };
  for (const dir of FONT_DIRS) walk(dir, 0);
  return found;
}

/** An installed program's tables and glyph texts, by file. */
export interface InstalledFont {
  tables: Map<string, DataView>;
  texts: Map<number, string>;
  /** The characters its `cmap` draws a glyph for. */
  codes: ReadonlySet<number>;
}
const programs = new Map<string, InstalledFont | null>();

/** The installed program a PDF font name (subset tag and all) names, with its glyphs' texts; null when none is installed. */
export function installedFont(pdfFontName: string): InstalledFont | null {
  const name = pdfFontName.replace(/^[A-Z]{6}\+/u, '').toLowerCase();
  if (!name) return null;
  files ??= indexFonts();
  const path = files.get(name);
  if (!path) return null;
  if (!programs.has(path)) {
    let program: InstalledFont | null = null;
    try {
      const tables = fontTables(readFileSync(path));
      program = { tables, texts: glyphTexts(tables), codes: cmapCodes(tables) };
    } catch {
      program = null;
    }
    programs.set(path, program);
  }
  return programs.get(path) ?? null;
}
