/**
 * A document's limits: what it may decode and keep in memory (a Flate bomb ends out-of-memory with
 * the process's memory under the limit plus a fixed overhead, and the next document is read), and
 * the pool's last defence, a worker whose memory runs away outside its heap.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parsePool } from '../../../lib/run/parse-pool.js';
import { DEFAULTS } from '../../../stages/parse.js';
import type { PdfRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { parseLines, run, samplePdf } from '../../helpers.js';
import { cffFontDictBomb, cffSubroutineBomb, flateBomb, pageTreeBomb, textPage, toUnicodeRangeBomb } from '../../hostile-pdfs.js';
import { analysisChain } from '../../../lib/run/extract.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-limits-'));
const MEMORY_MIB = 128;
/**
 * What the process needs beside the document's memory: Node, both engines' code and PDFium's
 * heap beside pdf.js's (auto reads with both), the stages. Measured on the Flate bomb: pdf.js
 * 156 MiB in all, PDFium 240, auto 312; on the font and map bombs pdf.js 163, PDFium 103 (pdf.js
 * took 230 MiB more when it loaded its native canvas as it was imported). Code that expanded what
 * these files ask for took 1.4 GiB and more.
 */
const OVERHEAD_MIB = 320;
/** Prints the process's peak resident memory (KiB) on stderr as it exits. */
const REPORT_PEAK = `--import=${new URL('../../../bench/usage-report.js', import.meta.url).href}`;

t.test('a Flate bomb (a 13 KB file that inflates to 1 GiB) ends out-of-memory under --memory + overhead, and the next document is read', async (t) => {
  const bomb = join(dir, 'bomb.pdf');
  writeFileSync(bomb, await flateBomb(1024 * 1024 * 1024));
  const next = join(dir, 'next.pdf');
  writeFileSync(next, textPage('The next document'));
  for (const engine of ['pdfjs', 'pdfium', 'auto']) {
    const result = await run(['parse', '--engine', engine, '--jobs', '1', '--memory', String(MEMORY_MIB), bomb, next], undefined, [REPORT_PEAK]);
    const outcomes = parseLines(result.stdout).filter((r) => r.type === 'end' || r.type === 'error');
    t.same(outcomes.map((r) => `${r.type === 'end' || r.type === 'error' ? r.doc : ''}:${r.type === 'error' ? r.code : r.type}`), ['bomb:out-of-memory', 'next:end'], `${engine}: the bomb is out-of-memory, the next document ends`);
    const peakMib = Number(/peak-rss (\d+)/u.exec(result.stderr)?.[1] ?? Infinity) / 1024;
    t.ok(peakMib < MEMORY_MIB + OVERHEAD_MIB, `${engine}: peak memory ${Math.round(peakMib)} MiB < ${MEMORY_MIB} + ${OVERHEAD_MIB} MiB`);
  }
});

t.test('a 2 KB file whose font program repeats one block of its subroutine index 32,768 times is read in bounded memory, its text kept', async (t) => {
  const bomb = join(dir, 'font-bomb.pdf');
  writeFileSync(bomb, cffSubroutineBomb(2048));
  // The default memory limit: the rewrite of the font (64 MiB of entries, eight bytes of heap
  // each) would fit under it, and took the process past 1.7 GiB.
  for (const engine of ['pdfjs', 'pdfium']) {
    const result = await run(['parse', '--engine', engine, '--jobs', '1', bomb], undefined, [REPORT_PEAK]);
    t.match(result.stdout, /"text":"damaged".*"text":"program"/u, `${engine}: the page's text is read`);
    const peakMib = Number(/peak-rss (\d+)/u.exec(result.stderr)?.[1] ?? Infinity) / 1024;
    t.ok(peakMib < OVERHEAD_MIB, `${engine}: peak memory ${Math.round(peakMib)} MiB < ${OVERHEAD_MIB} MiB`);
  }
});

t.test('a 1 KB file whose ToUnicode map has a range of 4 million codes is read in bounded memory, its text kept', async (t) => {
  const bomb = join(dir, 'map-bomb.pdf');
  writeFileSync(bomb, toUnicodeRangeBomb(4 * 1024 * 1024));
  for (const engine of ['pdfjs', 'pdfium']) {
    const result = await run(['parse', '--engine', engine, '--jobs', '1', bomb], undefined, [REPORT_PEAK]);
    t.match(result.stdout, /"text":"damaged".*"text":"map"/u, `${engine}: the page's text is read`);
    const peakMib = Number(/peak-rss (\d+)/u.exec(result.stderr)?.[1] ?? Infinity) / 1024;
    t.ok(peakMib < OVERHEAD_MIB, `${engine}: peak memory ${Math.round(peakMib)} MiB < ${OVERHEAD_MIB} MiB`);
  }
});

t.test('a worker whose memory runs away outside its heap is recycled: its document is out-of-memory, the next one ends', async (t) => {
  const workerUrl = new URL('../../crashing-worker.js', import.meta.url);
  const records: PipeRecord[] = [];
  await new Promise<void>((resolve, reject) => {
    Readable.from(['hog-1', 'ok-1'].map((id): PdfRecord => ({ type: 'pdf', id, path: samplePdf('letter-spaced') })))
      .pipe(parsePool({ ...DEFAULTS, jobs: 1, memory: 64, timeout: 30 }, { workerUrl }))
      .pipe(new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { records.push(r); done(); } }))
      .on('finish', resolve)
      .on('error', reject);
  });
  const outcomes = records.filter((r) => r.type === 'end' || r.type === 'error');
  t.same(outcomes.map((r) => `${r.type === 'end' || r.type === 'error' ? r.doc : ''}:${r.type === 'error' ? r.code : r.type}`), ['hog-1:out-of-memory', 'ok-1:end']);
});

t.test('a page tree of 200,000 references to one page: --max-pages pages are read, then a warning and the end', async (t) => {
  const tree = join(dir, 'tree.pdf');
  writeFileSync(tree, pageTreeBomb(200_000));
  for (const engine of ['pdfjs', 'pdfium']) {
    const result = await run(['parse', '--engine', engine, '--jobs', '1', '--max-pages', '40', tree]);
    const records = parseLines(result.stdout);
    t.equal(records.filter((r) => r.type === 'page').length, 40, `${engine}: 40 pages`);
    const warning = records.find((r) => r.type === 'diagnostic' && r.code === 'pages-left-unread');
    t.ok(warning, `${engine}: a warning says the rest were left unread`);
    t.equal(records[records.length - 1]?.type, 'end', `${engine}: the document ends`);
  }
});

t.test('with one job, the stages after parse run inside the parse worker, under its time and memory limits', async (t) => {
  t.equal(analysisChain({ jobs: 1 }).length, 1, 'the chain is the parse pool alone');
});

t.test('a 2 KB file whose font program holds 32,768 font dictionaries that each span 32 KB of it is read, its text kept', async (t) => {
  const bomb = join(dir, 'font-dict-bomb.pdf');
  writeFileSync(bomb, cffFontDictBomb(32_768));
  // Read whole, the dictionaries are a gigabyte: minutes of work, past any time limit. Bounded by
  // the program's length, they take well under a second.
  for (const engine of ['pdfjs', 'pdfium']) {
    const result = await run(['parse', '--engine', engine, '--jobs', '1', '--timeout', '30', bomb]);
    const outcomes = parseLines(result.stdout).filter((r) => r.type === 'end' || r.type === 'error');
    t.match(outcomes, [{ type: 'end' }], `${engine}: the document ends`);
    t.match(result.stdout, /"text":"damaged".*"text":"program"/u, `${engine}: the page's text is read`);
  }
});
