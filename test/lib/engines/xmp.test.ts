/**
 * XMP found by scanning a PDF's bytes (lib/engines/xmp.ts), the metadata of the PDFium engine: the
 * properties as pdf.js gives them, the last packet of the file, a bounded scan of a hostile packet,
 * and the same title and creator as pdf.js on the ground-truth PDFs that carry XMP.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { xmpFromPdfBytes, xmpProperties } from '../../../lib/engines/xmp.js';
import { parseLines, run, sharedRoot } from '../../helpers.js';
import type { DocRecord } from '../../../lib/protocol/records.js';

const packet = (body: string): string =>
  `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${body}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

t.test('properties: text, lists joined by "; ", entities decoded, attributes and rdf: elements left out', async (t) => {
  const props = xmpProperties(
    packet(`<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" pdf:Producer="attribute, not read">
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Field notes &amp; sketches</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>Ada</rdf:li><rdf:li>Grace</rdf:li></rdf:Seq></dc:creator>
      <pdf:Keywords>birds, &#x3b1;lps</pdf:Keywords>
      <dc:description/>
    </rdf:Description>`),
  );
  t.same(props, { 'dc:title': 'Field notes & sketches', 'dc:creator': 'Ada; Grace', 'pdf:keywords': 'birds, αlps', 'dc:description': '' });
});

t.test('the last packet of the file is read; none, or one never closed, gives {}', async (t) => {
  const older = packet('<rdf:Description><dc:title>Old</dc:title></rdf:Description>');
  const newer = packet('<rdf:Description><dc:title>New</dc:title></rdf:Description>');
  t.same(xmpFromPdfBytes(Buffer.from(`%PDF-1.7\n${older}\nendstream\n${newer}\n%%EOF`)), { 'dc:title': 'New' });
  t.same(xmpFromPdfBytes(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF')), {});
  t.same(xmpFromPdfBytes(Buffer.from('%PDF-1.7\n<x:xmpmeta><rdf:RDF><rdf:Description><dc:title>cut')), {});
});

t.test('a packet of unclosed elements: the scan stops after a bounded number of them (tap\'s timeout would catch a quadratic one)', async (t) => {
  const title = '<dc:title>Found</dc:title>';
  const few = packet(`<rdf:Description>${'<a:b>'.repeat(100)}${title}</rdf:Description>`);
  t.same(xmpFromPdfBytes(Buffer.from(`%PDF-1.7\n${few}`)), { 'dc:title': 'Found' }, 'past 100 unclosed elements the title is found');
  const many = packet(`<rdf:Description>${'<a:b>'.repeat(40_000)}${title}</rdf:Description>`);
  t.same(xmpFromPdfBytes(Buffer.from(`%PDF-1.7\n${many}`)), {}, 'past 40,000 the scan has stopped');
});

const gtDir = join(sharedRoot, 'corpus/gt');
t.test('PDFium gives the title and creator tool pdf.js reads from the XMP of the ground-truth PDFs', { skip: existsSync(gtDir) ? false : `${gtDir} is not available (no ../shared corpus)` }, async (t) => {
  const withXmp = readdirSync(gtDir).filter((f) => f.endsWith('.pdf') && readFileSync(join(gtDir, f)).includes('<x:xmpmeta'));
  t.ok(withXmp.length >= 3, `${withXmp.length} ground-truth PDFs carry an XMP packet`);
  for (const file of withXmp) {
    const [pdfjs, pdfium] = await Promise.all(['pdfjs', 'pdfium'].map((engine) => run(['parse', '--engine', engine, join(gtDir, file)])));
    const meta = (out: string) => (parseLines(out)[0] as DocRecord).meta.xmp ?? {};
    const [a, b] = [meta(pdfjs!.stdout), meta(pdfium!.stdout)];
    t.ok(a['dc:title'], `${file}: pdf.js reads a dc:title`);
    t.equal(b['dc:title'], a['dc:title'], `${file}: the same dc:title`);
    t.equal(b['xmp:creatortool'], a['xmp:creatortool'], `${file}: the same xmp:creatortool`);
  }
});
