/**
 * lib/formats/metadata.ts: which Info titles are believed, and author lines split into names.
 */
import t from 'tap';
import { implausibleTitle, looksLikeNames, splitAuthors } from '../../../lib/formats/metadata.js';

t.test('junk Info titles are not believed', async (t) => {
  for (const junk of ['Microsoft Word - doc1.docx', 'untitled', 'report_final.pdf', 'a', '', 'Document1', 'scan0042', '\u0001\u0002abc']) {
    t.not(implausibleTitle(junk, 'paper'), null, JSON.stringify(junk));
  }
  t.not(implausibleTitle('paper', 'corpus/paper'), null, 'the file name');
  t.equal(implausibleTitle('Tidal Schedules of Island Ferries', 'x'), null);
});

t.test('author lines', async (t) => {
  t.same(splitAuthors('R. J. Beswick1, A. B. Peck2, and A. Pedlar1'), ['R. J. Beswick', 'A. B. Peck', 'A. Pedlar']);
  t.same(splitAuthors('Masao Iwamatsu†∗and Yutaka Okabe†'), ['Masao Iwamatsu', 'Yutaka Okabe']);
  t.ok(looksLikeNames('Ludwig van Beethoven & Clara Schumann'));
  t.notOk(looksLikeNames('Article 10'));
  t.notOk(looksLikeNames('Preamble'));
});
