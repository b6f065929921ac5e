/**
 * serialize on hand-built blocks: --out-dir writing one file per document (empty for a failure).
 * The text itself is tested in test/lib/formats/text.test.ts.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { block, docRecord, endRecord, pageRecord, run, surveyPages, toNdjson } from '../helpers.js';

t.test('--out-dir writes NAME.txt per document, and an empty file for a failed one', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'pdfpipe-out-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const out = join(parent, 'out');
  const input = toNdjson([
    docRecord('good'),
    ...surveyPages().map((p) => ({ ...p, doc: 'good' })),
    endRecord('good', 2),
    docRecord('nested/inner'),
    pageRecord('nested/inner', 1, { blocks: [block('Inside a folder.')] }),
    endRecord('nested/inner'),
    docRecord('broken'),
    { type: 'error', doc: 'broken', code: 'corrupt', message: 'The PDF structure is invalid', stage: 'parse' },
    docRecord('../escape'),
    pageRecord('../escape', 1, { blocks: [block('Stays inside.')] }),
    endRecord('../escape'),
  ]);
  const result = await run(['serialize', '--out-dir', out], input);
  t.equal(result.code, 1, 'one document failed');
  t.equal(result.stdout, '', 'nothing on stdout');
  t.match(result.stderr, /broken: corrupt/, 'the failure is reported on stderr');
  t.equal(readFileSync(join(out, 'good.txt'), 'utf8'), 'Spring Survey\nThe first paragraph.\nThe second paragraph, with odd whitespace.\n1 Counted twice.\n');
  t.equal(readFileSync(join(out, 'nested/inner.txt'), 'utf8'), 'Inside a folder.\n');
  t.equal(readFileSync(join(out, 'broken.txt'), 'utf8'), '', 'an empty file for the failed document');
  t.notOk(existsSync(join(parent, 'escape.txt')), 'an id with ../ does not escape the folder');
  t.same(readdirSync(parent), ['out']);
});
