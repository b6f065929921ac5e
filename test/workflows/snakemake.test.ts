/**
 * The Snakemake workflow (workflows/Snakefile) on the local executor: the samples and a broken
 * PDF in three shards, one shard killed midway, the workflow run again. Only the killed shard runs
 * again, going on from its resume state, and the merged result equals one `pdfpipe extract` run
 * over the same inputs: the same files, the broken PDF's error record, an outcome per document.
 * Skipped, with a message, where Snakemake is not installed (Debian: `snakemake`).
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, cli, repoRoot, run, samplesDir, untapped } from '../helpers.js';

const hasSnakemake = spawnSync('snakemake', ['--version'], { encoding: 'utf8' }).status === 0;
const skip = hasSnakemake ? false : 'snakemake is not installed (Debian: apt-get install snakemake)';

/** Every PDF in samples/ (the workflow reads the folder). */
const sampleNames = readdirSync(samplesDir).filter((f) => f.endsWith('.pdf')).map((f) => f.slice(0, -4)).sort();

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-snakemake-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/**
 * pdfpipe as the workflow calls it, through a wrapper that logs each shard it runs and kills the
 * first shard of three documents or more (not the broken PDF's) after two of them are written:
 * it feeds that shard only two lines of its list, so the kill comes midway whatever the speed.
 */
const wrapper = join(dir, 'pdfpipe.mjs');
writeFileSync(wrapper, `
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
const shard = args[args.indexOf('--out-dir') + 1].split('/').at(-2);
appendFileSync(${JSON.stringify(join(dir, 'calls.log'))}, shard + '\\n');
const list = readFileSync(0, 'utf8');
const lines = list.split('\\n').filter(Boolean);
let kill = false;
if (lines.length >= 3 && !list.includes('broken.pdf')) {
  try { writeFileSync(${JSON.stringify(join(dir, 'killed'))}, shard, { flag: 'wx' }); kill = true; } catch {}
}
const child = spawn(process.execPath, [${JSON.stringify(cli)}, ...args], { stdio: ['pipe', 'inherit', 'inherit'] });
if (!kill) {
  child.stdin.end(list);
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  child.stdin.write(lines.slice(0, 2).join('\\n') + '\\n');
  const state = args[args.indexOf('--resume') + 1];
  const timer = setInterval(() => {
    const done = existsSync(state) ? readFileSync(state, 'utf8').split('\\n').filter((l) => l.startsWith('{"id"')).length : 0;
    if (done < 2) return;
    clearInterval(timer);
    child.kill('SIGKILL');
    process.exit(137);
  }, 50);
}
`);

const broken = join(dir, 'broken.pdf');
writeFileSync(broken, '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nthe rest of this file was lost\n');
const config = join(dir, 'config.yaml');
// JSON is YAML.
writeFileSync(config, JSON.stringify({
  inputs: [samplesDir, broken],
  shards: 3,
  work: 'work',
  out: 'out',
  pdfpipe: `"${process.execPath}" "${wrapper}"`,
  jobs: 1,
}));

function snakemake(): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = ['-s', join(repoRoot, 'workflows/Snakefile'), '--directory', dir, '--configfile', config, '--cores', '3', '--keep-going'];
    const child = spawn(...untapped('snakemake', args), { cwd: dir, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const calls = (): string[] => readFileSync(join(dir, 'calls.log'), 'utf8').split('\n').filter(Boolean);
const stateIds = (shard: string): string[] =>
  readFileSync(join(dir, 'work', shard, 'state'), 'utf8').split('\n').filter((l) => l.startsWith('{"id"'));
const files = (folder: string): Record<string, string> =>
  Object.fromEntries(readdirSync(folder).sort().map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).sort();

t.test('three shards, one killed midway and resumed: the same result as one extract run', { skip }, async (t) => {
  const single = join(dir, 'single');
  const [first, one] = await Promise.all([
    snakemake(),
    run(['extract', '--quiet', '--jobs', '1', '--out-dir', single, '--errors', join(dir, 'single-errors.ndjson'), samplesDir, broken]),
  ]);
  t.equal(one.code, 0, 'one extract run: completed, exit 0, though a document failed');
  t.not(first.code, 0, 'the first workflow run fails: a shard was killed');
  const killed = readFileSync(join(dir, 'killed'), 'utf8');
  const shards = readdirSync(join(dir, 'work')).sort();
  t.same(shards, ['shard-1', 'shard-2', 'shard-3'], 'three shards');
  t.notOk(existsSync(join(dir, 'work', killed, 'report.json')), 'the killed shard has no report: not done');
  t.equal(stateIds(killed).length, 2, 'the killed shard wrote two documents before it was killed');
  const others = shards.filter((s) => s !== killed);
  for (const shard of others) t.ok(existsSync(join(dir, 'work', shard, 'report.json')), `${shard} completed`);
  const brokenShard = others.find((s) => readFileSync(join(dir, 'work', s, 'inputs.list'), 'utf8').includes('broken.pdf'))!;
  const brokenReport = JSON.parse(readFileSync(join(dir, 'work', brokenShard, 'report.json'), 'utf8')) as { outcomes: Record<string, number>; interrupted: boolean };
  t.equal(brokenReport.interrupted, false, 'the broken PDF\'s shard completed');
  t.equal(Object.entries(brokenReport.outcomes).filter(([code]) => code !== 'end').length, 1, 'its report counts the broken PDF as failed');

  const before = calls().length;
  const second = await snakemake();
  t.equal(second.code, 0, 'the second workflow run completes');
  t.same(calls().slice(before), [killed], 'only the killed shard runs again');
  const resumed = JSON.parse(readFileSync(join(dir, 'work', killed, 'report.json'), 'utf8')) as { skipped: number };
  t.equal(resumed.skipped, 2, 'the killed shard resumed: its two documents written before the kill are not done again');

  const merged = files(join(dir, 'out', 'documents'));
  t.same(Object.keys(merged), [...sampleNames, 'broken'].sort().map((n) => `${n}.txt`), 'a file per document');
  t.ok(JSON.stringify(merged) === JSON.stringify(files(single)), 'the merged files equal those of one extract run');
  const errors = lines(join(dir, 'out', 'errors.ndjson'));
  t.same(errors, lines(join(dir, 'single-errors.ndjson')), 'the same error records as one extract run');
  const code = (JSON.parse(errors[0]!) as { code: string }).code;
  t.same(lines(join(dir, 'out', 'outcomes.tsv')), [...sampleNames.map((n) => `${n}\tend`), `broken\t${code}`].sort(), 'an outcome per document');
  const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { documents: number; failed: number };
  t.same([report.documents, report.failed], [sampleNames.length + 1, 1], 'the merged report: every document, one failed');
});
