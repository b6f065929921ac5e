/**
 * How much of a page its drawing inks, seen in a render of it at low resolution. A page without
 * text may still show words: drawn as filled outlines, painted through a soft mask, inside an
 * image; or it may show nothing, an image that does not decode or is one flat colour. Its page
 * objects cannot tell these apart, the render can: what differs from the page's background is ink,
 * whatever drew it (images, paths, shadings, soft masks).
 */

/**
 * The resolution the page is rendered at to measure its ink: one pixel a point, so a pixel's area is
 * a point's. Glyphs of 6 pt and more stay strokes of a pixel or two, and a letter page is half a
 * million pixels, a few milliseconds of drawing (the OCR render at 300 dpi has 17 times as many).
 */
export const INK_DPI = 72;

/**
 * The most pixels the ink render has: a poster is rendered at a lower resolution instead (the
 * measure is a share of the page, which the resolution leaves alone).
 */
export const INK_MAX_PIXELS = 4_000_000;

/**
 * How far (of 255) a pixel's luminance must lie from the page's background to count as ink: an
 * eighth of the way from paper to black. Light grey type and a faint scan count; a scan's paper
 * grain and JPEG's noise (a few levels) do not.
 */
export const INK_CONTRAST = 32;

/**
 * The share of `grey`'s pixels (luminance, 0–255) that are ink: that differ by more than
 * INK_CONTRAST from the background, the image's most common level. The background is measured,
 * not taken to be white: a page drawn on a coloured ground is read against its ground, and a page
 * of one flat colour (an image that decodes to a grey box, a stamp's field) inks nothing.
 */
export function inkShare(grey: Uint8Array): number {
  if (grey.length === 0) return 0;
  const histogram = new Uint32Array(256);
  for (const level of grey) histogram[level]! += 1;
  let background = 0;
  for (let level = 1; level < 256; level++) if (histogram[level]! > histogram[background]!) background = level;
  let ink = 0;
  for (let level = 0; level < 256; level++) if (Math.abs(level - background) > INK_CONTRAST) ink += histogram[level]!;
  return ink / grey.length;
}
