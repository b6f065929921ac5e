/**
 * `pdfpipe inspect FILE.pdf`: pictures of what the chain decided on each page. The document goes
 * through the whole chain in this process (`extract`), PDFium renders the pages, and the records'
 * blocks, baselines, inferred spaces and changed words are drawn over them
 * (lib/formats/inspect.ts): `DIR/page-N.png` per page, and `DIR/index.html` showing them all with
 * each block's record on hover.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { helpText, parseArgs, UsageError, type OptionSpec } from '../protocol/options.js';
import { extract } from './extract.js';
import { renderPages } from '../engines/pdfium/render.js';
import { drawMarks, inspectHtml, pageMarks } from '../formats/inspect.js';
import { encodePng } from '../formats/inspect-png.js';

export interface InspectOptions {
  pages: string;
  outDir: string;
  scale: number;
}

export const DEFAULTS: InspectOptions = { pages: '', outDir: '', scale: 1.5 };

export const OPTIONS: readonly OptionSpec[] = [
  { key: 'pages', type: 'string', description: 'pages to draw: N, N-M or N- (the chain still reads the whole document); empty: every page' },
  { key: 'outDir', type: 'string', description: 'folder for page-N.png and index.html; empty: NAME.inspect in the current folder' },
  { key: 'scale', type: 'number', min: 0.1, max: 8, description: 'pixels per point of the pictures (1: 72 dpi)' },
];

/** The first and last page of a `--pages` value (last 0: the document's last). */
export function pageSpan(value: string): { firstPage: number; lastPage: number } {
  if (value === '') return { firstPage: 1, lastPage: 0 };
  const match = /^(\d+)(?:-(\d*))?$/.exec(value.trim());
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : match[2] === '' ? 0 : Number(match[2]);
  if (!match || first < 1 || (last !== 0 && last < first)) throw new UsageError(`pages must be N, N-M or N- with 1 ≤ N ≤ M, got "${value}"`);
  return { firstPage: first, lastPage: last };
}

export const USAGE = 'pdfpipe inspect [--pages N-M] [--out-dir DIR] [--scale S] FILE.pdf';
export const SUMMARY = 'Draws each page with its blocks, roles, baselines, inferred spaces and changed words: PNGs and an HTML view.';

export async function main(argv: string[]): Promise<number> {
  const { options, positionals, help } = parseArgs(argv, OPTIONS, DEFAULTS);
  if (help) {
    process.stdout.write(helpText(USAGE, SUMMARY, OPTIONS, DEFAULTS));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`inspect takes one PDF, got ${positionals.length}\nusage: ${USAGE}`);
  const path = positionals[0]!;
  const span = pageSpan(options.pages);
  const name = basename(path).replace(/\.pdf$/i, '');
  const outDir = options.outDir || `${name}.inspect`;
  // The whole document goes through the chain, whatever pages are drawn: roles and running heads
  // are decided from all of its pages, as extract decides them.
  const drawn = (n: number): boolean => n >= span.firstPage && (span.lastPage === 0 || n <= span.lastPage);
  for await (const document of extract([path], { format: 'ndjson' })) {
    if (document.outcome.type === 'error') {
      process.stderr.write(`pdfpipe inspect: ${path}: ${document.outcome.code}: ${document.outcome.message}\n`);
      return 1;
    }
    mkdirSync(outDir, { recursive: true });
    const pages = document.pages.filter((p) => drawn(p.page));
    const rasters = await renderPages(readFileSync(path), pages.map((p) => p.page), options.scale);
    const shown = [];
    for (const page of pages) {
      const raster = rasters.get(page.page);
      if (!raster) continue;
      const marks = pageMarks(page, options.scale);
      drawMarks(raster, marks);
      const href = `page-${page.page}.png`;
      writeFileSync(join(outDir, href), encodePng(raster));
      shown.push({ page: page.page, marks, href });
    }
    writeFileSync(join(outDir, 'index.html'), inspectHtml(name, shown));
    process.stderr.write(`pdfpipe inspect: ${shown.length} pages of ${path} in ${outDir}/\n`);
  }
  return 0;
}
