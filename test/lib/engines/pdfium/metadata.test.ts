/**
 * PDFium page boxes on hand-built input (lib/engines/pdfium/metadata.ts): the viewport transform
 * for each /Rotate.
 */
import t from 'tap';
import { viewportTransform } from '../../../../lib/engines/pdfium/metadata.js';

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
