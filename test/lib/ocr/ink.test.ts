import t from 'tap';
import { INK_CONTRAST, inkShare } from '../../../lib/ocr/ink.js';

/** A grey image of `size` pixels at `ground`, with `marks` pixels at `level`. */
function grey(size: number, ground: number, marks = 0, level = 0): Uint8Array {
  const pixels = new Uint8Array(size).fill(ground);
  pixels.fill(level, 0, marks);
  return pixels;
}

t.test('ink is what differs from the background, the most common level', async (t) => {
  t.equal(inkShare(grey(10_000, 255)), 0, 'a blank page');
  t.equal(inkShare(grey(10_000, 128)), 0, 'one flat grey: an image showing nothing');
  t.equal(inkShare(grey(10_000, 255, 65, 0)), 0.0065, 'black letters on white');
  t.equal(inkShare(grey(10_000, 40, 300, 250)), 0.03, 'white letters on a dark ground');
  t.equal(inkShare(new Uint8Array(0)), 0);
});

t.test('levels within the contrast of the background are paper, not ink', async (t) => {
  t.equal(inkShare(grey(10_000, 245, 500, 245 - INK_CONTRAST)), 0, "a scan's grain");
  t.equal(inkShare(grey(10_000, 245, 500, 245 - INK_CONTRAST - 1)), 0.05, 'light grey type');
});
