/**
 * The XML output (lib/formats/xml.ts, `serialize --format xml`, `extract --format xml`): escaping,
 * and every output validated against docs/pdfpipe.rng by a real validator, xmllint (Debian's
 * libxml2-utils). On the samples and, when ../shared is there, on every document of the gt and
 * arXiv corpora, with the arXiv titles checked against the ground truth's first block, and
 * `dir="rtl"` on the right-to-left paragraphs of samples/rtl-mixed and the gt documents.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorXml, escapeAttribute, escapeText, structureXml } from '../../../lib/formats/xml.js';
import { documentStructure } from '../../../lib/formats/structure.js';
import type { DocRecord, OutlineEntry } from '../../../lib/protocol/records.js';
import { block, docRecord, endRecord, pageRecord, repoRoot, run, samplePdf, sampleNames, sharedRoot, toNdjson } from '../../helpers.js';

// Extracting the 78 corpus documents takes about a minute on a loaded machine.
t.setTimeout(300_000);

const SCHEMA = join(repoRoot, 'docs/pdfpipe.rng');
const hasXmllint = spawnSync('xmllint', ['--version']).error === undefined;
const NO_XMLLINT = hasXmllint ? false : 'xmllint is not installed (Debian: apt-get install libxml2-utils); the XML is not validated';

const scratch = mkdtempSync(join(tmpdir(), 'pdfpipe-xml-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

/** Validates files against the schema; returns the files that failed, with xmllint's messages. */
function invalid(files: readonly string[]): string[] {
  if (files.length === 0) return [];
  const result = spawnSync('xmllint', ['--noout', '--relaxng', SCHEMA, ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ok = new Set(result.stderr.split('\n').filter((l) => l.endsWith(' validates')).map((l) => l.slice(0, -' validates'.length)));
  return files.filter((f) => !ok.has(f)).map((f) => `${f}: ${result.stderr.split('\n').filter((l) => l.startsWith(f)).join(' | ')}`);
}

let counter = 0;
/** Writes an XML string to a scratch file and validates it. */
function invalidText(xml: string): string[] {
  const file = join(scratch, `doc${++counter}.xml`);
  writeFileSync(file, xml);
  return invalid([file]);
}

t.test('escaping: markup, quotes, and characters XML 1.0 forbids', async (t) => {
  t.equal(escapeText('a < b && c > d ]]>'), 'a &lt; b &amp;&amp; c &gt; d ]]&gt;');
  t.equal(escapeText('bell\u0007 nul\u0000 tab\t esc\u001b'), 'bell\uFFFD nul\uFFFD tab\t esc\uFFFD');
  t.equal(escapeText('lone \uD800 high, \uDC00 low, \uFFFE \uFFFF'), 'lone \uFFFD high, \uFFFD low, \uFFFD \uFFFD');
  t.equal(escapeText('pair 😀 kept'), 'pair 😀 kept');
  t.equal(escapeAttribute('say "hi"\n\tnow & <then>'), 'say &quot;hi&quot;&#10;&#9;now &amp; &lt;then&gt;');
});

t.test('hostile text, ids and metadata still give a valid document', { skip: NO_XMLLINT }, async (t) => {
  const outline: OutlineEntry[] = [{ title: 'Part <1> & "more"\u0001', page: 1, children: [{ title: 'Deep\uD800', page: 1, children: [] }] }];
  const doc: DocRecord = {
    ...docRecord('evil"<id>&\u0002'),
    meta: { ...docRecord('x').meta, info: { Title: 'Title with \u0000 NUL & <tags>', Author: 'A. Person <a@example.org>' }, lang: 'en"x', outline },
  };
  const pages = [
    pageRecord(doc.id, 1, {
      blocks: [
        block('Part <1> & "more"', { role: 'heading', size: 16 }),
        block('Body with ]]> and \u000b vertical tab and \uFFFF.', { box: { x: Number.NaN, y: 1, w: 2, h: 3 } }),
        block('Deep', { role: 'heading', size: 14 }),
        block('1', { role: 'page-number' }),
      ],
    }),
  ];
  const xml = structureXml(documentStructure(doc, pages));
  t.same(invalidText(xml), []);
  t.notMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/u, 'no control character left');
  t.match(xml, /<info from="layout">\n\s*<title>Part &lt;1&gt; &amp; "more"<\/title>/u, 'an Info title with a NUL in it is not believed');
  t.match(xml, /<author>A\. Person<\/author>\n\s*<email>a@example\.org<\/email>/u);
  t.match(xml, /<article id="evil&quot;&lt;id&gt;&amp;\uFFFD"/u);
});

t.test('a failed document is a valid article with its error', { skip: NO_XMLLINT }, async (t) => {
  const xml = errorXml(null, { type: 'error', doc: 'broken', code: 'corrupt', message: 'The PDF structure is invalid: <xref> & co', stage: 'parse' });
  t.same(invalidText(xml), []);
  t.match(xml, /<error code="corrupt" stage="parse">The PDF structure is invalid: &lt;xref&gt; &amp; co<\/error>/);
});

t.test('serialize --format xml: one XML document per input, form feeds between them on stdout', { skip: NO_XMLLINT }, async (t) => {
  const input = toNdjson([
    docRecord('first'),
    pageRecord('first', 1, { blocks: [block('A Short Title', { size: 18 }), block('One paragraph of text about the harbour.')] }),
    endRecord('first'),
    docRecord('broken'),
    { type: 'error', doc: 'broken', code: 'corrupt', message: 'The PDF structure is invalid', stage: 'parse' },
    docRecord('second'),
    pageRecord('second', 1, { blocks: [block('Another paragraph.')] }),
    endRecord('second'),
  ]);
  const result = await run(['serialize', '--format', 'xml'], input);
  t.equal(result.code, 0, 'completed: exit 0, the failure is in its outcome record');
  const parts = result.stdout.split('\f\n');
  t.equal(parts.length, 3);
  const files = parts.map((xml, i) => {
    const file = join(scratch, `stdout${i}.xml`);
    writeFileSync(file, xml);
    return file;
  });
  t.same(invalid(files), []);
  t.match(parts[0], /<info from="layout">\n\s*<title>A Short Title<\/title>/);
  t.match(parts[1], /status="error"/);
  t.match(result.stderr, /broken: corrupt/);

  const out = join(scratch, 'out');
  const written = await run(['serialize', '--format', 'xml', '--out-dir', out], input);
  t.equal(written.stdout, '');
  t.same(readdirSync(out).sort(), ['broken.xml', 'first.xml', 'second.xml']);
  t.same(invalid(readdirSync(out).map((f) => join(out, f))), []);
});

t.test('extract --format xml on every sample: valid, with the title and ids of the blocks', { skip: NO_XMLLINT }, async (t) => {
  const out = join(scratch, 'samples');
  const result = await run(['extract', '--format', 'xml', '--out-dir', out, ...sampleNames.map(samplePdf)]);
  t.equal(result.code, 0, result.stderr);
  const files = sampleNames.map((n) => join(out, `${n}.xml`));
  t.same(invalid(files), []);
  const runningHeader = readFileSync(join(out, 'running-header.xml'), 'utf8');
  // From samples/src/running-header.html: <h1> is the title, the one <h2> the only section.
  t.match(runningHeader, /<info from="info">\n\s*<title>Spring Survey of the Millbrook Ponds<\/title>/);
  t.match(runningHeader, /<section id="section1" level="1" from="layout" page="2">\n\s*<title id="page2p5"[^>]*>Problems and suggestions<\/title>/);
  t.match(runningHeader, /<para id="page1p1" role="header" page="1"/, 'furniture is kept with its role');
  t.equal((runningHeader.match(/<section /g) ?? []).length, 1);
  const cjk = readFileSync(join(out, 'cjk.xml'), 'utf8');
  t.match(cjk, /<keyword>\p{Script=Han}+<\/keyword>/u, 'Chinese paragraphs get Chinese keywords');
  // Hebrew paragraphs are marked right to left, the English one is not.
  const paras = [...readFileSync(join(out, 'rtl-mixed.xml'), 'utf8').matchAll(/<para ([^>]*)>[^]*?<text>([^<]*)<\/text>/gu)].map((m) => ({ attrs: m[1]!, text: m[2]! }));
  const hebrew = paras.filter((p) => /^[\u0590-\u05ff]/u.test(p.text));
  t.ok(hebrew.length >= 4 && hebrew.every((p) => /lang="he" dir="rtl"/u.test(p.attrs)), `${hebrew.length} Hebrew paragraphs with dir="rtl"`);
  t.same(paras.filter((p) => /^[A-Za-z]/u.test(p.text)).map((p) => /dir=/u.test(p.attrs)), [false], 'one English paragraph, without dir');
});

const corpus = (name: string): { dir: string; skip: string | false } => {
  const dir = join(sharedRoot, 'corpus', name);
  if (!existsSync(dir)) return { dir, skip: `${dir} is not available (no ../shared corpus)` };
  return { dir, skip: NO_XMLLINT };
};

for (const name of ['gt', 'arxiv']) {
  const { dir, skip } = corpus(name);
  t.test(`every document of ../shared/corpus/${name} gives valid XML`, { skip }, async (t) => {
    const out = join(scratch, name);
    const result = await run(['extract', '--format', 'xml', '--out-dir', out, dir]);
    const pdfs = readdirSync(dir).filter((f) => f.endsWith('.pdf'));
    const files = pdfs.map((f) => join(out, f.replace(/\.pdf$/, '.xml')));
    t.same(files.filter((f) => !existsSync(f)), [], 'one XML file per PDF');
    t.same(invalid(files.filter((f) => existsSync(f))), [], result.stderr);
    if (name === 'gt') {
      // Right-to-left paragraphs in the documents with the rtl feature, and nowhere else.
      for (const pdf of pdfs) {
        const rtl = ((JSON.parse(readFileSync(join(dir, pdf.replace(/\.pdf$/, '.json')), 'utf8')) as { features?: string[] }).features ?? []).includes('rtl');
        const marked = (readFileSync(join(out, pdf.replace(/\.pdf$/, '.xml')), 'utf8').match(/<para [^>]*dir="rtl"/gu) ?? []).length;
        t.ok(rtl ? marked > 0 : marked === 0, `${pdf}: ${marked} paragraphs with dir="rtl"`);
      }
      // Its Info title and its XMP dc:title are both the file name (../shared/corpus/gt/zh-chromium-gs.pdf).
      const xml = readFileSync(join(out, 'zh-chromium-gs.xml'), 'utf8');
      t.match(xml, /<info from="layout">/);
      t.match(xml, /Info dictionary's was not used because it is the file name, the XMP metadata's because it is the file name/);
    }
    if (name !== 'arxiv') return;
    // The title against the ground truth's first block, compared on letters and digits. Two of
    // the fifteen truths start with a block of theorem names from the TeX preamble, not the title.
    const key = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    let matches = 0;
    for (const pdf of pdfs) {
      const stem = pdf.replace(/\.pdf$/, '');
      const truth = readFileSync(join(dir, `${stem}.body.txt`), 'utf8').split(/\n\s*\n/u)[0] ?? '';
      const title = /<info[^>]*>\n\s*<title>([^<]*)<\/title>/u.exec(readFileSync(join(out, `${stem}.xml`), 'utf8'))?.[1] ?? '';
      if (key(title.replace(/&amp;/g, '&')) === key(truth)) matches += 1;
    }
    t.ok(matches >= 13, `titles matching the truth: ${matches} of ${pdfs.length}`);
  });
}
