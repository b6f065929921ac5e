/**
 * extract on ground-truth documents of the shared corpus (skipped when ../shared is absent):
 * paragraphs of text set without blank lines or indents, told apart by their short last lines.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, sharedRoot } from '../../helpers.js';

const gt = (name: string) => join(sharedRoot, 'corpus/gt', name);
const paragraphs = (text: string): string[] =>
  text
    .replaceAll('\f', '')
    .split(/\n\s*\n/u)
    .map((p) => p.replace(/\s+/gu, ' ').trim())
    .filter((p) => p !== '');

for (const name of ['en-lo-txt', 'zh-lo-fodt']) {
  const pdf = gt(`${name}.pdf`);
  t.test(`${name}: paragraphs found from where lines end early`, { skip: existsSync(pdf) ? false : `${pdf} is not available (no ../shared corpus)` }, async (t) => {
    const result = await run(['extract', '--blank-lines', pdf]);
    t.equal(result.code, 0);
    const ours = paragraphs(result.stdout);
    const truth = paragraphs(readFileSync(gt(`${name}.txt`), 'utf8'));
    const found = truth.filter((p) => ours.includes(p)).length;
    t.ok(found >= 0.8 * truth.length, `${found} of ${truth.length} paragraphs come out whole and separate`);
  });
}
