/**
 * Hostile PDFs for the reliability tests, built in memory (some would be large on disk): a Flate
 * bomb, a page tree of a million references, a circular page tree, deep nesting. Each is a valid
 * file in its syntax (objects, cross-reference table, trailer), so that both engines read it as
 * far as its trap. And damaged font programs, and a squeezed text matrix whose glyphs have no advance.
 */
import { createDeflate, deflateSync } from 'node:zlib';

/**
 * A PDF from its objects' bodies (object i + 1 is `bodies[i]`), with a correct xref table; object 1
 * is the catalog. `trailer` adds entries to the trailer dictionary (an /Encrypt and its /ID).
 */
export function pdfFromObjects(bodies: readonly (string | Buffer)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R${trailer ? ` ${trailer}` : ''} >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A stream object's body. */
export const streamObject = (dict: string, data: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** A one-page document whose page shows `content` (a content stream, already encoded as `filter` says). */
export function onePage(content: Buffer, filter = ''): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject(filter, content),
    FONT,
  ]);
}

/** A page that says `text` (plain content stream). */
export const textPage = (text: string): Buffer => onePage(Buffer.from(`BT /F1 12 Tf 20 250 Td (${text}) Tj ET`));

/**
 * A Flate bomb: a page whose content stream is `bytes` of spaces then some text, deflated twice
 * (a few kilobytes on disk). Built streaming, so the test never holds the inflated bytes.
 */
export async function flateBomb(bytes: number): Promise<Buffer> {
  const inner: Buffer[] = [];
  const deflate = createDeflate({ level: 1 });
  deflate.on('data', (chunk: Buffer) => inner.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(16 * 1024 * 1024, 0x20);
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(Buffer.from('BT /F1 12 Tf 20 250 Td (bomb) Tj ET'));
  await ended;
  return onePage(deflateSync(Buffer.concat(inner), { level: 9 }), '/Filter [/FlateDecode /FlateDecode]');
}

/** A page tree whose /Kids hold `count` references to one page, and whose /Count says so. */
export function pageTreeBomb(count: number): Buffer {
  const kids = Array(count).fill('3 0 R').join(' ');
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (again) Tj ET')),
    FONT,
  ]);
}

/** One real page under a page tree whose /Count claims `count`. */
export function inflatedCount(count: number): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (The only page) Tj ET')),
    FONT,
  ]);
}

/** A page whose dictionary holds an array nested `depth` deep (never closed). */
export function deepNesting(depth: number): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Deep ${'['.repeat(depth)} >>`,
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (deep) Tj ET')),
    FONT,
  ]);
}

/** A page tree with a cycle: the root's second kid is a /Pages node whose only kid is the root; /Count claims 3 pages over one real page. */
export function circularPageTree(): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (The one real page) Tj ET')),
    FONT,
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 2 >>',
  ]);
}

/** A CFF INDEX: its count, offsets (two bytes each, from 1) and the data they point into. */
function cffIndex(offsets: readonly number[], data: Buffer): Buffer {
  const offSize = 2;
  const head = Buffer.alloc(3 + offsets.length * offSize);
  head.writeUInt16BE(offsets.length - 1, 0);
  head[2] = offSize;
  offsets.forEach((offset, i) => head.writeUInt16BE(offset, 3 + i * offSize));
  return Buffer.concat([head, data]);
}
const cffEntries = (entries: readonly Buffer[]): Buffer => {
  const offsets = [1];
  for (const entry of entries) offsets.push(offsets[offsets.length - 1]! + entry.length);
  return cffIndex(offsets, Buffer.concat(entries));
};
/** A CFF DICT integer in its five-byte form (so that offsets can be written before they are known). */
const cffInt = (n: number): Buffer => Buffer.from([29, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

/**
 * A one-page document whose one font (WinAnsi codes, widths of its own, so that its text needs no
 * program) embeds `program` as a CFF font program (FontFile3, Type1C), Flate compressed.
 */
function withFontProgram(program: Buffer): Buffer {
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (A damaged font program) Tj ET')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Hostile /FirstChar 32 /LastChar 126 /Widths [' + Array(95).fill(500).join(' ') + '] /Encoding /WinAnsiEncoding /FontDescriptor 6 0 R >>',
    '<< /Type /FontDescriptor /FontName /Hostile /Flags 32 /FontBBox [0 0 500 700] /ItalicAngle 0 /Ascent 700 /Descent 0 /CapHeight 700 /StemV 80 /FontFile3 7 0 R >>',
    streamObject('/Subtype /Type1C /Filter /FlateDecode', deflateSync(program, { level: 9 })),
  ]);
}

/**
 * A one-page document whose font is a CFF program (FontFile3, Type1C) of about 130 KB, Flate
 * compressed to a few KB, with a damaged subroutine index: its 65,535 offsets alternate between
 * the start and the end of one `entryBytes`-long block, so that half the entries are that whole
 * block. The index says so in a few bytes; written out entry by entry it is 32,768 ×
 * `entryBytes`. The page's text comes from the font's encoding and does not need the program.
 */
export function cffSubroutineBomb(entryBytes: number): Buffer {
  const subrOffsets = Array.from({ length: 65_536 }, (_, i) => (i % 2 === 0 ? 1 : entryBytes + 1));
  const subrs = cffIndex(subrOffsets, Buffer.alloc(entryBytes, 11));
  const privateDict = Buffer.concat([cffInt(6), Buffer.from([19])]);
  const header = Buffer.from([1, 0, 4, 2]);
  const names = cffEntries([Buffer.from('Hostile')]);
  const strings = cffEntries([]).subarray(0, 2);
  const globalSubrs = Buffer.from([0, 0]);
  const charStrings = cffEntries([Buffer.from([14]), Buffer.from([14]), Buffer.from([14])]);
  // The top DICT's length does not depend on the offsets it holds (five-byte integers).
  const topDictLength = cffEntries([Buffer.alloc(5 + 1 + 5 + 5 + 1)]).length;
  const charStringsAt = header.length + names.length + topDictLength + strings.length + globalSubrs.length;
  const privateAt = charStringsAt + charStrings.length;
  const topDict = cffEntries([Buffer.concat([cffInt(charStringsAt), Buffer.from([17]), cffInt(privateDict.length), cffInt(privateAt), Buffer.from([18])])]);
  const program = Buffer.concat([header, names, topDict, strings, globalSubrs, charStrings, privateDict, subrs]);
  return withFontProgram(program);
}

/**
 * A one-page document whose font is a CID-keyed CFF program (FontFile3, Type1C) with a damaged
 * font dictionary array: its 65,535 offsets alternate between the start and the end of one
 * `entryBytes`-long block of dictionary entries, so that half the font dictionaries are that
 * whole block. Reading every one of them reads 32,768 × `entryBytes` bytes of dictionaries from a
 * program of 131 KB + `entryBytes` (Flate compressed to a few KB). The page's text comes from the
 * font's encoding and does not need the program.
 */
export function cffFontDictBomb(entryBytes: number): Buffer {
  const fdOffsets = Array.from({ length: 65_536 }, (_, i) => (i % 2 === 0 ? 1 : entryBytes + 1));
  // Each entry: the operand 0 and the operator 0 (version).
  const fdArray = cffIndex(fdOffsets, Buffer.alloc(entryBytes, Buffer.from([139, 0])));
  const header = Buffer.from([1, 0, 4, 2]);
  const names = cffEntries([Buffer.from('Hostile')]);
  const strings = cffEntries([]).subarray(0, 2);
  const globalSubrs = Buffer.from([0, 0]);
  const charStrings = cffEntries([Buffer.from([14]), Buffer.from([14]), Buffer.from([14])]);
  // FDSelect format 3: one range, every glyph in font dictionary 0.
  const fdSelect = Buffer.from([3, 0, 1, 0, 0, 0, 0, 3]);
  // ROS, CharStrings, FDArray, FDSelect: the top DICT's length does not depend on the offsets (five-byte integers).
  const topDictLength = cffEntries([Buffer.alloc(17 + 6 + 7 + 7)]).length;
  const charStringsAt = header.length + names.length + topDictLength + strings.length + globalSubrs.length;
  const fdSelectAt = charStringsAt + charStrings.length;
  const fdArrayAt = fdSelectAt + fdSelect.length;
  const topDict = cffEntries([
    Buffer.concat([
      cffInt(0), cffInt(0), cffInt(0), Buffer.from([12, 30]),
      cffInt(charStringsAt), Buffer.from([17]),
      cffInt(fdArrayAt), Buffer.from([12, 36]),
      cffInt(fdSelectAt), Buffer.from([12, 37]),
    ]),
  ]);
  const program = Buffer.concat([header, names, topDict, strings, globalSubrs, charStrings, fdSelect, fdArray]);
  return withFontProgram(program);
}

/**
 * A one-page document whose font's ToUnicode map has, beside the range that maps its text, a
 * range of `codes` four-byte codes (outside its one-byte code space) in under a hundred bytes.
 */
export function toUnicodeRangeBomb(codes: number): Buffer {
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Hostile-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `2 beginbfrange <20> <7e> <0020> <${hex(0x1000000)}> <${hex(0x1000000 + codes - 1)}> <00410042> endbfrange`,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('BT /F1 12 Tf 20 250 Td (A damaged text map) Tj ET')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>',
    streamObject('', Buffer.from(cmap, 'latin1')),
  ]);
}

/**
 * A Thai word and, as a text object of its own in a second font, a vowel mark over it, both under
 * a text matrix that squeezes the baseline to nothing (`0 0 0 1 Tm`): glyphs with a height and no
 * advance, that an engine must still give a finite box. Helvetica's codes A, B, C are mapped to
 * ก, the mark ิ and น by a ToUnicode map.
 */
export function squeezedThai(): Buffer {
  const cmap = Buffer.from(
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def 1 begincodespacerange <00> <FF> endcodespacerange\n' +
      '3 beginbfchar <41> <0E01> <42> <0E34> <43> <0E19> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  );
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>';
  const content = 'BT /F1 12 Tf 0 0 0 1 57 100 Tm (AC) Tj ET BT /F2 12 Tf 0 0 0 1 57 100 Tm (B) Tj ET BT /F1 12 Tf 20 150 Td (ACAC) Tj ET';
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from(content)),
    font,
    font,
    streamObject('', cmap),
  ]);
}
