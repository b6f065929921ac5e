/**
 * lib/regions/references.ts: the bibliography after its heading, one block per labelled entry,
 * and entries without a heading.
 */
import t from 'tap';
import { markReferences, referenceLike } from '../../../lib/regions/references.js';
import { block, pageRecord } from '../../helpers.js';

const heading = (text: string) => block(text, { font: 'Bold', size: 10, role: 'body' });
const entry = (text: string, lines = 1) => block(text, { font: 'Small', size: 9, lines });

t.test('after "References", up to the next heading set like it; pieces of an entry joined', async (t) => {
  const pages = [
    pageRecord('d', 1, {
      blocks: [
        block('The last paragraph of the body, which cites [1] and [2].', { font: 'Body', lines: 3 }),
        heading('References'),
        entry('[1] K. Osei and M. Lind, Notes on pond life, J. Freshw. Stud. 12, 34 (2019).'),
        entry('[2] P. Marsh, A survey of newts in lowland ponds, Herpetol. Rev. 8, 101'),
      ],
    }),
    pageRecord('d', 2, {
      blocks: [
        entry('(2011).'),
        entry('[3] R. Tan, Reed beds, Wetl. Ecol. 3, 5 (2020).'),
        heading('Appendix'),
        block('A paragraph of the appendix.', { font: 'Body' }),
      ],
    }),
  ];
  t.equal(markReferences(pages, 10), 4);
  t.same(pages[0]!.blocks!.map((b) => b.role), ['body', 'heading', 'reference', 'reference']);
  t.same(pages[1]!.blocks!.map((b) => b.role), ['reference', 'body', 'body'], 'the piece on page 2 joined its entry; the appendix is not a reference');
  t.match(pages[0]!.blocks![3]!.text, /101 \(2011\)\.$/u);
  t.equal(pages[0]!.blocks![3]!.lines, 2);
});

t.test('entries without a heading: a run of blocks that read as references', async (t) => {
  t.ok(referenceLike(entry('K. Osei, J. Freshw. Stud. 12, 34 (2019). P. Marsh, Herpetol. Rev. 8, 101 (2011).', 2)));
  t.notOk(referenceLike(block('In 2019 the ponds were surveyed twice, in April and in June.', { lines: 1 })));
  const pages = [
    pageRecord('d', 1, {
      blocks: [
        block('The body of the letter ends here with its last sentence.', { font: 'Body', lines: 4 }),
        entry('1 K. Osei and M. Lind, J. Freshw. Stud. 12, 34 (2019). 2 P. Marsh, Herpetol. Rev. 8, 101 (2011).', 2),
      ],
    }),
  ];
  t.equal(markReferences(pages, 10), 1);
  t.equal(pages[0]!.blocks![1]!.role, 'reference');
  t.equal(pages[0]!.blocks![0]!.role, 'body');
});
