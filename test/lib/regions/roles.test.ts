/**
 * lib/regions/roles.ts on real papers: the arXiv papers of the shared corpus with the Bast & Korzen
 * body-text truth (skipped when ../shared is absent). The truth holds the title, the headings and
 * the body paragraphs, and nothing else; so the blocks tagged title, heading, body or list-item
 * should be made of its text, and the blocks tagged caption, reference, footnote, front matter
 * or page furniture should not.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLines, run, sharedRoot } from '../../helpers.js';
import type { Block, PageRecord } from '../../../lib/protocol/records.js';

const corpus = join(sharedRoot, 'corpus/arxiv');
const skip = existsSync(corpus) ? false : `${corpus} is not available (no ../shared corpus)`;

/** Words in lower case without the truth's placeholders ("[formula]", "[\cite=…]"), digits or punctuation. */
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/\[\\?[a-z]+(?:=[^\]]*)?\]/gu, ' ')
    .split(/[^a-z]+/u)
    .filter((w) => w !== '');
const trigrams = (list: readonly string[]): Set<string> => new Set(list.slice(2).map((w, i) => `${list[i]} ${list[i + 1]} ${w}`));

const BODY_ONLY = new Set(['title', 'heading', 'body', 'list-item']);
const NOT_BODY = new Set(['caption', 'reference', 'footnote', 'front-matter', 'header', 'footer', 'page-number']);

t.test('roles on the arXiv papers agree with the body-text truth', { skip }, async (t) => {
  const names = readdirSync(corpus).filter((f) => f.endsWith('.pdf')).map((f) => f.slice(0, -4));
  const result = await run(['extract', '--quiet', '--format', 'ndjson', ...names.map((n) => join(corpus, `${n}.pdf`))]);
  t.equal(result.code, 0);
  const records = parseLines(result.stdout);
  // Per role: blocks whose trigrams are mostly in the truth, of blocks with at least 4 trigrams.
  const tally = new Map<string, { inTruth: number; all: number }>();
  let doc = '';
  let truth = new Set<string>();
  for (const record of records) {
    if (record.type === 'doc') {
      doc = String((record as { id: string }).id).replace(/\.pdf$/u, '');
      truth = trigrams(words(readFileSync(join(corpus, `${doc}.body.txt`), 'utf8')));
    }
    if (record.type !== 'page') continue;
    for (const block of (record as PageRecord).blocks ?? ([] as Block[])) {
      const own = trigrams(words(block.text));
      if (own.size < 4) continue;
      // More than half: a short line that shares half its word triples with the body by a repeated
      // phrase ("G1u occur with equal frequency", a caption's last line) is no text of the truth.
      const found = [...own].filter((g) => truth.has(g)).length / own.size > 0.5;
      const entry = tally.get(block.role) ?? { inTruth: 0, all: 0 };
      entry.inTruth += found ? 1 : 0;
      entry.all += 1;
      tally.set(block.role, entry);
    }
  }
  const share = (roles: Set<string>): { inTruth: number; all: number } =>
    [...tally].filter(([role]) => roles.has(role)).reduce((sum, [, e]) => ({ inTruth: sum.inTruth + e.inTruth, all: sum.all + e.all }), { inTruth: 0, all: 0 });
  for (const [role, e] of [...tally].sort()) t.comment(`${role}: ${e.inTruth} of ${e.all} blocks in the truth`);
  const body = share(BODY_ONLY);
  const notBody = share(NOT_BODY);
  t.ok(body.inTruth >= body.all * 0.85, `${body.inTruth} of ${body.all} title/heading/body/list-item blocks are truth text`);
  t.ok(notBody.inTruth <= notBody.all * 0.05, `${notBody.inTruth} of ${notBody.all} caption/reference/note/front-matter/furniture blocks are truth text`);
  const references = tally.get('reference') ?? { inTruth: 0, all: 0 };
  t.ok(references.all >= 100, `${references.all} bibliography entries found`);
  t.ok((tally.get('caption')?.all ?? 0) >= 20, 'captions found');
});
