import t from 'tap';
import { ocrReason } from '../../../lib/ocr/decide.js';
import { meanConfidence, ocrItems } from '../../../lib/ocr/words.js';

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

const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

t.test("right-to-left words are laid out again from the line's right edge, in Tesseract's order", async (t) => {
  // Tesseract's boxes of Arabic words overlap (the second word's box covers the first's).
  const rtl = [header, '4\t1\t1\t1\t1\t0\t100\t100\t1000\t60\t-1\t', '5\t1\t1\t1\t1\t1\t1000\t100\t100\t60\t95\tكل', '5\t1\t1\t1\t1\t2\t800\t100\t300\t60\t95\tالناس', '5\t1\t1\t1\t1\t3\t100\t100\t200\t60\t95\tسواسية'].join('\n');
  const items = ocrItems(rtl, 72);
  t.same(items.map((i) => i.text), ['لك', 'سانلا', 'ةيساوس'], 'glyph order');
  t.ok(items[0]!.x > items[1]!.x + items[1]!.w && items[1]!.x > items[2]!.x + items[2]!.w, 'right to left, apart');
  t.equal(items[0]!.x + items[0]!.w, 1100, "from the line's right edge");
});

t.test("words Tesseract's text writes without a space are one run; a line is no taller than its paragraph's pitch", async (t) => {
  const rows = [header, '4\t1\t1\t1\t1\t0\t100\t100\t500\t90\t-1\t', '5\t1\t1\t1\t1\t1\t100\t100\t200\t90\t95\t人人在', '5\t1\t1\t1\t1\t2\t320\t100\t180\t90\t80\t任何', '5\t1\t1\t1\t1\t3\t520\t100\t80\t90\t90\tPDF', '4\t1\t1\t1\t2\t0\t100\t160\t500\t90\t-1\t', '5\t1\t1\t1\t2\t1\t100\t160\t500\t90\t95\t有权'];
  const items = ocrItems([...rows, '人人在任何 PDF', '有权', '\f'].join('\n'), 72);
  t.match(items[0], { text: '人人在任何', x: 100, w: 400, confidence: 0.8, after: 'space' });
  t.match(items[1], { text: 'PDF', after: 'break' });
  t.ok(items[0]!.size <= 60 * 0.85 + 0.01, `size ${items[0]!.size} from the pitch 60, not the box 90`);
  t.same(ocrItems(rows.join('\n'), 72).map((i) => i.text), ['人人在', '任何', 'PDF', '有权'], 'without the text, every word is its own');
});

t.test('specks: low-confidence words far smaller than the lines are left out', async (t) => {
  const rows = [header, '4\t1\t1\t1\t1\t0\t100\t100\t500\t60\t-1\t', '5\t1\t1\t1\t1\t1\t100\t100\t200\t60\t95\tQuiet', '4\t1\t2\t1\t1\t0\t300\t170\t20\t12\t-1\t', '5\t1\t2\t1\t1\t1\t300\t170\t20\t12\t30\t»9', '4\t1\t3\t1\t1\t0\t100\t200\t500\t60\t-1\t', '5\t1\t3\t1\t1\t1\t100\t200\t200\t60\t91\tmornings'];
  t.same(ocrItems(rows.join('\n'), 72).map((i) => i.text), ['Quiet', 'mornings']);
});

t.test('a short, unsure word of two letters or more is a word, not a speck', async (t) => {
  // Nastaliq's short words stand far under their sloping line's height: Tesseract's reading of
  // XeTeX's Urdu gives "تو" a box of 55 px in a line of 128, at confidence 29.
  const rows = [header, '4\t1\t1\t1\t1\t0\t100\t100\t900\t128\t-1\t', '5\t1\t1\t1\t1\t1\t800\t100\t200\t128\t92\tبارش', '5\t1\t1\t1\t1\t2\t700\t150\t24\t55\t29\tتو', '5\t1\t1\t1\t1\t3\t650\t200\t10\t20\t30\t.', '5\t1\t1\t1\t1\t4\t400\t100\t200\t128\t90\tہوا'];
  t.same(ocrItems(rows.join('\n'), 72).map((i) => i.text), ['شراب', 'وت', 'اوہ'], 'the speck "." is left out');
  // On a Latin page Tesseract reads specks as pairs of thin letters: those stay out.
  const latin = [header, '4\t1\t1\t1\t1\t0\t100\t100\t900\t60\t-1\t', '5\t1\t1\t1\t1\t1\t100\t100\t200\t60\t95\tQuiet', '5\t1\t1\t1\t1\t2\t400\t120\t12\t20\t31\tii', '5\t1\t1\t1\t1\t3\t500\t100\t300\t60\t91\tmornings'];
  t.same(ocrItems(latin.join('\n'), 72).map((i) => i.text), ['Quiet', 'mornings']);
});

t.test('a page is OCR\'d only without readable text', async (t) => {
  t.equal(ocrReason('auto', { chars: 500, meaningless: 0, imageCoverage: 1, inkCoverage: 0.5 }), null);
  t.equal(ocrReason('auto', { chars: 0, meaningless: 0, imageCoverage: 0, inkCoverage: 0 }), null);
  t.match(ocrReason('auto', { chars: 0, meaningless: 0, imageCoverage: 0.9, inkCoverage: 0.05 }), /no text/);
  t.match(ocrReason('auto', { chars: 100, meaningless: 80, imageCoverage: 0, inkCoverage: 0 }), /no meaning/);
  t.equal(ocrReason('never', { chars: 0, meaningless: 0, imageCoverage: 1, inkCoverage: 1 }), null);
  t.ok(ocrReason('always', { chars: 500, meaningless: 0, imageCoverage: 0, inkCoverage: 0 }));
});

t.test('the lines of one paragraph share its type size, whatever the height of their own boxes', async (t) => {
  // A paragraph of three lines; the last holds two low glyphs ("罪。") and its box is half as high.
  const lines = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '4\t1\t1\t1\t1\t0\t300\t300\t900\t60\t-1\t', '5\t1\t1\t1\t1\t1\t300\t300\t900\t60\t95\t凡受刑事控告者',
    '4\t1\t1\t1\t2\t0\t300\t380\t900\t60\t-1\t', '5\t1\t1\t1\t2\t1\t300\t380\t900\t60\t95\t在未经获得辩护',
    '4\t1\t1\t1\t3\t0\t300\t470\t120\t30\t-1\t', '5\t1\t1\t1\t3\t1\t300\t470\t120\t30\t95\t罪。',
  ].join('\n');
  const sizes = ocrItems(lines, 300).map((item) => item.size);
  t.equal(new Set(sizes).size, 1, `one size: ${sizes.join(', ')}`);
});

t.test("marks above a line that page segmentation read as a line of their own are left out, and the line's words keep their spacing", async (t) => {
  // Block 2's line lies inside block 3's taller line: the vowels above "รู้จักกันดี" read again as digits.
  const rows = [
    header,
    '4\t1\t1\t1\t1\t0\t200\t400\t1200\t53\t-1\t',
    '5\t1\t1\t1\t1\t1\t200\t400\t600\t53\t95\tถนน',
    '5\t1\t1\t1\t1\t2\t830\t400\t570\t53\t95\tกลิ่น',
    '4\t1\t2\t1\t1\t0\t875\t505\t113\t25\t-1\t',
    '5\t1\t2\t1\t1\t1\t875\t509\t17\t12\t94\t๑',
    '5\t1\t2\t1\t1\t2\t905\t512\t12\t9\t94\t๐2',
    '4\t1\t3\t1\t1\t0\t200\t499\t1300\t67\t-1\t',
    '5\t1\t3\t1\t1\t1\t200\t499\t300\t67\t93\tลูกค้า',
    '5\t1\t3\t1\t1\t2\t500\t499\t300\t67\t93\tส่วน',
    '5\t1\t3\t1\t1\t3\t830\t499\t670\t67\t93\tพวกเขา',
  ];
  const text = ['ถนน กลิ่น', '๑ ๐2', '1', '-. 1', 'ลูกค้าส่วน พวกเขา', '\f'];
  const items = ocrItems([...rows, ...text].join('\n'), 300);
  t.same(items.map((i) => i.text), ['ถนน', 'กลิ่น', 'ลูกค้าส่วน', 'พวกเขา'], 'the digits are gone; the words Tesseract wrote together are one run');
});

t.test("a reading's confidence is its words', weighted by their length", async (t) => {
  // Quiet 0.97 ×5, mornings 0.9 ×8, again 0.88 ×5.
  t.equal(meanConfidence(ocrItems(tsv, 300)).toFixed(4), ((0.97 * 5 + 0.9 * 8 + 0.88 * 5) / 18).toFixed(4));
  t.equal(meanConfidence([]), 0, 'no words, no confidence');
});
