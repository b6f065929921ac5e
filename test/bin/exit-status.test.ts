/**
 * Exit statuses a scheduler can use: a run that completed exits 0 even when documents failed (a
 * Snakemake shard with one broken PDF keeps its good outputs), `--fail-on error` makes that 1, a
 * usage error is 2 and a crash of pdfpipe itself 70, the same in every command.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, cli, docRecord, endRecord, repoRoot, run, samplePdf, toNdjson, untapped } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-exit-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const bad = join(dir, 'broken.pdf');
writeFileSync(bad, '%PDF-1.4 cut off by the crawler');

t.test('a shard with one broken PDF completes: exit 0, every good output kept, the failure in the summary', async (t) => {
  const out = join(dir, 'shard');
  const result = await run(['extract', '--out-dir', out, samplePdf('one-column'), bad, samplePdf('cjk')]);
  t.equal(result.code, 0, 'completed');
  t.ok(readFileSync(join(out, 'one-column.txt'), 'utf8').includes('A Morning at the Harbour Market'), 'good output kept');
  t.ok(readFileSync(join(out, 'cjk.txt'), 'utf8').length > 0, 'good output after the broken one kept');
  t.match(result.stderr, /broken: corrupt/, 'the failure is reported');
  t.match(result.stderr, /3 documents \(.*corrupt 1/, 'and counted in the summary');
});

t.test('--fail-on error: completed with failures is exit 1; without failures still 0', async (t) => {
  const failed = await run(['extract', '--quiet', '--fail-on', 'error', bad, samplePdf('one-column')]);
  t.equal(failed.code, 1);
  t.ok(failed.stdout.includes('A Morning at the Harbour Market'), 'the good document is in the output');
  const clean = await run(['extract', '--quiet', '--fail-on=error', samplePdf('one-column')]);
  t.equal(clean.code, 0);
  const help = await run(['order', '--help']);
  t.match(help.stdout, /--fail-on VALUE .*\(none\|error\) \[default: none\]/, 'every --help lists --fail-on with its default');
});

t.test('a stage command: a bad record is a failed document, exit 0, or 1 with --fail-on error', async (t) => {
  const input = 'garbage\n' + toNdjson([docRecord('ok'), endRecord('ok')]);
  t.equal((await run(['order'], input)).code, 0);
  t.equal((await run(['order', '--fail-on', 'error'], input)).code, 1);
  t.equal((await run(['serialize', '--fail-on', 'error'], input)).code, 1);
  t.equal((await run(['order', '--fail-on', 'sometimes'], input)).code, 2, 'a bad --fail-on value is a usage error');
});

t.test('a crash of pdfpipe itself (stdout refuses the bytes) is 70, apart from failed documents', { skip: existsSync('/dev/full') ? false : 'no /dev/full' }, async (t) => {
  const result = spawnSync(...untapped('sh', ['-c', `"${process.execPath}" "${cli}" extract --quiet "${samplePdf('one-column')}" > /dev/full`]), { cwd: repoRoot, env: childEnv, encoding: 'utf8' });
  t.equal(result.status, 70);
  t.match(result.stderr, /internal error/);
});
