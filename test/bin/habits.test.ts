/**
 * The command line as a shell user with pdftotext's habits expects it: short options (the page
 * range and passwords are in test/lib/engines/open.test.ts), single-dash unknowns rejected, usage on stderr when there is nothing to do,
 * `--quiet` quiet, every form in `--help`, and a progress line that erases itself and never
 * mixes with error lines.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, cli, repoRoot, run, samplePdf, untapped } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-habits-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const bad = join(dir, 'scan.pdf');
writeFileSync(bad, 'not a pdf at all');

t.test('short options: -q -j -o', async (t) => {
  const out = join(dir, 'short');
  const result = await run(['extract', '-q', '-j', '1', '-o', out, samplePdf('one-column'), bad]);
  t.equal(result.code, 0);
  t.equal(result.stderr, '', '-q: nothing on stderr, not even the failed document');
  t.same(readdirSync(out).sort(), ['one-column.txt', 'scan.txt']);
});

t.test('--quiet silences the per-document error lines too', async (t) => {
  const result = await run(['extract', '--quiet', bad]);
  t.equal(result.stderr, '');
});

t.test('single-dash unknowns are usage errors, not input files', async (t) => {
  for (const args of [['extract', '-x', samplePdf('cjk')], ['extract', '-I', samplePdf('cjk')], ['order', '-q']]) {
    const result = await run(args);
    t.equal(result.code, 2, args.join(' '));
    t.match(result.stderr, /Unknown option -/);
    t.equal(result.stdout, '');
  }
  const dashed = await run(['extract', '-q', '--', '-not-an-option.pdf']);
  t.match(dashed.stdout + dashed.stderr, /^$/, 'after --, a name with a dash is an input');
});

t.test('no command: usage on stderr, exit 2; --help on stdout, exit 0', async (t) => {
  const none = await run([]);
  t.equal(none.code, 2);
  t.equal(none.stdout, '');
  t.match(none.stderr, /^usage: pdfpipe <command>/);
  const help = await run(['--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /^usage: pdfpipe <command>/);
});

t.test('extract with no input on a terminal: usage error, not a silent wait', { skip: existsSync('/usr/bin/script') ? false : 'no script(1) for a terminal' }, async (t) => {
  const result = spawnSync(...untapped('script', ['-qec', `"${process.execPath}" "${cli}" extract`, '/dev/null']), { cwd: repoRoot, env: childEnv, encoding: 'utf8', timeout: 20000, input: '' });
  t.equal(result.status, 2, 'exit 2 at once');
  t.match(result.stdout, /No input: give PDF files or folders as arguments/);
});

t.test('--help shows every form: short options, --[no-]…, and serialize every format', async (t) => {
  const extract = (await run(['extract', '--help'])).stdout;
  for (const form of ['-q, --[no-]quiet', '-j, --jobs N', '-o, --out-dir VALUE', '-f, --first-page N', '-l, --last-page N', '-upw, -opw, --password VALUE', '--[no-]normalize', '-h, --help', '--fail-on VALUE']) {
    t.ok(extract.includes(form), form);
  }
  const serialize = (await run(['serialize', '--help'])).stdout;
  t.match(serialize, /\(text\|ndjson\|xml\|base64\|html\|pairs\)/);
});

t.test('the progress line erases itself, shows the total, and never glues onto an error line', async (t) => {
  const result = await run(['extract', '--progress', '-j', '1', samplePdf('one-column'), bad, samplePdf('cjk')]);
  t.match(result.stderr, /\r\x1b\[K\d\/3 documents/, 'erased and redrawn, with the total');
  for (const line of result.stderr.split('\n').filter((l) => l.includes('pdfpipe'))) {
    // What a terminal shows of the line: the text after the last erase.
    t.match(line.split('\r\x1b[K').at(-1), /^pdfpipe/, `starts a line of its own: ${JSON.stringify(line.slice(-60))}`);
  }
  t.notMatch(result.stderr, /documents, .*errors(, about .* left)?pdfpipe/, 'no error line glued to the progress line');
});
