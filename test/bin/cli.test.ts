/**
 * The command line: help generated from each stage's option table and DEFAULTS, --version, usage
 * errors (exit 2), quiet `| head` (EPIPE → exit 0), and exit 1 when some documents failed.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OptionSpec } from '../../lib/protocol/options.js';
import * as extract from '../../lib/run/extract.js';
import * as parse from '../../stages/parse.js';
import * as order from '../../stages/order.js';
import * as lines from '../../stages/lines.js';
import * as paragraphs from '../../stages/paragraphs.js';
import * as serialize from '../../stages/serialize.js';
import * as inspect from '../../lib/run/inspect.js';
import { childEnv, cli, docRecord, endRecord, pageRecord, repoRoot, run, samplePdf, samplesDir, toNdjson, untapped, wordItems } from '../helpers.js';

const COMMANDS: Record<string, { DEFAULTS: object; OPTIONS: readonly OptionSpec[] }> = { extract, parse, order, lines, paragraphs, serialize, inspect };
const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

t.test('pdfpipe --help lists every command; exit 0', async (t) => {
  const result = await run(['--help']);
  t.equal(result.code, 0);
  for (const name of Object.keys(COMMANDS)) t.match(result.stdout, new RegExp(`^\\s+${name}\\s`, 'm'), name);
});

for (const [name, stage] of Object.entries(COMMANDS)) {
  t.test(`pdfpipe ${name} --help shows every option with its default from DEFAULTS`, async (t) => {
    const result = await run([name, '--help']);
    t.equal(result.code, 0);
    t.equal(result.stderr, '');
    t.match(result.stdout, new RegExp(`^usage: pdfpipe ${name}`));
    if (name === 'order') {
      t.match(result.stdout, new RegExp(`--fragment-gap N .*\\[default: ${escape(String(order.DEFAULTS.fragmentGap))}\\]`), "order's fragment-gap default");
    }
    const defaults = stage.DEFAULTS as Record<string, unknown>;
    for (const spec of stage.OPTIONS) {
      const flag = spec.type === 'boolean' ? `--[no-]${kebab(spec.key)}` : `--${kebab(spec.key)}`;
      const shorts = (spec.short ?? []).map((short) => `-${short}, `).join('');
      const row = result.stdout.split('\n').find((l) => l.trimStart().startsWith(`${shorts}${flag} `));
      t.ok(row, `--${kebab(spec.key)} is listed`);
      const value = defaults[spec.key];
      if (value !== undefined && value !== '') {
        t.match(row ?? '', new RegExp(`\\[default: ${escape(String(value))}\\]$`), `--${kebab(spec.key)} shows default ${String(value)}`);
      }
    }
  });
}

t.test('--version prints the package version', async (t) => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const result = await run(['--version']);
  t.equal(result.code, 0);
  t.equal(result.stdout, `${pkg.version}\n`);
});

t.test('usage errors exit 2 with a message on stderr and nothing on stdout', async (t) => {
  const cases: [string[], RegExp][] = [
    [['order', '--no-such-option'], /Unknown option --no-such-option/],
    [['parse', '--jobs', '0', samplePdf('cjk')], /--jobs must be at least 1/],
    [['lines', '--word-gap', 'wide'], /--word-gap expects a number/],
    [['serialize', '--format', 'pdf'], /--format expects one of text, ndjson/],
    [['paragraphs', '--gap-ratio'], /--gap-ratio needs a value/],
    [['serialize', '--blank-lines=yes'], /--blank-lines takes no value/],
  ];
  const results = await Promise.all(cases.map(([args]) => run(args)));
  for (const [i, [args, message]] of cases.entries()) {
    const result = results[i]!;
    t.equal(result.code, 2, `${args.join(' ')}: exit 2`);
    t.match(result.stderr, message, `${args.join(' ')}: says what is wrong`);
    t.equal(result.stdout, '', `${args.join(' ')}: nothing on stdout`);
    t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('an unknown command exits 2 and says so on stderr', async (t) => {
  const result = await run(['frobnicate']);
  t.equal(result.code, 2);
  t.match(result.stderr, /unknown command "frobnicate"/);
  t.equal(result.stdout, '');
});

t.test('`extract samples/ | head -1` ends quietly', async (t) => {
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((res, rej) => {
    // pipefail makes the pipeline's status pdfpipe's, not head's.
    const child = spawn(...untapped('bash', ['-c', `set -o pipefail; "${process.execPath}" "${cli}" extract "${samplesDir}" | head -1`]), {
      cwd: repoRoot,
      env: childEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (stdout += c));
    child.stderr.on('data', (c: string) => (stderr += c));
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
  t.equal(result.code, 0, 'exit 0');
  t.equal(result.stdout.split('\n').length, 2, 'one line');
  t.equal(result.stderr, '', 'nothing on stderr (no EPIPE stack trace)');
});

/** Runs pdfpipe and closes its stdout as soon as the first output arrives, so its next write fails with EPIPE. */
function closeEarly(args: readonly string[], input?: string): Promise<{ code: number | null; stderr: string; received: number }> {
  return new Promise((res, rej) => {
    const child = spawn(...untapped(process.execPath, [cli, ...args]), { cwd: repoRoot, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let received = 0;
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (stderr += c));
    child.stdout.once('data', (c: Buffer) => {
      received = c.length;
      child.stdout.destroy();
    });
    child.on('error', rej);
    child.on('close', (code) => res({ code, stderr, received }));
  });
}

t.test('a reader that goes away mid-stream: extract exits 0 without a stack trace', async (t) => {
  // extract writes each document as it is done. The samples' records are far more than a pipe
  // holds (about 500 KB), so writes after the first hit the closed pipe however fast the run is;
  // three short texts could all be written before the reader left.
  const result = await closeEarly(['extract', '--format', 'ndjson', samplesDir]);
  t.ok(result.received > 0, 'some output arrived before the close');
  t.equal(result.code, 0);
  t.equal(result.stderr, '');
});

t.test('a reader that goes away mid-stream: a filter stage (order) exits 0 without a stack trace', async (t) => {
  // Far more NDJSON than a pipe holds, so order is still writing when the reader leaves.
  const docs = Array.from({ length: 200 }, (_, d) => [
    docRecord(`d${d}`),
    pageRecord(`d${d}`, 1, { items: Array.from({ length: 40 }, (_, r) => wordItems(['some', 'words', 'here'], 72, 72 + r * 14)).flat() }),
    endRecord(`d${d}`),
  ]).flat();
  const result = await closeEarly(['order'], toNdjson(docs));
  t.ok(result.received > 0, 'some output arrived before the close');
  t.equal(result.code, 0);
  t.equal(result.stderr, '');
});

