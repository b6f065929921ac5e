import t from 'tap';
import { ocrReason } from '../../../lib/ocr/decide.js';
import { ocrItems } from '../../../lib/ocr/words.js';

const tsv = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '4\t1\t1\t1\t1\t0\t300\t300\t600\t50\t-1\t',
  '5\t1\t1\t1\t1\t1\t300\t300\t200\t40\t96.5\tQuiet',
  '5\t1\t1\t1\t1\t2\t530\t310\t370\t40\t90\tmornings',
  '4\t1\t1\t1\t2\t0\t300\t400\t300\t50\t-1\t',
  '5\t1\t1\t1\t2\t1\t300\t400\t300\t50\t88\tagain',
].join('\n');

t.test('words become items in points, one baseline per line, source and confidence kept', async (t) => {
  const items = ocrItems(tsv, 300);
  t.equal(items.length, 3);
  t.match(items[0], { text: 'Quiet', x: 72, w: 48, font: 'ocr', source: 'ocr', confidence: 0.97, after: 'space' });
  t.equal(items[0]!.y, items[1]!.y, 'the words of a line share its baseline');
  t.equal(items[1]!.after, 'break');
  t.ok(items[2]!.y > items[0]!.y);
});

t.test('a page is OCR\'d only without readable text', async (t) => {
  t.equal(ocrReason('auto', { chars: 500, meaningless: 0, imageCoverage: 1 }), null);
  t.equal(ocrReason('auto', { chars: 0, meaningless: 0, imageCoverage: 0.05 }), null);
  t.match(ocrReason('auto', { chars: 0, meaningless: 0, imageCoverage: 0.9 }), /no text/);
  t.match(ocrReason('auto', { chars: 100, meaningless: 80, imageCoverage: 0 }), /no meaning/);
  t.equal(ocrReason('never', { chars: 0, meaningless: 0, imageCoverage: 1 }), null);
  t.ok(ocrReason('always', { chars: 500, meaningless: 0, imageCoverage: 0 }));
});
