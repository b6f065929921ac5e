/**
 * Structure benchmark: runs `pdfpipe extract --format xml` on a folder, validates every XML file
 * against docs/pdfpipe.rng with xmllint, and where the folder has NAME.body.txt truth files (the
 * arXiv corpus) scores the title and the section headings.
 *
 *     npm run bench:structure -- [DIR] [--keep] [--verbose]
 *
 * - Title: ours (the chosen `info/title`) matches when it equals the truth's first block after
 *   both are lower-cased and reduced to letters and digits, or is within 10% of it by edit distance.
 * - Headings: the truth marks no headings, so they are read off its blocks: a block other than
 *   the first with at most 12 words, starting with a capital or a digit, not ending in . , : ; nor
 *   in a word that leads into a formula ("that", "let", "have", "is", …), without a sentence
 *   break inside, at least half letters, without `[formula]`/`[\cite`/`[\ref` placeholders. Ours are the
 *   section titles. Both lose their numbering ("2.3", "IV.") and are compared as for the title
 *   (within 15%), one to one. Precision = matched / ours, recall = matched / truth's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_DIR = resolve(ROOT, '../shared/corpus/arxiv');
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
const SCHEMA = join(ROOT, 'docs/pdfpipe.rng');

/** Lower-cased letters and digits, single-spaced, leading section numbering ("2.3", "IV.", "Appendix A:") removed. */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/^\s*appendix\s+([A-Z]|\d{1,2})\b[.:]?\s+/iu, '')
    .replace(/^\s*((\d{1,2}(\.\d{1,2})*\.?)|([IVX]{1,5}\.)|([A-H]\.))\s+/u, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function levenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[t.length]!;
}

/** True when two texts are the same after `normalize`, up to `tolerance` × the longer length in edits. */
export function same(a: string, b: string, tolerance: number): boolean {
  const x = normalize(a);
  const y = normalize(b);
  if (x === '' || y === '') return false;
  return x === y || levenshtein(x, y) <= tolerance * Math.max(x.length, y.length);
}

/** The headings of a truth file, by the rule in the header comment. */
export function truthHeadings(body: string): string[] {
  const blocks = body.split(/\n\s*\n/u).map((b) => b.replace(/\s+/gu, ' ').trim()).filter((b) => b !== '');
  return blocks.slice(1).filter((b) => {
    const words = b.split(' ').length;
    const letters = (b.match(/\p{L}/gu) ?? []).length;
    return (
      words <= 12 &&
      /^([\p{Lu}\d]|\p{Script=Greek})/u.test(b) &&
      !/[.,:;]$/u.test(b) &&
      letters >= b.length * 0.5 &&
      !/\[(formula|\\cite|\\ref)/u.test(b) &&
      // Text that leads into a displayed formula ("It follows that", "So we get") is not a heading.
      !/\b(that|let|has|have|get|take|by|as|is|are|to|of|with|where|shows|gives|obtain|find)$/u.test(b) &&
      !/\p{Ll}\. \p{Lu}/u.test(b)
    );
  });
}

const unescape = (text: string): string =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');

/** The chosen title and the section titles of one XML output (the writer's own layout: one element a line). */
export function readXml(xml: string): { title: string | null; headings: string[] } {
  const info = /<info[^>]*>\n\s*<title>([^<]*)<\/title>/u.exec(xml);
  const headings = [...xml.matchAll(/<section [^>]*>\n\s*<title[^>]*>([^<]*)<\/title>/gu)].map((m) => unescape(m[1]!));
  return { title: info ? unescape(info[1]!) : null, headings };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { keep: { type: 'boolean' }, verbose: { type: 'boolean' } }, allowPositionals: true });
  const dir = resolve(positionals[0] ?? DEFAULT_DIR);
  if (!existsSync(dir)) {
    console.log(`${dir} is not there; nothing to measure.`);
    return;
  }
  const out = await mkdtemp(join(tmpdir(), 'pdfpipe-structure-'));
  const extract = spawnSync(process.execPath, [CLI, 'extract', '--format', 'xml', '--out-dir', out, dir], { encoding: 'utf8' });
  if (extract.stderr) process.stderr.write(extract.stderr);
  const files = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.xml')).sort();
  const lint = spawnSync('xmllint', ['--noout', '--relaxng', SCHEMA, ...files.map((f) => join(out, f))], { encoding: 'utf8' });
  if (lint.error) console.log('xmllint is not installed (Debian: apt-get install libxml2-utils): validation skipped');
  else {
    const valid = (lint.stderr.match(/ validates$/gmu) ?? []).length;
    console.log(`valid XML: ${valid} of ${files.length}${valid < files.length ? `\n${lint.stderr.split('\n').filter((l) => !l.endsWith(' validates')).slice(0, 20).join('\n')}` : ''}`);
  }
  let titles = 0;
  let scored = 0;
  let ours = 0;
  let truths = 0;
  let matched = 0;
  let unmatchedBack = 0;
  for (const file of files) {
    const name = file.slice(0, -4);
    const truthFile = join(dir, `${name}.body.txt`);
    if (!existsSync(truthFile)) continue;
    scored += 1;
    const body = await readFile(truthFile, 'utf8');
    const first = body.split(/\n\s*\n/u)[0]?.replace(/\s+/gu, ' ').trim() ?? '';
    const found = readXml(await readFile(join(out, file), 'utf8'));
    const titleOk = found.title !== null && same(found.title, first, 0.1);
    if (titleOk) titles += 1;
    const expected = truthHeadings(body);
    const left = [...expected];
    let hits = 0;
    const missed: string[] = [];
    for (const heading of found.headings) {
      const at = left.findIndex((t) => same(heading, t, 0.15));
      if (at === -1) missed.push(heading);
      else {
        hits += 1;
        left.splice(at, 1);
      }
    }
    unmatchedBack += missed.filter((h) => /^(references|bibliography|acknowledge?ments?)$/u.test(normalize(h))).length;
    ours += found.headings.length;
    truths += expected.length;
    matched += hits;
    console.log(`${name.padEnd(18)} title ${titleOk ? 'ok ' : 'NO '} headings ${hits}/${found.headings.length} ours, ${hits}/${expected.length} truth's`);
    if (values.verbose) {
      if (!titleOk) console.log(`    title: ${JSON.stringify(found.title)} vs ${JSON.stringify(first)}`);
      if (missed.length > 0) console.log(`    ours not in truth: ${JSON.stringify(missed)}`);
      if (left.length > 0) console.log(`    truth's not found: ${JSON.stringify(left)}`);
    }
  }
  if (scored > 0) {
    console.log(`titles: ${titles} of ${scored}`);
    console.log(`headings: precision ${(matched / Math.max(ours, 1)).toFixed(3)} (${matched}/${ours}), recall ${(matched / Math.max(truths, 1)).toFixed(3)} (${matched}/${truths})`);
    const back = ours - unmatchedBack;
    console.log(`  without our unmatched References/Acknowledgments (the truth mostly leaves them out): precision ${(matched / Math.max(back, 1)).toFixed(3)} (${matched}/${back})`);
  }
  if (values.keep) console.log(`output kept in ${out}`);
  else await rm(out, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
