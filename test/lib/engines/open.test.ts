/**
 * Opening a document: a page range (pdftotext's -f and -l) and the password of an encrypted PDF,
 * under both engines, from the command line.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptedTextPage } from '../../encrypted-pdfs.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import { parseLines, repoRoot, run, samplePdf, wildFile } from '../../helpers.js';

const encrypted = join(repoRoot, 'test/data/encrypted/one-column-secret.pdf');
const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-open-'));

t.test('-f/-l: a page range, the pages keeping their numbers, under both engines', async (t) => {
  const cases = ['pdfium', 'pdfjs'].flatMap((engine) =>
    ([[['-f', '2', '-l', '3'], [2, 3]], [['--first-page', '3'], [3]], [['-l', '1'], [1]]] as const).map(([args, pages]) => ({ engine, args, pages })));
  const results = await Promise.all(cases.map(({ engine, args }) => run(['parse', '-q', '--engine', engine, ...args, samplePdf('paper')])));
  for (const [i, { engine, args, pages }] of cases.entries()) {
    const records = parseLines(results[i]!.stdout);
    t.same(records.filter((r) => r.type === 'page').map((r) => r.type === 'page' && r.page), pages, `${engine} ${args.join(' ')}`);
    t.equal(records.at(-1)?.type, 'end');
  }
  t.equal((await run(['parse', '-f', '3', '-l', '2', samplePdf('paper')])).code, 2, 'a last page before the first is a usage error');
});

t.test('--password, -upw, -opw open an encrypted PDF under both engines', async (t) => {
  for (const engine of ['pdfium', 'pdfjs']) {
    const none = await run(['extract', '--engine', engine, encrypted]);
    t.match(none.stderr, /password-required: .*--password/, `${engine}: without it, password-required saying how`);
    const given = [['--password', 'secret'], ['-upw', 'secret'], ['-opw', 'owner']];
    const results = await Promise.all(given.map((args) => run(['extract', '-q', '--engine', engine, ...args, encrypted])));
    for (const [i, args] of given.entries()) t.match(results[i]!.stdout, /A Morning at the Harbour Market/, `${engine} ${args[0]}`);
    const wrong = await run(['extract', '--engine', engine, '--password', 'wrong', encrypted]);
    t.match(wrong.stderr, /password-required: The PDF is encrypted, and the password given does not open it/, `${engine}: a wrong password`);
  }
});


t.test('an empty owner password opens the document without a password, as poppler and qpdf open it', async (t) => {
  const text = 'Tide tables for the north quay';
  const files: string[] = [];
  for (const revision of [4, 6] as const) {
    for (const [name, owner] of [['empty-owner', ''], ['own-owner', 'pilot']] as const) {
      files.push(join(dir, `${name}-r${revision}.pdf`));
      writeFileSync(files.at(-1)!, encryptedTextPage(text, { owner, user: 'harbour' }, revision));
    }
  }
  /** Each document's records, by id, as `parse` reads all four. */
  const parse = async (args: readonly string[]): Promise<Map<string, PipeRecord[]>> => {
    const byDoc = new Map<string, PipeRecord[]>();
    for (const record of parseLines((await run(['parse', '-q', '--ocr', 'never', ...args, ...files])).stdout)) {
      const id = record.type === 'doc' ? record.id : 'doc' in record ? record.doc : null;
      if (id) byDoc.set(id, [...(byDoc.get(id) ?? []), record]);
    }
    return byDoc;
  };
  /** The words of a document's page, or null when it has none. */
  const words = (records: readonly PipeRecord[] | undefined): string | null => {
    const page = records?.find((r) => r.type === 'page');
    return page?.type === 'page' ? (page.items ?? []).map((item) => item.text).join(' ') : null;
  };
  for (const engine of ['auto', 'pdfjs']) {
    const [none, user, owner] = await Promise.all([[], ['--password', 'harbour'], ['--password', 'pilot']].map((password) => parse(['--engine', engine, ...password])));
    for (const revision of [4, 6]) {
      const emptyOwner = `empty-owner-r${revision}`;
      const ownOwner = `own-owner-r${revision}`;
      const opened = none!.get(emptyOwner) ?? [];
      t.equal(words(opened), text, `R${revision} ${engine}: read without a password`);
      t.match(opened.find((r) => r.type === 'diagnostic'), { severity: 'warning', code: 'empty-owner-password' }, `R${revision} ${engine}: a warning says how it opened`);
      t.equal(opened.at(-1)?.type, 'end');
      t.match(none!.get(ownOwner), [{ type: 'error', code: 'password-required', message: /--password/ }], `R${revision} ${engine}: with an owner password of its own, the user password is needed`);
      for (const id of [emptyOwner, ownOwner]) t.equal(words(user!.get(id)), text, `R${revision} ${engine}: the user password opens ${id}`);
      t.equal(words(owner!.get(ownOwner)), text, `R${revision} ${engine}: the owner password opens it`);
      t.match(owner!.get(emptyOwner), [{ type: 'error', code: 'password-required', message: /the password given does not open it/ }], `R${revision} ${engine}: a wrong password given is not replaced by the empty one`);
    }
  }
  // PDFium tries a password as owner password only when one is given; --engine auto hands the document to pdf.js.
  const pdfium = parseLines((await run(['parse', '-q', '--engine', 'pdfium', files[0]!])).stdout);
  t.match(pdfium, [{ type: 'error', code: 'password-required' }], 'pdfium alone: password-required');
});

t.test("pdf.js's pr6531_2.pdf (Bluebeam, R6, empty owner password) opens without its user password; pr6531_1.pdf still needs it", async (t) => {
  const emptyOwner = wildFile('pdfjs__pr6531_2.pdf');
  const userOnly = wildFile('pdfjs__pr6531_1.pdf');
  await t.test('pr6531_2', { skip: emptyOwner.skip }, async (t) => {
    t.equal((await run(['extract', '-q', emptyOwner.path])).stdout, 'Bluebeam should be encrypting this.\n');
  });
  await t.test('pr6531_1', { skip: userOnly.skip }, async (t) => {
    t.match((await run(['extract', userOnly.path])).stderr, /password-required/);
    // Its one page is a picture: opened, it ends well, without text.
    const records = parseLines((await run(['parse', '-q', '--ocr', 'never', '--password', 'asdfasdf', userOnly.path])).stdout);
    t.match(records.at(-1), { type: 'end', stats: { pages: 1 } });
  });
});
