/**
 * serialize on hand-built blocks: which blocks reach the text, how paragraphs are separated and
 * run-on paragraphs joined, and --out-dir writing one file per document (empty for a failure).
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentText } from '../../stages/serialize.js';
import type { PageRecord } from '../../lib/protocol/records.js';
import { block, docRecord, endRecord, pageRecord, run, toNdjson } from '../helpers.js';

/** Two pages with a header, page numbers and a footnote around the body. */
function pages(): PageRecord[] {
  return [
    pageRecord('s', 1, {
      blocks: [
        block('Field Notes — Spring Survey', { role: 'header' }),
        block('Spring Survey', { role: 'heading' }),
        block('The first paragraph.'),
        block('1 Counted twice.', { role: 'footnote' }),
        block('1', { role: 'page-number' }),
      ],
    }),
    pageRecord('s', 2, {
      blocks: [
        block('Field Notes — Spring Survey', { role: 'header' }),
        block('The second   paragraph,\nwith odd whitespace.'),
        block('Page 2 of 2', { role: 'footer' }),
      ],
    }),
  ];
}

t.test('headers, footers and page numbers are dropped by default; footnotes come after the body', async (t) => {
  t.equal(documentText(pages()), 'Spring Survey\nThe first paragraph.\nThe second paragraph, with odd whitespace.\n1 Counted twice.\n');
});

t.test('keepFurniture keeps them, in place', async (t) => {
  const text = documentText(pages(), { keepFurniture: true });
  t.equal(
    text,
    [
      'Field Notes — Spring Survey',
      'Spring Survey',
      'The first paragraph.',
      '1',
      'Field Notes — Spring Survey',
      'The second paragraph, with odd whitespace.',
      'Page 2 of 2',
      '1 Counted twice.',
    ].join('\n') + '\n',
  );
});

t.test('blankLines separates paragraphs with one blank line', async (t) => {
  const text = documentText(pages(), { blankLines: true });
  t.equal(text, 'Spring Survey\n\nThe first paragraph.\n\nThe second paragraph, with odd whitespace.\n\n1 Counted twice.\n');
  t.notMatch(text, /\n\n\n/);
});

t.test('a paragraph that continues is joined to the one before it, across pages', async (t) => {
  const text = documentText([
    pageRecord('c', 1, { blocks: [block('Searching by torchlight is slow, and the team'), block('1', { role: 'page-number' })] }),
    pageRecord('c', 2, {
      blocks: [block('agreed to start earlier.', { continues: true }), block('A new paragraph.')],
    }),
  ]);
  t.equal(text, 'Searching by torchlight is slow, and the team agreed to start earlier.\nA new paragraph.\n');
});

t.test('a continued paragraph broken at a hyphen is joined into one word', async (t) => {
  const text = documentText([
    pageRecord('h', 1, { blocks: [block('the average exam-')] }),
    pageRecord('h', 2, { blocks: [block('ple of a join', { continues: true })] }),
  ]);
  t.equal(text, 'the average example of a join\n');
});

t.test('a continued CJK paragraph is joined without a space', async (t) => {
  const text = documentText([
    pageRecord('z', 1, { blocks: [block('这只是少数退休老人打发时间')] }),
    pageRecord('z', 2, { blocks: [block('的爱好，如今却吸引了许多年轻人。', { continues: true })] }),
  ]);
  t.equal(text, '这只是少数退休老人打发时间的爱好，如今却吸引了许多年轻人。\n');
});

t.test('a document with no text serialises to nothing', async (t) => {
  t.equal(documentText([pageRecord('e', 1, { blocks: [] })]), '');
  t.equal(documentText([pageRecord('e', 1, { blocks: [block('3', { role: 'page-number' })] })]), '');
});

t.test('--out-dir writes NAME.txt per document, and an empty file for a failed one', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'pdfpipe-out-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const out = join(parent, 'out');
  const input = toNdjson([
    docRecord('good'),
    ...pages().map((p) => ({ ...p, doc: 'good' })),
    endRecord('good', 2),
    docRecord('nested/inner'),
    pageRecord('nested/inner', 1, { blocks: [block('Inside a folder.')] }),
    endRecord('nested/inner'),
    docRecord('broken'),
    { type: 'error', doc: 'broken', code: 'corrupt', message: 'The PDF structure is invalid', stage: 'parse' },
    docRecord('../escape'),
    pageRecord('../escape', 1, { blocks: [block('Stays inside.')] }),
    endRecord('../escape'),
  ]);
  const result = await run(['serialize', '--out-dir', out], input);
  t.equal(result.code, 1, 'one document failed');
  t.equal(result.stdout, '', 'nothing on stdout');
  t.match(result.stderr, /broken: corrupt/, 'the failure is reported on stderr');
  t.equal(readFileSync(join(out, 'good.txt'), 'utf8'), 'Spring Survey\nThe first paragraph.\nThe second paragraph, with odd whitespace.\n1 Counted twice.\n');
  t.equal(readFileSync(join(out, 'nested/inner.txt'), 'utf8'), 'Inside a folder.\n');
  t.equal(readFileSync(join(out, 'broken.txt'), 'utf8'), '', 'an empty file for the failed document');
  t.notOk(existsSync(join(parent, 'escape.txt')), 'an id with ../ does not escape the folder');
  t.same(readdirSync(parent), ['out']);
});
