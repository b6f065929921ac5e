/**
 * pdfpipe inspect: a sample page drawn by PDFium at a scale is the page's size at that scale, the
 * block outlines sit on the records' boxes (the role's colour at each box's corners), and the
 * HTML view loads in a real headless browser without a console message.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { extract } from '../../../lib/run/extract.js';
import { fontUnit, ROLE_COLOURS } from '../../../lib/formats/inspect.js';
import { run, samplePdf } from '../../helpers.js';

const CHROMIUM = '/usr/bin/chromium';

/** Reads the PNGs inspect writes: 8-bit RGBA, every scanline with filter 0. */
function readPng(bytes: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number[] } {
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixel = (x: number, y: number): number[] => {
    const at = y * (width * 4 + 1) + 1 + x * 4;
    return [raw[at]!, raw[at + 1]!, raw[at + 2]!];
  };
  return { width, height, pixel };
}

t.test('two-columns: the page at scale 1.5, outlines on the records\' boxes, the HTML loads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-inspect-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const scale = 1.5;
  const result = await run(['inspect', '--scale', String(scale), '--out-dir', dir, samplePdf('two-columns')]);
  t.equal(result.code, 0, result.stderr);
  const [document] = await (async () => { const all = []; for await (const d of extract([samplePdf('two-columns')], { format: 'ndjson' })) all.push(d); return all; })();
  const page = document!.pages[0]!;
  const png = readPng(readFileSync(join(dir, 'page-1.png')));
  t.equal(png.width, Math.round(page.width * scale), 'width: the page width at the scale');
  t.equal(png.height, Math.round(page.height * scale), 'height: the page height at the scale');
  const blocks = page.blocks ?? [];
  t.ok(blocks.length >= 10, `the page has its blocks (${blocks.length})`);
  // The outline lies just outside the box, one font unit wide: probe half a unit out from each corner.
  const unit = fontUnit({ scale });
  const misses: string[] = [];
  for (const [index, block] of blocks.entries()) {
    const want = ROLE_COLOURS[block.role];
    const corners = [
      [block.box.x * scale - unit / 2, block.box.y * scale - unit / 2],
      [(block.box.x + block.box.w) * scale + unit / 2, (block.box.y + block.box.h) * scale + unit / 2],
    ];
    for (const [x, y] of corners) {
      const got = png.pixel(Math.floor(x!), Math.floor(y!));
      if (got.join() !== want.join()) misses.push(`block ${index + 1} (${block.role}) at ${Math.floor(x!)},${Math.floor(y!)}: ${got.join()} not ${want.join()}`);
    }
  }
  t.same(misses, [], 'every block corner in its role\'s colour');
  // Between the outlines the page is PDFium's rendering: the body text is drawn (dark pixels inside a body block).
  const body = blocks.find((b) => b.role === 'body' && b.lines > 3)!;
  let dark = 0;
  for (let y = Math.ceil(body.box.y * scale); y < (body.box.y + body.box.h) * scale; y++) {
    for (let x = Math.ceil(body.box.x * scale) + 10; x < (body.box.x + body.box.w) * scale - 10; x++) if (Math.max(...png.pixel(x, y)) < 100) dark++;
  }
  t.ok(dark > 1000, `the page's text is rendered (${dark} dark pixels in a body block)`);

  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  t.equal(html.match(/<g class="block"/g)?.length, blocks.length, 'one hover target per block');
  const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed: the HTML view is not opened in a browser`;
  await t.test('the HTML view in headless Chromium: every block in the DOM, no console message', { skip }, async (t) => {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(CHROMIUM, ['--headless', '--no-sandbox', '--enable-logging=stderr', '--v=0', '--dump-dom', `file://${join(dir, 'index.html')}`],
        { timeout: 120_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) => (error && !stdout ? reject(error) : resolve({ stdout, stderr })));
    });
    t.match(stdout, /<figure id="page-1">/, 'the browser built the page');
    t.equal(stdout.match(/<g class="block"/g)?.length, blocks.length, 'every block in the browser\'s DOM');
    t.same(stderr.split('\n').filter((l) => /CONSOLE|Uncaught/.test(l)), [], 'no console message');
  });
});

t.test('inspect: a bad page range is a usage error, a file that is not a PDF one failure on stderr', async (t) => {
  const bad = await run(['inspect', '--pages', '3-1', samplePdf('two-columns')]);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /pages must be/);
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-inspect-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const notPdf = await run(['inspect', '--out-dir', join(dir, 'out'), samplePdf('two-columns').replace(/\.pdf$/, '.txt')]);
  t.equal(notPdf.code, 0, 'a failed document ends the run as any command\'s does (exit 1 only with --fail-on error)');
  t.match(notPdf.stderr, /not-a-pdf/);
  t.notOk(existsSync(join(dir, 'out', 'index.html')), 'no picture of a document that failed');
});
