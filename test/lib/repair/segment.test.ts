/**
 * The merge and split searches on hand-built lines: spaced-out letters merged, glued lines split,
 * what is left alone, and the marks and offsets of each change.
 */
import t from 'tap';
import { resegmentLine } from '../../../lib/repair/segment.js';
import { documentModel } from '../../../lib/repair/word-model.js';
import { resegmentDocument } from '../../../lib/repair/segment-document.js';
import type { Line } from '../../../lib/protocol/records.js';
import { normalizeOptions } from '../../../stages/resegment.js';
import { group, line, pageRecord } from '../../helpers.js';
import { lines, STORY } from './segment-fixtures.js';

const options = normalizeOptions();

/** Re-segments `damaged` inside a document that also has the story's lines. */
function fix(damaged: string, extra: readonly string[] = []): string {
  const page = pageRecord('d', 1, { lines: [...lines(STORY), ...lines([...extra, damaged], 1)] });
  const result = resegmentDocument(group([page]), options);
  return result.pages[0]!.lines!.at(-1)!.text;
}

t.test('spaced-out letters are merged into the words the document knows', async (t) => {
  t.equal(fix('the seeds t o sow i n the beds'), 'the seeds to sow in the beds');
  t.equal(fix('the g a r d e n e r s met in the square'), 'the gardeners met in the square');
});

t.test('known words next to each other are not merged', async (t) => {
  // "in to" and "the m" would make "into" and "them", but "in", "to" and "the" are words, not fragments.
  t.equal(fix('they went in to the square to see the m'), 'they went in to the square to see the m');
  t.equal(fix('the plants were small and the square was green'), 'the plants were small and the square was green');
});

t.test('a glued line is split into words, its punctuation kept', async (t) => {
  t.equal(fix('thegardenersofthetownwateredtheplants,andthebeds'), 'the gardeners of the town watered the plants, and the beds');
});

t.test('a long word the document uses, or a compound of content words, is not split', async (t) => {
  // "flowerbeds" would split as "flower beds"; "gardenersfriends" as "gardeners friends": two content words.
  t.equal(fix('the flowerbeds of the town', ['flowerbeds and more flowerbeds']), 'the flowerbeds of the town');
  t.equal(fix('the plantsgardenersweathermorning'), 'the plantsgardenersweathermorning');
});

t.test('a word glued at a case change is split when both halves are words of the document', async (t) => {
  t.equal(fix('they watered theGardeners and the plants'), 'they watered the Gardeners and the plants');
  t.equal(fix('they met McDonald in the square'), 'they met McDonald in the square', 'not when a half is unknown');
});

t.test('Thai, Chinese and Japanese lines are never touched', async (t) => {
  for (const text of ['กรุงเทพมหานครเป็นเมืองหลวง', '城市屋顶上的小菜园越来越受欢迎', 'とうきょうはにほんのしゅとです']) t.equal(fix(text), text);
});

t.test('each change is marked, and the marks before it keep their places', async (t) => {
  const damaged: Line = { ...line('the seeds t o sow in the beds', 300, { block: 1 }), inferred: [
    { at: 3, kind: 'space', rule: 'gap' },
    { at: 11, kind: 'space', rule: 'gap' },
    { at: 13, kind: 'space', rule: 'gap' },
    { at: 17, kind: 'space', rule: 'gap' },
  ] };
  const model = documentModel(lines(STORY));
  const { line: out, changes } = resegmentLine(model, damaged, options);
  t.equal(out.text, 'the seeds to sow in the beds');
  t.same(changes, [{ kind: 'merge', at: 11 }]);
  t.same(out.inferred, [
    { at: 3, kind: 'space', rule: 'gap' },
    { at: 11, kind: 'join', rule: 'merge-fragments' },
    { at: 12, kind: 'space', rule: 'gap' },
    { at: 16, kind: 'space', rule: 'gap' },
  ]);
  for (const mark of out.inferred.filter((m) => m.kind === 'space')) t.equal(out.text[mark.at], ' ', `a space stands at ${mark.at}`);
});
