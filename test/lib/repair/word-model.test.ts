/**
 * The document's word model: the long-word bound against a hostile row of letters, and `--lexicon`
 * word lists whose words count as known.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentModel, loadLexicon } from '../../../lib/repair/word-model.js';
import { resegmentDocument } from '../../../lib/repair/segment-document.js';
import { normalizeOptions } from '../../../stages/resegment.js';
import { group, pageRecord } from '../../helpers.js';
import { lines, STORY } from './segment-fixtures.js';

const options = normalizeOptions();

t.test('a row of thousands of letters (a hostile file) bounds the word length and is left as it is', async (t) => {
  const row = 'a'.repeat(3000);
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines([`${row} ${row}`, row, row], 1)] });
  t.ok(documentModel(page.lines!).longWord <= 64, 'a repeated row is no word: the search window stays that of real words');
  const result = resegmentDocument(group([page]), options);
  t.same(result.pages[0]!.lines!.slice(-2).map((l) => l.text), [row, row]);
});

t.test('--lexicon words count as known: a split the document alone could not make', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-lexicon-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dic = join(dir, 'en.dic');
  writeFileSync(dic, '3\nwheelbarrow/S\nshovel/MS\nrake\n');
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines(['theyputtheshovelandtherakeinthewheelbarrow'], 1)] });
  const plain = resegmentDocument(group([page]), options).pages[0]!.lines!.at(-1)!.text;
  const withLexicon = resegmentDocument(group([page]), options, loadLexicon(dic)).pages[0]!.lines!.at(-1)!.text;
  t.equal(withLexicon, 'they put the shovel and the rake in the wheelbarrow');
  t.not(plain, withLexicon);
  t.throws(() => loadLexicon(join(dir, 'missing.dic')), /--lexicon .*missing\.dic cannot be read/);
});
