/**
 * Placeholder glyphs (lib/engines/font-contexts.ts): the installed Noto Sans Devanagari's contextual
 * rules read for the text its empty glyph 652 stands for after each i-matra variant, and XeLaTeX's
 * Devanagari in three fonts (test/fixtures/devanagari-xetex), each read as its text.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fontTables, glyphTexts } from '../../../lib/engines/font-program.js';
import { glyphContexts, textInContext } from '../../../lib/engines/font-contexts.js';
import { repoRoot, run } from '../../helpers.js';

const NOTO_SANS = '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf';
const NOTO_SERIF = '/usr/share/fonts/truetype/noto/NotoSerifDevanagari-Regular.ttf';
const LOHIT = '/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf';
const missing = (path: string, pkg: string): string | false => (existsSync(path) ? false : `${path} is not installed (Debian package ${pkg})`);

t.test('glyphContexts: the mark an empty glyph stands for, by the i-matra before it', { skip: missing(NOTO_SANS, 'fonts-noto-core') }, async (t) => {
  const tables = fontTables(readFileSync(NOTO_SANS));
  const contexts = glyphContexts(tables, glyphTexts(tables));
  // A rule: [ि] [consonant] [ं] → lookup 83 at 0 (ि → 618…629), lookup 88 at 2 (ं → 652).
  t.same([...(contexts.candidates.get(652) ?? [])].sort(), ['ँ', 'ं', 'र्', 'र्ँ', 'र्ं'].sort());
  t.ok(contexts.empty.has(652), 'glyph 652 draws nothing');
  const after = (raw: number): string | null => textInContext(contexts, 652, { raw: [raw, 0x939], texts: ['ि', 'ह'] });
  t.equal(after(619), 'ं', 'after the i-matra made for the anusvara (हिंदी)');
  t.equal(after(630), 'र्', 'after the one made for the reph (सर्दियों)');
  // No variant before it: an empty glyph is no text.
  t.equal(textInContext(contexts, 652, { raw: [], texts: ['िं', 'ह'] }), '');
  // A glyph no rule makes a placeholder has no text in context.
  t.equal(textInContext(contexts, 25, { raw: [619], texts: [] }), null);
});

const dir = join(repoRoot, 'test/fixtures/devanagari-xetex');
const truth = readFileSync(join(dir, 'text.txt'), 'utf8').trim();
for (const [name, path, pkg] of [
  ['noto-sans-devanagari', NOTO_SANS, 'fonts-noto-core'],
  ['noto-serif-devanagari', NOTO_SERIF, 'fonts-noto-core'],
  ['lohit-devanagari', LOHIT, 'fonts-lohit-deva'],
] as const) {
  t.test(`XeLaTeX in ${name}: a reph or an anusvara drawn with the short i, read in Unicode order`, { skip: missing(path, pkg) }, async (t) => {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    t.equal(stdout.trim(), truth);
  });
}

t.test('a malformed GSUB gives nothing and ends: an extension that points at itself, tables cut short', async (t) => {
  const bytes = new Uint8Array(64);
  const view = new DataView(bytes.buffer);
  // The lookup list at 10: one lookup at 14, of type 7 (extension), its one subtable at 22,
  // an extension of type 7 at offset 0 — itself.
  view.setUint16(8, 10);
  view.setUint16(10, 1);
  view.setUint16(12, 4);
  view.setUint16(14, 7);
  view.setUint16(18, 1);
  view.setUint16(20, 8);
  view.setUint16(22, 1);
  view.setUint16(24, 7);
  const tables = new Map([['GSUB', new DataView(bytes.buffer)]]);
  t.equal(glyphContexts(tables, new Map()).candidates.size, 0);
  t.equal(glyphTexts(tables).size, 0);
  for (const cut of [0, 9, 13, 23, 27]) t.equal(glyphContexts(new Map([['GSUB', new DataView(bytes.buffer, 0, cut)]]), new Map()).byVariant.size, 0, `cut at ${cut}`);
});
