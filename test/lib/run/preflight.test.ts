/**
 * Options are checked before any document, whatever the jobs (output paths in the main thread, the
 * stages' files and models by the first parse worker as it starts): a file an option names that
 * cannot be read, a model that cannot be loaded, an output path that cannot be written, a timeout
 * no timer can hold: exit 2 with the reason, never a document failed for it.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, samplePdf } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-preflight-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const missing = join(dir, 'missing');
const notJson = join(dir, 'rules.json');
writeFileSync(notJson, 'not json');
const inputs = [samplePdf('one-column'), samplePdf('cjk')];

const cases: [string[], RegExp][] = [
  [['--lm', missing], /language model .*missing cannot be read/],
  [['--config', missing], /config .*missing/],
  [['--config', notJson], /config|JSON/i],
  [['--join-rules', missing], /join rules .*missing/i],
  [['--lexicon', missing], /--lexicon .*missing cannot be read/],
  [['--words', missing], /lexicon .*missing/],
  [['--thai-lexicon', missing], /lexicon .*missing/],
  [['--out-dir', '/proc/pdfpipe-out'], /--out-dir \/proc\/pdfpipe-out: cannot create/],
  [['--out-dir', notJson], /is not a folder/],
  [['--errors', join(missing, 'errors.ndjson')], /--errors .*: cannot write this file \(no such folder\)/],
  [['--report', join(missing, 'report.json')], /--report .*: cannot write this file/],
  [['--resume', join(missing, 'state')], /--resume .*: cannot write this file/],
  [['--timeout', '3000000'], /--timeout must be at most 2147483/],
];

for (const jobs of ['1', '2']) {
  for (const [args, message] of cases) {
    t.test(`extract --jobs ${jobs} ${args.join(' ')}: exit 2 before any document`, async (t) => {
      const result = await run(['extract', '--jobs', jobs, ...args, ...inputs]);
      t.equal(result.code, 2);
      t.match(result.stderr, message);
      t.equal(result.stdout, '', 'no document output');
      t.notMatch(result.stderr, /worker-crashed|documents \(/, 'no document ran');
    });
  }
}

t.test('parse checks its output files too', async (t) => {
  const result = await run(['parse', '--report', join(missing, 'r.json'), ...inputs]);
  t.equal(result.code, 2);
  t.equal(result.stdout, '');
});
