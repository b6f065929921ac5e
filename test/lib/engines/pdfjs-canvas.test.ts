/**
 * pdf.js imported without its native canvas (lib/engines/pdfjs-canvas.ts), in a process of its
 * own: a page of an ordinary font is read with no canvas loaded, and a dvips Type 3 page, whose
 * glyphs are image masks pdf.js turns into paths with a DOMMatrix, loads it and reads whole.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { extractRecords } from '../../../lib/engines/pdfjs.js';
import type { PageRecord } from '../../../lib/protocol/records.js';
import { charAccuracy, collapse, repoRoot, run, samplePdf } from '../../helpers.js';

const loadedCanvas = (): string[] => Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('@napi-rs'));

/** The text of a PDF's pages as this process's pdf.js reads them. */
async function pageText(path: string): Promise<string> {
  const pages: PageRecord[] = [];
  for await (const record of extractRecords(new Uint8Array(readFileSync(path)), 'doc', path, { normalize: true, memory: 512 })) if (record.type === 'page') pages.push(record);
  return pages.flatMap((page) => (page.items ?? []).map((item) => item.text)).join(' ');
}

t.test("pdf.js reads text without its native canvas, and loads it for a Type 3 glyph drawn as an image mask", async (t) => {
  t.same(loadedCanvas(), [], 'nothing loaded it before');
  // Under the command: the page of a dvips bitmap font (Type 3, each glyph an image mask, which
  // pdf.js turns into a path with a DOMMatrix as it loads the font) reads whole.
  const dvips = join(repoRoot, 'bench/corpus/scans/de-dvips-type3.pdf');
  const { stdout, code } = await run(['extract', '--quiet', '--engine', 'pdfjs', dvips]);
  t.equal(code, 0);
  const truth = collapse(readFileSync(join(repoRoot, 'bench/corpus/scans/de-dvips-type3.txt'), 'utf8'));
  t.ok(charAccuracy(truth, collapse(stdout)) >= 0.99, 'the Type 3 page reads');
  // In this process: a page of an ordinary font is read with no canvas loaded.
  t.match(await pageText(samplePdf('one-column')), /Harbour Market/u, 'the page is read');
  t.same(loadedCanvas(), [], 'the canvas is not loaded');
  // Then the Type 3 page, in this process: its first image mask loads the canvas.
  t.match(await pageText(dvips), /Fährmann/u, 'the Type 3 page is read');
  t.not(loadedCanvas().length, 0, 'the canvas was loaded for it');
});
