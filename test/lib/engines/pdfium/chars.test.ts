/**
 * Stacked marks (PDFium's character loop, lib/engines/pdfium/chars.ts, and the lines built from
 * it): pointed Hebrew from Chromium, where each letter with its points is one glyph whose box
 * PDFium slices among the characters. The words must come out whole, marks after their letter.
 * And a text matrix without a baseline direction: its glyphs are still items with numbers for a box.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collapse, parseLines, repoRoot, run } from '../../../helpers.js';
import { onePage, squeezedThai } from '../../../hostile-pdfs.js';

t.test('pointed Hebrew from Chromium: words whole, not split at their points', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/marks');
  const { stdout, code } = await run(['extract', '--quiet', join(dir, 'he-chromium-sans.pdf'), join(dir, 'he-chromium-serif.pdf')]);
  t.equal(code, 0);
  const words = new Set(collapse(stdout).normalize('NFC').split(' '));
  for (const word of ['הַגֶּשֶׁם', 'הַגְּדוֹלוֹת.', 'וְהִסְתַּכְּלוּ', 'וּמַגָּפַיִם.', 'הַגָּבוֹהַּ.', 'שֶׁיָּשַׁב', 'וְהַצִּפּוֹרִים']) {
    t.ok(words.has(word.normalize('NFC')), word);
  }
});

t.test('a text matrix that squeezes the baseline to nothing: items with finite boxes, the document read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-squeezed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // `0 0 0 1 Tm` keeps the font's height and gives its glyphs no advance; `0 0 0 0 Tm` gives them nothing at all.
  const files = ['0 0 0 1', '0 0 0 0'].map((matrix, i) => {
    const path = join(dir, `squeezed-${i}.pdf`);
    writeFileSync(path, onePage(Buffer.from(`BT /F1 12 Tf ${matrix} 57 100 Tm (Hello world) Tj ET`)));
    return path;
  });
  // The same under a Thai mark drawn apart from its word: the repair stage places the mark by the boxes.
  files.push(join(dir, 'squeezed-thai.pdf'));
  writeFileSync(files[2]!, squeezedThai());
  for (const engine of ['pdfium', 'pdfjs']) {
    const parsed = await run(['parse', '--quiet', '--engine', engine, ...files]);
    const items = parseLines(parsed.stdout).flatMap((r) => (r.type === 'page' ? r.items ?? [] : []));
    t.ok(items.length > 0, `${engine}: the text is read`);
    const broken = items.filter((i) => ![i.x, i.y, i.w, i.size].every(Number.isFinite));
    t.same(broken, [], `${engine}: every item's x, y, w and size are numbers`);
    const extracted = await run(['extract', '--quiet', '--engine', engine, '--format', 'ndjson', ...files]);
    t.same(parseLines(extracted.stdout).filter((r) => r.type === 'end' || r.type === 'error').map((r) => r.type), ['end', 'end', 'end'], `${engine}: each document ends`);
  }
});
