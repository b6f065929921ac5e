/**
 * XMP metadata found by scanning a PDF's bytes, for engines that do not read the catalog's
 * /Metadata stream (PDFium). The XMP specification has writers keep the packet uncompressed and
 * wrapped in `<x:xmpmeta>` so that a scan finds it; the last packet in the file is taken, as an
 * incremental update appends the newer one. A compressed or missing packet gives no properties.
 *
 * The properties come out as pdf.js gives them: each element-valued property of an
 * rdf:Description, keyed by its lower-cased qualified name ("dc:title"), its value the text, or
 * the items of an rdf:Alt, rdf:Bag or rdf:Seq joined by "; ".
 */

const OPEN = Buffer.from('<x:xmpmeta');
const CLOSE = Buffer.from('</x:xmpmeta>');
/** A packet larger than this is no document metadata worth reading. */
const MAX_PACKET_BYTES = 256 * 1024;

/** At most this many descriptions and properties are read: a hostile packet cannot make the scan quadratic. */
const MAX_ELEMENTS = 500;
const OPEN_TAG = /<([A-Za-z_][\w.-]*:[\w.-]+)\b[^<>]*?(\/?)>/gu;
const LIST_ITEM = /<rdf:li\b[^<>]*>([^<]*(?:<(?!\/rdf:li>)[^<]*)*)<\/rdf:li>/gu;
const ENTITY = /&(?:#x([0-9a-f]+)|#(\d+)|(lt|gt|amp|quot|apos));/giu;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeText(raw: string): string {
  // Whitespace between elements is layout, as pdf.js's reader takes it.
  const text = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/gu, '$1').replace(/>\s+</gu, '><').replace(/<[^>]*>/gu, '');
  return text
    .replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      const code = hex ? parseInt(hex, 16) : dec ? parseInt(dec, 10) : -1;
      if (name) return NAMED[name.toLowerCase()] ?? whole;
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .trim();
}

/**
 * The element children of `xml` with their bodies, in order: `<a:b …>body</a:b>` and `<a:b/>`.
 * An element that is never closed is skipped.
 */
function* elements(xml: string): Generator<{ name: string; body: string }> {
  let count = 0;
  OPEN_TAG.lastIndex = 0;
  for (let open = OPEN_TAG.exec(xml); open !== null && count < MAX_ELEMENTS; open = OPEN_TAG.exec(xml), count++) {
    const name = open[1]!;
    const from = open.index + open[0].length;
    if (open[2] === '/') {
      yield { name, body: '' };
      continue;
    }
    const close = xml.indexOf(`</${name}>`, from);
    if (close < 0) continue;
    yield { name, body: xml.slice(from, close) };
    OPEN_TAG.lastIndex = close + name.length + 3;
  }
}

/** The properties of an XMP packet's text (see the file comment). */
export function xmpProperties(packet: string): Record<string, string> {
  const out: Record<string, string> = {};
  const descriptions = [...elements(packet.replace(/^[\s\S]*?<rdf:RDF\b[^>]*>/u, ''))].filter((e) => e.name === 'rdf:Description');
  for (const description of descriptions) {
    for (const property of [...elements(description.body)]) {
      const key = property.name.toLowerCase();
      if (key.startsWith('rdf:') || key.startsWith('x:')) continue;
      const items = [...property.body.matchAll(LIST_ITEM)].map((item) => decodeText(item[1] ?? '')).filter((v) => v !== '');
      out[key] = /<rdf:(?:Alt|Bag|Seq)\b/u.test(property.body) ? items.join('; ') : decodeText(property.body);
    }
  }
  return out;
}

/** The properties of the last uncompressed XMP packet in a PDF's bytes; {} when there is none. */
export function xmpFromPdfBytes(bytes: Uint8Array): Record<string, string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = buffer.lastIndexOf(OPEN);
  if (start < 0) return {};
  const end = buffer.indexOf(CLOSE, start);
  if (end < 0 || end - start > MAX_PACKET_BYTES) return {};
  try {
    return xmpProperties(new TextDecoder('utf-8').decode(buffer.subarray(start, end + CLOSE.length)));
  } catch {
    return {};
  }
}
