/**
 * Output names: every document of a run gets its own file (a/doc.pdf and b/doc.pdf are two
 * documents), named safely for POSIX, HDFS and Windows, inside the output folder; a file the
 * system refuses is that document's failure, and the run goes on.
 */
import t from 'tap';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputFileName } from '../../../lib/formats/ids.js';
import { withIds } from '../../../lib/run/inputs.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import { block, docRecord, endRecord, pageRecord, parseLines, run, samplePdf, toNdjson } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-ids-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('outputFileName: safe on every file system, bounded, unique, inside the folder', async (t) => {
  t.equal(outputFileName('report', 'txt'), 'report.txt', 'a plain id is its own name');
  t.equal(outputFileName('sub/report', 'txt'), 'sub/report.txt', 'a folder below the input folder is kept');
  const warc = outputFileName('urn:uuid:0b7c3e2a-1111-4c4c-9d9d-123456789abc', 'xml');
  t.match(warc, /^urn_uuid_0b7c3e2a-1111-4c4c-9d9d-123456789abc-[0-9a-f]{8}\.xml$/, 'no colon (HDFS, Windows)');
  t.not(outputFileName('a:b', 'txt'), outputFileName('a_b', 'txt'), 'a changed name does not meet the one it became');
  t.notMatch(outputFileName('nul\u0000byte', 'txt'), /\u0000/, 'no NUL');
  t.equal(outputFileName(42, 'txt'), '42.txt', 'a numeric id');
  t.match(outputFileName('CON', 'txt'), /^_CON-[0-9a-f]{8}\.txt$/, 'a Windows device name');
  const long = outputFileName('é'.repeat(200), 'html');
  t.ok(Buffer.byteLength(long) <= 255, `a 400-byte id is cut to ${Buffer.byteLength(long)} bytes with its extension`);
  t.not(long, outputFileName('é'.repeat(201), 'html'), 'and two long ids stay apart');
  for (const id of ['../../etc/passwd', '..', '/abs/path', 'a/../../b', '..\\..\\win']) {
    const name = outputFileName(id, 'txt');
    t.notOk(name.split('/').some((part) => part === '..' || part === '.' || part === ''), `${id} → ${name} stays inside`);
  }
});

t.test('withIds: a second document with the same id gets a hashed one, the first keeps its name', async (t) => {
  async function* source(): AsyncGenerator<PipeRecord> {
    yield { type: 'pdf', path: 'a/doc.pdf' };
    yield { type: 'pdf', path: 'b/doc.pdf' };
    yield { type: 'pdf', id: 'urn:uuid:x', data: '' };
    yield { type: 'pdf', id: 'urn:uuid:x', data: '' };
  }
  const ids: string[] = [];
  for await (const r of withIds(source())) if (r.type === 'pdf') ids.push(r.id!);
  t.equal(ids[0], 'doc');
  t.match(ids[1], /^doc-[0-9a-f]{8}$/);
  t.equal(ids[2], 'urn:uuid:x');
  t.match(ids[3], /^urn:uuid:x-[0-9a-f]{8}$/);
  const again: string[] = [];
  for await (const r of withIds(source())) if (r.type === 'pdf') again.push(r.id!);
  t.same(again, ids, 'the same inputs give the same ids');
});

t.test('extract: a pdf record with a numeric id is written under that number', async (t) => {
  const out = join(dir, 'numeric');
  const result = await run(['extract', '--quiet', '--out-dir', out], JSON.stringify({ type: 'pdf', id: 42, path: samplePdf('one-column') }) + '\n');
  t.equal(result.code, 0);
  t.same(readdirSync(out), ['42.txt']);
});

t.test('extract: a/doc.pdf and b/doc.pdf give two outputs', async (t) => {
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  copyFileSync(samplePdf('one-column'), join(dir, 'a/doc.pdf'));
  copyFileSync(samplePdf('cjk'), join(dir, 'b/doc.pdf'));
  const out = join(dir, 'out');
  const result = await run(['extract', '--quiet', '--out-dir', out, join(dir, 'a/doc.pdf'), join(dir, 'b/doc.pdf')]);
  t.equal(result.code, 0);
  const files = readdirSync(out).sort();
  t.equal(files.length, 2, files.join(', '));
  const texts = files.map((f) => readFileSync(join(out, f), 'utf8'));
  t.ok(texts.some((s) => s.includes('A Morning at the Harbour Market')) && texts.some((s) => /城市/.test(s)), 'both documents');
});

t.test('serialize --out-dir: hostile ids are written safely; a file the system refuses fails that document only', async (t) => {
  const out = join(dir, 'hostile');
  mkdirSync(out);
  writeFileSync(join(out, 'blocked'), 'a file where a folder is needed');
  const long = 'x'.repeat(255);
  const ids = ['urn:uuid:1234', 'nul\u0000id', long, 'blocked/inner', 'last'];
  const records = ids.flatMap((id) => [docRecord(id), pageRecord(id, 1, { blocks: [block(`Text of ${id.slice(0, 8)}.`)] }), endRecord(id)]);
  const result = await run(['serialize', '--out-dir', out], toNdjson(records));
  t.equal(result.code, 0, 'the run completes');
  t.match(result.stderr, /blocked\/inner: write-failed: Cannot write/, 'the refused file is that document\'s error');
  const files = readdirSync(out).sort();
  t.ok(files.includes('last.txt'), 'the document after it is written');
  t.ok(files.some((f) => f.startsWith('urn_uuid_1234-')), 'the WARC id, without colons');
  t.ok(files.some((f) => f.startsWith('xxxx') && Buffer.byteLength(f) <= 255), 'the 255-character id, cut to fit');
  t.notOk(files.some((f) => f.includes('\u0000') || f.endsWith('.partial')), 'no NUL, no partial file');
  t.equal(files.length, 5, 'every document but the refused one, and the blocking file');
  t.notOk(existsSync(join(dir, 'last.txt')));
});

t.test('extract --out-dir: a write failure is counted in the summary and the resume state retries it', async (t) => {
  const out = join(dir, 'counted');
  mkdirSync(join(out, 'one-column.txt'), { recursive: true });
  const state = join(dir, 'counted.state');
  const result = await run(['extract', '--out-dir', out, '--resume', state, samplePdf('one-column'), samplePdf('cjk')]);
  t.equal(result.code, 0);
  t.match(result.stderr, /2 documents \((end 1, write-failed 1|write-failed 1, end 1)\)/);
  const entries = parseLines(readFileSync(state, 'utf8')) as unknown as { id?: string; code?: string }[];
  t.ok(entries.some((e) => e.id === 'one-column' && e.code === 'write-failed'), 'recorded as failed, so a resume retries it');
});
