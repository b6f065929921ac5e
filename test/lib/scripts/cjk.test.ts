/**
 * Chinese and Japanese written with radical characters where the ideographs are meant
 * (lib/scripts/cjk.ts, rule `cjk-radical`): on hand-built lines, then on Chromium's and Writer's
 * PDFs whose text layer holds Kangxi radicals and CJK Radicals Supplement characters
 * (bench/corpus/fonts).
 */
import t from 'tap';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ideographOfRadical } from '../../../lib/scripts/cjk.js';
import { repairLines } from '../repair/repair-fixtures.js';
import { collapse, repoRoot, run } from '../../helpers.js';

t.test('radicals among ideographs or kana become ideographs; radicals alone stay', async (t) => {
  const { texts } = repairLines(['老\u2f08在河边', '\u2ed3得又\u2f24又好', 'ひと\u2f08の話', '\u2f08 \u2f94 \u2f06', 'a \u2f08 b']);
  t.same(texts, ['老人在河边', '长得又大又好', 'ひと人の話', '\u2f08 \u2f94 \u2f06', 'a \u2f08 b']);
  t.equal(ideographOfRadical('\u2ea0'), '民');
  t.equal(ideographOfRadical('\u2edb'), '风');
  t.equal(ideographOfRadical('\u2e80'), null, 'a radical without an ideograph of its own');
});

t.test('Chromium and Writer documents written with radicals', async (t) => {
  const dir = join(repoRoot, 'bench/corpus/fonts');
  for (const name of ['zh-chromium-kangxi', 'zh-lo-kangxi']) {
    const { stdout, code } = await run(['extract', '--quiet', join(dir, `${name}.pdf`)]);
    t.equal(code, 0);
    const text = collapse(stdout).replace(/ /gu, '');
    t.notMatch(text, /[\u2e80-\u2fd5]/u, `${name}: no radical left`);
    t.equal(text, collapse(readFileSync(join(dir, `${name}.txt`), 'utf8')).replace(/ /gu, ''), `${name}: the text`);
  }
});
