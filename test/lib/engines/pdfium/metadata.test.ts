/**
 * PDFium page boxes on hand-built input (lib/engines/pdfium/metadata.ts): the viewport transform
 * for each /Rotate, and a MediaBox inherited from the page tree.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { viewportTransform } from '../../../../lib/engines/pdfium/metadata.js';
import type { PageRecord } from '../../../../lib/protocol/records.js';
import { parseLines, run } from '../../../helpers.js';

/** A one-page A4 PDF whose MediaBox is on /Pages only, as xdvipdfmx writes it, with "Tide" at 72, 700. */
function inheritedBoxPdf(): Buffer {
  const content = 'BT /F1 12 Tf 72 700 Td (Tide) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 595.28 841.89] >>',
    '<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

t.test('a MediaBox inherited from /Pages: the page is A4 and its text where it is drawn, in both engines', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-box-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'inherited.pdf');
  writeFileSync(path, inheritedBoxPdf());
  for (const engine of ['pdfium', 'pdfjs']) {
    const result = await run(['parse', '--engine', engine, path]);
    const page = parseLines(result.stdout).find((r): r is PageRecord => r.type === 'page')!;
    t.same([page.width, page.height], [595.28, 841.89], `${engine}: the inherited box, not US Letter`);
    t.equal(page.items?.[0]?.y, 141.89, `${engine}: the baseline measured from the top of the A4 page`);
  }
});

t.test('viewportTransform: the displayed page, rotated clockwise by /Rotate, origin top-left', async (t) => {
  const view: [number, number, number, number] = [10, 20, 610, 812];
  // Which corner of the PDF box comes out at the display's top-left, for each /Rotate.
  const topLeft: Record<number, [number, number]> = { 0: [10, 812], 90: [10, 20], 180: [610, 20], 270: [610, 812] };
  for (const rotation of [0, 90, 180, 270]) {
    const { transform: [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0], width, height } = viewportTransform(view, rotation);
    const apply = ([x, y]: [number, number]) => [a * x + c * y + e, b * x + d * y + f].map((v) => v + 0);
    t.same([width, height], rotation % 180 === 0 ? [600, 792] : [792, 600], `size at ${rotation}°`);
    t.same(apply(topLeft[rotation]!), [0, 0], `origin at ${rotation}°`);
    const corners = [[10, 20], [610, 20], [10, 812], [610, 812]].map((p) => apply(p as [number, number]).join(',')).sort();
    t.same(corners, [`0,0`, `0,${height}`, `${width},0`, `${width},${height}`].sort(), `the box fills the display at ${rotation}°`);
  }
});
