/**
 * langid: bad codes and options, and the primary language of every ground-truth document. The
 * identification itself is tested in test/lib/lang/.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeOptions } from '../../stages/langid.js';
import type { DocRecord, PipeRecord } from '../../lib/protocol/records.js';
import { parseLines, run, sharedRoot } from '../helpers.js';

t.test('unknown codes are usage errors', async (t) => {
  t.throws(() => normalizeOptions({ lang: 'xx' }), /Unknown language code "xx"/);
  t.throws(() => normalizeOptions({ mark: true }), /--mark needs --lang/);
  const result = await run(['langid', '--lang', 'qq'], '');
  t.equal(result.code, 2);
});

const gt = join(sharedRoot, 'corpus/gt');

t.test('ground truth: the primary language of every document; English in mixed Arabic/Hebrew documents', { skip: existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`, timeout: 600_000 }, async (t) => {
  const result = await run(['extract', '--format', 'ndjson', gt]);
  const docs = parseLines(result.stdout).filter((r: PipeRecord): r is DocRecord => r.type === 'doc');
  const pdfs = readdirSync(gt).filter((f) => f.endsWith('.pdf'));
  t.equal(docs.length, pdfs.length);
  let right = 0;
  for (const doc of docs) {
    const meta = JSON.parse(readFileSync(join(gt, `${doc.id}.json`), 'utf8')) as { primary_language: string; languages: string[] };
    t.equal(doc.lang, meta.primary_language, `${doc.id}: primary language`);
    if (doc.lang === meta.primary_language) right++;
    if (meta.languages.includes('en') && meta.primary_language !== 'en') {
      t.ok(doc.languages?.some((l) => l.lang === 'en' && l.percent > 1), `${doc.id}: English found`);
    }
  }
  const pages = parseLines(result.stdout).filter((r) => r.type === 'page');
  const mixed = pages.filter((p) => p.type === 'page' && /-mixed$/.test(p.doc));
  const spans = mixed.flatMap((p) => (p.type === 'page' ? p.blocks ?? [] : []).flatMap((b) => (b.spans ?? []).map((s) => [b.text.slice(s.start, s.end), s.lang])));
  t.ok(spans.length >= 20, `spans in the mixed documents (${spans.length})`);
  t.same(spans.filter(([, lang]) => lang !== 'en'), [], 'every Latin run in the mixed documents is English');
  t.equal(right, docs.length, 'every document');
});
