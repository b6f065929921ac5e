/**
 * Roles against hand-made labels: gt-roles.json (beside this file) gives the role of every
 * paragraph of the truth text of ten ground-truth documents of the shared corpus — title,
 * heading, body or footnote — by its position, so that no text of theirs is copied here. Each
 * truth paragraph is found among pdfpipe's paragraphs (blocks joined where they run on, as the text
 * output joins them) and its role compared. Page numbers are checked on the pages of the documents
 * whose metadata says they carry them. Skipped when ../shared is absent.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLines, repoRoot, run, sharedRoot } from '../../helpers.js';
import { FURNITURE_ROLES, type PageRecord } from '../../../lib/protocol/records.js';

const gt = join(sharedRoot, 'corpus/gt');
const skip = existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`;
const labels = JSON.parse(readFileSync(join(repoRoot, 'test/lib/regions/gt-roles.json'), 'utf8')) as Record<string, string[]>;

const collapse = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** Our paragraphs with the role of their first block: blocks joined where they run on. */
function paragraphs(pages: readonly PageRecord[]): { text: string; role: string }[] {
  const out: { text: string; role: string }[] = [];
  for (const page of pages) {
    for (const block of page.blocks ?? []) {
      if (FURNITURE_ROLES.has(block.role)) continue;
      const last = out[out.length - 1];
      if (block.continues && last) last.text = `${last.text} ${collapse(block.text)}`;
      else out.push({ text: collapse(block.text), role: block.role });
    }
  }
  return out;
}

/** The paragraph of ours that holds a truth paragraph: the same text, else the one sharing the longest stretch with it. */
function match(truth: string, ours: readonly { text: string; role: string }[]): { text: string; role: string } | undefined {
  const same = ours.find((p) => p.text === truth);
  if (same) return same;
  const probe = truth.slice(0, Math.min(truth.length, 24));
  return ours.filter((p) => p.text.includes(probe) || truth.includes(p.text.slice(0, 24))).sort((a, b) => Math.abs(a.text.length - truth.length) - Math.abs(b.text.length - truth.length))[0];
}

t.test('roles of the truth paragraphs of ten gt documents', { skip }, async (t) => {
  const tally = new Map<string, { right: number; all: number }>();
  const wrong: string[] = [];
  for (const [name, roles] of Object.entries(labels)) {
    const result = await run(['extract', '--quiet', '--format', 'ndjson', join(gt, `${name}.pdf`)]);
    t.equal(result.code, 0, name);
    const pages = parseLines(result.stdout).filter((r) => r.type === 'page') as PageRecord[];
    const truth = readFileSync(join(gt, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse).filter((p) => p !== '');
    t.equal(truth.length, roles.length, `${name}: a label for every truth paragraph`);
    const ours = paragraphs(pages);
    truth.forEach((text, i) => {
      const role = roles[i]!;
      const found = match(text, ours);
      const entry = tally.get(role) ?? { right: 0, all: 0 };
      entry.all += 1;
      if (found?.role === role) entry.right += 1;
      else wrong.push(`${name} #${i}: ${role} read as ${found?.role ?? 'nothing'}`);
      tally.set(role, entry);
    });
    const meta = JSON.parse(readFileSync(join(gt, `${name}.json`), 'utf8')) as { layout?: { page_numbers?: string | null } };
    if (meta.layout?.page_numbers) {
      const numbered = pages.filter((p) => (p.blocks ?? []).some((b) => b.role === 'page-number')).length;
      const entry = tally.get('page-number') ?? { right: 0, all: 0 };
      tally.set('page-number', { right: entry.right + numbered, all: entry.all + pages.length });
    }
  }
  for (const line of wrong) t.comment(line);
  for (const [role, { right, all }] of [...tally].sort()) {
    t.comment(`${role}: ${right} of ${all} right (${(right / all).toFixed(3)})`);
    t.ok(right >= all * 0.95, `${role}: accuracy ${(right / all).toFixed(3)} ≥ 0.95`);
  }
});
