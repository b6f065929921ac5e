/**
 * lib/formats/text.ts on hand-built blocks: which blocks reach the text, how paragraphs are
 * separated and run-on paragraphs joined.
 */
import t from 'tap';
import { documentText, type TextOptions } from '../../../lib/formats/text.js';
import { block, interruptedPages, pageRecord, surveyPages } from '../../helpers.js';

/** The text writer's options as `serialize` sets them by default. */
const PLAIN: TextOptions = { blankLines: false, keepFurniture: false, sentences: false };

t.test('headers, footers and page numbers are dropped by default; footnotes come after the body', async (t) => {
  t.equal(documentText(surveyPages(), PLAIN), 'Spring Survey\nThe first paragraph.\nThe second paragraph, with odd whitespace.\n1 Counted twice.\n');
});

t.test('keepFurniture keeps them, in place', async (t) => {
  const text = documentText(surveyPages(), { ...PLAIN, keepFurniture: true });
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
  const text = documentText(surveyPages(), { ...PLAIN, blankLines: true });
  t.equal(text, 'Spring Survey\n\nThe first paragraph.\n\nThe second paragraph, with odd whitespace.\n\n1 Counted twice.\n');
  t.notMatch(text, /\n\n\n/);
});

t.test('a paragraph that continues is joined to the one before it, across pages', async (t) => {
  const text = documentText([
    pageRecord('c', 1, { blocks: [block('Searching by torchlight is slow, and the team'), block('1', { role: 'page-number' })] }),
    pageRecord('c', 2, {
      blocks: [block('agreed to start earlier.', { continues: true }), block('A new paragraph.')],
    }),
  ], PLAIN);
  t.equal(text, 'Searching by torchlight is slow, and the team agreed to start earlier.\nA new paragraph.\n');
});

t.test('a continued paragraph broken at a hyphen is joined into one word', async (t) => {
  const text = documentText([
    pageRecord('h', 1, { blocks: [block('the average exam-')] }),
    pageRecord('h', 2, { blocks: [block('ple of a join', { continues: true })] }),
  ], PLAIN);
  t.equal(text, 'the average example of a join\n');
});

t.test('a continued CJK paragraph is joined without a space', async (t) => {
  const text = documentText([
    pageRecord('z', 1, { blocks: [block('这只是少数退休老人打发时间')] }),
    pageRecord('z', 2, { blocks: [block('的爱好，如今却吸引了许多年轻人。', { continues: true })] }),
  ], PLAIN);
  t.equal(text, '这只是少数退休老人打发时间的爱好，如今却吸引了许多年轻人。\n');
});

t.test('a document with no text serialises to nothing', async (t) => {
  t.equal(documentText([pageRecord('e', 1, { blocks: [] })], PLAIN), '');
  t.equal(documentText([pageRecord('e', 1, { blocks: [block('3', { role: 'page-number' })] })], PLAIN), '');
});

t.test('roles: only the selected blocks; a run-on joined past a caption left out', async (t) => {
  const pages = interruptedPages();
  t.equal(documentText(pages, { ...PLAIN, bodyOnly: true }), 'Results\nThe counts rose in every pond but the last one.\n');
  t.equal(documentText(pages, PLAIN), 'Results\nThe counts rose in every pond but the last one.\nFigure 1. Counts by pond.\nTable 2\n1 Two ponds were dry.\n', 'by default the caption stays in place, the footnote goes last');
  t.equal(documentText(pages, { ...PLAIN, roles: 'footnote,caption' }), 'Figure 1. Counts by pond.\n1 Two ponds were dry.\n');
  t.equal(documentText(pages, { ...PLAIN, roles: 'heading', keepFurniture: true }), 'Results\n3\n');
});

t.test('control characters never reach the text: ESC and other C0/C1 controls dropped, NEL and U+2028 a space', async (t) => {
  const pages = [pageRecord('d', 1, { blocks: [block('red\u001b[31m alert\u0007 one\u0085two\u2028three\u2029four\u009b end')] })];
  t.equal(documentText(pages, PLAIN), 'red[31m alert one two three four end\n');
});
