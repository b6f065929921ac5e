/**
 * Resegmenting a document: a glued line searched with the letters of a word carried over a
 * line-end hyphen.
 */
import t from 'tap';
import { resegmentDocument } from '../../../lib/repair/segment-document.js';
import { normalizeOptions } from '../../../stages/resegment.js';
import { group, pageRecord } from '../../helpers.js';
import { lines, STORY } from './segment-fixtures.js';

const options = normalizeOptions();

t.test('a glued line that carries on a hyphenated word splits with the word whole', async (t) => {
  const page = pageRecord('d', 1, {
    lines: [...lines(STORY), ...lines(['and the garden-', 'erstoldthechildrenaboutthenamesoftheplants'], 1)],
  });
  const text = resegmentDocument(group([page]), options).pages[0]!.lines!.at(-1)!.text;
  t.equal(text, 'ers told the children about the names of the plants');
});
