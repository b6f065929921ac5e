/**
 * Pictures without a dependency: an RGBA raster, the few shapes `inspect` draws on it (outlines,
 * lines, translucent fills, text in a 3×5 pixel font), and a PNG encoder over node's zlib.
 *
 * A PNG is a signature and chunks (length, type, data, CRC-32); the pixels go in one IDAT chunk as
 * deflated scanlines, each led by its filter byte (0: none). That is all a reader needs.
 */
import { deflateSync } from 'node:zlib';

/** Pixels, 4 bytes each (red, green, blue, alpha), row after row from the top. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A colour as red, green, blue (0–255). */
export type Rgb = readonly [number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The raster as a PNG file (8-bit RGBA, no interlace). */
export function encodePng(raster: Raster): Buffer {
  const { width, height, data } = raster;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type 6 (RGBA), deflate, filter set 0, no interlace
  const rowBytes = width * 4;
  const scanlines = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) scanlines.set(data.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(scanlines, { level: 9 })), chunk('IEND', new Uint8Array())]);
}

/** Paints one pixel, `alpha` (0–1) over what is there; pixels off the raster are ignored. */
export function blend(raster: Raster, x: number, y: number, colour: Rgb, alpha = 1): void {
  if (x < 0 || y < 0 || x >= raster.width || y >= raster.height) return;
  const at = (Math.floor(y) * raster.width + Math.floor(x)) * 4;
  const d = raster.data;
  for (let c = 0; c < 3; c++) d[at + c] = Math.round(d[at + c]! * (1 - alpha) + colour[c]! * alpha);
  d[at + 3] = 255;
}

/** Fills the rectangle [x, x + w) × [y, y + h) (pixels, rounded outwards). */
export function fillRect(raster: Raster, x: number, y: number, w: number, h: number, colour: Rgb, alpha = 1): void {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(raster.width, Math.ceil(x + w));
  const y1 = Math.min(raster.height, Math.ceil(y + h));
  for (let py = y0; py < y1; py++) for (let px = x0; px < x1; px++) blend(raster, px, py, colour, alpha);
}

/** Outlines a rectangle with a stroke `thickness` pixels wide, laid inside the rectangle's edge. */
export function strokeRect(raster: Raster, x: number, y: number, w: number, h: number, colour: Rgb, thickness: number): void {
  const t = Math.max(1, Math.min(thickness, w / 2, h / 2));
  fillRect(raster, x, y, w, t, colour);
  fillRect(raster, x, y + h - t, w, t, colour);
  fillRect(raster, x, y, t, h, colour);
  fillRect(raster, x + w - t, y, t, h, colour);
}

/**
 * The 3×5 pixel font: each glyph five rows of three bits, top row first. Enough for block numbers,
 * role names and the legend; anything else draws as a blank.
 */
const GLYPHS: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111',
  '4': '101101111001001', '5': '111100111001111', '6': '111100111101111', '7': '111001001001001',
  '8': '111101111101111', '9': '111101111001111', a: '010101111101101', b: '110101110101110',
  c: '011100100100011', d: '110101101101110', e: '111100110100111', f: '111100110100100',
  g: '011100101101011', h: '101101111101101', i: '111010010010111', j: '001001001101010',
  k: '101101110101101', l: '100100100100111', m: '101111111101101', n: '110101101101101',
  o: '010101101101010', p: '110101110100100', q: '010101101011001', r: '110101110101101',
  s: '011100010001110', t: '111010010010010', u: '101101101101111', v: '101101101101010',
  w: '101101111111101', x: '101101010101101', y: '101101010010010', z: '111001010100111',
  '-': '000000111000000', ',': '000000000010100', '.': '000000000000010',
};

/** The width in pixels of `text` in the pixel font at `unit` pixels per font pixel. */
export const textWidth = (text: string, unit: number): number => Math.max(0, text.length * 4 - 1) * unit;
/** The height in pixels of a line of the pixel font. */
export const textHeight = (unit: number): number => 5 * unit;

/** Writes `text` (lower-cased) with its top-left corner at x, y, each font pixel `unit` pixels square. */
export function drawText(raster: Raster, text: string, x: number, y: number, colour: Rgb, unit: number): void {
  [...text.toLowerCase()].forEach((char, index) => {
    const glyph = GLYPHS[char];
    if (!glyph) return;
    for (let bit = 0; bit < 15; bit++) {
      if (glyph[bit] === '1') fillRect(raster, x + (index * 4 + (bit % 3)) * unit, y + Math.floor(bit / 3) * unit, unit, unit, colour);
    }
  });
}
