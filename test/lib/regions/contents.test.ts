/**
 * lib/regions/contents.ts: the entries of a contents list get the role `toc`, numbered titles and all.
 */
import t from 'tap';
import { markContents } from '../../../lib/regions/contents.js';
import { block, pageRecord } from '../../helpers.js';

const prose = (text: string, y: number) => block(text, { box: { x: 72, y, w: 5 * text.length, h: 12 } });
const entry = (text: string, y: number, lines = 1) => block(text, { role: 'heading', level: 2, lines, box: { x: 72, y, w: 400, h: 12 * lines } });

t.test('blocks ending in a page number on one right edge, with room for a leader, are contents entries', async (t) => {
  const blocks = [
    block('Contents', { role: 'heading', level: 1, box: { x: 72, y: 60, w: 60, h: 14 } }),
    entry('1 Introduction 2', 80),
    entry('1.1 Why the ponds matter 2', 94),
    entry('2.2 Counting animals and plants along the shore and in the shallow water 3', 108, 2),
    entry('3 Results 4', 136),
  ];
  markContents([pageRecord('d', 1, { blocks })]);
  t.same(blocks.map((b) => b.role), ['heading', 'toc', 'toc', 'toc', 'toc']);
  t.equal(blocks[1]!.level, undefined, 'no heading level left');
});

t.test('headings and prose that end in a number are no contents', async (t) => {
  const blocks = [
    entry('2 Methods', 80),
    prose('The survey ran from 1998 to 2004, and counted ponds in the years 1998', 94),
    prose('It was repeated every spring; the last count was made in 2004', 108),
    prose('and the results were printed in volume 3', 122),
  ];
  markContents([pageRecord('d', 1, { blocks })]);
  t.same(blocks.map((b) => b.role), ['heading', 'body', 'body', 'body']);
});
