/**
 * Hostile PDFs for the reliability tests, built in memory (some would be large on disk): a Flate
 * bomb, a page tree of a million references, a circular page tree, deep nesting. Each is a valid
 * file in its syntax (objects, cross-reference table, trailer), so that both engines read it as
 * far as its trap.
 */
import { createDeflate, deflateSync } from 'node:zlib';

/** A PDF from its objects' bodies (object i + 1 is `bodies[i]`), with a correct xref table; object 1 is the catalog. */
export function pdfFromObjects(bodies: readonly (string | Buffer)[]): Buffer {
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
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
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
