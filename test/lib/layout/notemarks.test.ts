/**
 * Note reference marks (lib/layout/notemarks.ts) on the note-mark corpus (bench/corpus/notes):
 * the raised mark after a word leaves the text and is kept as a ref on its block, pointing at the
 * note whose label matches; the note's text loses its label, kept as `label`.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { childEnv, cli, repoRoot, untapped } from '../../helpers.js';
import type { Block } from '../../../lib/protocol/records.js';

const dir = join(repoRoot, 'bench/corpus/notes');

function blocksOf(name: string): Block[] {
  const out = execFileSync(...untapped(process.execPath, [cli, 'extract', '--quiet', '--format', 'ndjson', join(dir, `${name}.pdf`)]), { env: childEnv, encoding: 'utf8' });
  const blocks: Block[] = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line) as { type: string; blocks?: Block[] };
    if (record.type === 'page') blocks.push(...(record.blocks ?? []));
  }
  return blocks;
}

for (const name of ['en-lo-notes', 'en-pdflatex-notes', 'en-chromium-notes']) {
  t.test(`${name}: marks out of the words, labels out of the notes, each ref pointing at its note`, async (t) => {
    const blocks = blocksOf(name);
    const first = blocks.find((b) => b.text.startsWith('The lighthouse'))!;
    t.match(first.text, /granite and first lit/, 'no mark glued to "granite"');
    t.same(first.refs?.map((r) => ({ label: r.label, at: r.at })), [{ label: '1', at: first.text.indexOf(' and first lit') }]);
    const second = blocks.find((b) => b.text.startsWith('Three families'))!;
    t.match(second.text, /shared the work, each/);
    t.match(second.text, /great lens before/);
    const note = blocks.find((b) => b.text.startsWith('The quarry closed'));
    t.ok(note, 'the note reads without its label');
    t.equal(note?.label, '1');
    t.equal(note?.role, 'footnote');
    t.type(first.refs?.[0]?.note, 'number', 'the ref points at a note');
  });
}

t.test('right to left: a mark on the left of its word, digits of the script, the label at the note\'s right end', async (t) => {
  // XeLaTeX's Persian (test/fixtures/rtl-notes): "است.۱" and "می‌آیند.۲" with raised Persian digits,
  // the notes opening with raised "۱" and "۲" at their right ends.
  const out = execFileSync(...untapped(process.execPath, [cli, 'extract', '--quiet', '--format', 'ndjson', join(repoRoot, 'test/fixtures/rtl-notes/persian-notes.pdf')]), { env: childEnv, encoding: 'utf8' });
  const blocks: Block[] = out.split('\n').filter(Boolean).flatMap((line) => (JSON.parse(line) as { blocks?: Block[] }).blocks ?? []);
  const body = blocks.find((b) => b.text.startsWith('کتابخانه'))!;
  t.notMatch(body.text, /[۱۲]/u, 'no mark in the text');
  // Each ref stands right after the word it follows.
  t.same(body.refs?.map((r) => [r.label, body.text.slice(0, r.at).split(' ').at(-1)]), [['۱', 'است.'], ['۲', 'می‌آیند.']]);
  const notes = blocks.filter((b) => b.role === 'footnote');
  t.same(notes.map((b) => [b.label, b.text]), [['۱', 'در روزهای تعطیل ساعت کار کوتاه‌تر است.'], ['۲', 'سالن مطالعه دو طبقه دارد.']]);
  t.same(body.refs?.map((r) => typeof r.note), ['number', 'number'], 'each ref points at its note');
});
