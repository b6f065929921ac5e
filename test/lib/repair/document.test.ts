/**
 * The repair core over a document: inferred marks move with their text, and text that is already
 * right (every ground-truth text) is not changed.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContext, repairDocument } from '../../../lib/repair/document.js';
import { normalizeOptions } from '../../../stages/repair.js';
import { sharedRoot } from '../../helpers.js';
import { context, group, line } from './repair-fixtures.js';

const gtDir = join(sharedRoot, 'corpus/gt');
const noGt = existsSync(gtDir) ? false : `${gtDir} is not available (no ../shared corpus)`;

t.test('inferred marks move with the text they belong to', async (t) => {
  const result = repairDocument(
    group([line('the de fi nition of the word is ok', { inferred: [{ at: 6, kind: 'space', rule: 'gap' }, { at: 16, kind: 'space', rule: 'gap' }] })]),
    normalizeOptions(),
    context(),
  );
  const out = result.pages[0]!.lines![0]!;
  t.equal(out.text, 'the definition of the word is ok');
  t.same(out.inferred, [{ at: 14, kind: 'space', rule: 'gap' }], 'the removed space loses its mark; the later one shifts back');
});

t.test('text that is already right is not changed: zero edits over every ground-truth text', { skip: noGt }, async (t) => {
  const ctx = loadContext(normalizeOptions());
  const names = readdirSync(gtDir).filter((f) => f.endsWith('.txt') && f !== 'README.txt');
  t.ok(names.length > 20, 'the ground truth is there');
  for (const name of names) {
    const paragraphs = readFileSync(join(gtDir, name), 'utf8').split('\n').filter((p) => p.trim() !== '');
    const result = repairDocument(group(paragraphs.map((p) => line(p))), normalizeOptions({ explain: true }), ctx);
    const changes = result.diagnostics.filter((d) => d.code === 'change').map((d) => d.message);
    t.same(changes, [], `${name}: no edits`);
  }
});
