/**
 * Distributed runs: GNU parallel splits the input lines among several pdfpipe processes
 * (`parallel --pipe -N … -k`), and the joined output equals that of one process, with one outcome
 * per input. Skipped, with a message, where GNU parallel is not installed (Debian: `parallel`).
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, cli, parseLines, repoRoot, sampleNames, samplePdf, untapped } from '../helpers.js';

const hasParallel = spawnSync('sh', ['-c', 'parallel --version'], { encoding: 'utf8' }).stdout?.includes('GNU parallel') ?? false;
const skip = hasParallel ? false : 'GNU parallel is not installed (Debian: apt-get install parallel)';

/** Runs a shell command line from the repository root; returns its stdout. */
function sh(command: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...untapped('sh', ['-c', command]), { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    // Decoded by the stream, not chunk by chunk: a chunk may end inside a character.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (stdout += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-parallel-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const bad = join(dir, 'broken.pdf');
writeFileSync(bad, 'not a pdf');
const paths = [...sampleNames.map(samplePdf), bad, join(dir, 'missing.pdf')];
const list = join(dir, 'list.txt');
writeFileSync(list, paths.join('\n') + '\n');
const lines = join(dir, 'lines.b64');
writeFileSync(lines, [...sampleNames.map((n) => readFileSync(samplePdf(n)).toString('base64')), 'not base64 !', ''].join('\n') + '\n');
const node = `"${process.execPath}" "${cli}"`;
const parallel = 'parallel --will-cite --pipe -N 2 -k';

t.test('GNU parallel over a list of paths: the same records as one process, one outcome per input', { skip }, async (t) => {
  const [one, many] = await Promise.all([
    sh(`${node} extract --quiet --format ndjson --from-list < "${list}"`),
    sh(`${parallel} ${node} extract --quiet --format ndjson --from-list < "${list}"`),
  ]);
  t.equal(one.code, 0, 'one process: completed, exit 0 (two inputs fail)');
  // GNU parallel exits with the number of jobs that failed: none, since each completed.
  t.equal(many.code, 0, 'parallel: exit 0, every job completed though two documents failed');
  // Parse times (`stats.ms`) differ from run to run; everything else must be equal.
  const stable = (s: string): string => s.replace(/"ms":\d+/g, '"ms":0');
  // (t.ok, not t.equal: a diff of megabytes of records helps nobody)
  t.ok(stable(many.stdout) === stable(one.stdout), 'the same records in the same order');
  if (stable(many.stdout) !== stable(one.stdout)) {
    // Show only the first record that differs.
    const [a, b] = [stable(one.stdout).split('\n'), stable(many.stdout).split('\n')];
    const at = a.findIndex((line, i) => line !== b[i]);
    t.equal(b[at], a[at], `first differing record, line ${at + 1}`);
  }
  const outcomes = parseLines(many.stdout).filter((r) => r.type === 'end' || r.type === 'error');
  t.equal(outcomes.length, paths.length, 'one outcome per input path');
  t.same(outcomes.slice(-2).map((r) => r.type === 'error' && r.code), ['not-a-pdf', 'not-found']);
});

t.test('GNU parallel over base64 lines (Bitextor style): lines out = lines in, the same as one process', { skip }, async (t) => {
  const [one, many] = await Promise.all([
    sh(`${node} extract --quiet --base64 --format base64 < "${lines}"`),
    sh(`${parallel} ${node} extract --quiet --base64 --format base64 < "${lines}"`),
  ]);
  const inputLines = readFileSync(lines, 'utf8').split('\n').length - 1;
  t.equal(one.stdout.split('\n').length - 1, inputLines, 'one process: a line per input line');
  t.ok(many.stdout === one.stdout, 'parallel: byte for byte the same');
  t.equal(Buffer.from(many.stdout.split('\n')[0]!, 'base64').toString('utf8').split('\n')[0], '城市屋顶上的小菜园', 'the first line is the first document');
});
