/**
 * Opening a document: a page range (pdftotext's -f and -l) and the password of an encrypted PDF,
 * under both engines, from the command line.
 */
import t from 'tap';
import { join } from 'node:path';
import { parseLines, repoRoot, run, samplePdf } from '../../helpers.js';

const encrypted = join(repoRoot, 'test/data/encrypted/one-column-secret.pdf');

t.test('-f/-l: a page range, the pages keeping their numbers, under both engines', async (t) => {
  const cases = ['pdfium', 'pdfjs'].flatMap((engine) =>
    ([[['-f', '2', '-l', '3'], [2, 3]], [['--first-page', '3'], [3]], [['-l', '1'], [1]]] as const).map(([args, pages]) => ({ engine, args, pages })));
  const results = await Promise.all(cases.map(({ engine, args }) => run(['parse', '-q', '--engine', engine, ...args, samplePdf('paper')])));
  for (const [i, { engine, args, pages }] of cases.entries()) {
    const records = parseLines(results[i]!.stdout);
    t.same(records.filter((r) => r.type === 'page').map((r) => r.type === 'page' && r.page), pages, `${engine} ${args.join(' ')}`);
    t.equal(records.at(-1)?.type, 'end');
  }
  t.equal((await run(['parse', '-f', '3', '-l', '2', samplePdf('paper')])).code, 2, 'a last page before the first is a usage error');
});

t.test('--password, -upw, -opw open an encrypted PDF under both engines', async (t) => {
  for (const engine of ['pdfium', 'pdfjs']) {
    const none = await run(['extract', '--engine', engine, encrypted]);
    t.match(none.stderr, /password-required: .*--password/, `${engine}: without it, password-required saying how`);
    const given = [['--password', 'secret'], ['-upw', 'secret'], ['-opw', 'owner']];
    const results = await Promise.all(given.map((args) => run(['extract', '-q', '--engine', engine, ...args, encrypted])));
    for (const [i, args] of given.entries()) t.match(results[i]!.stdout, /A Morning at the Harbour Market/, `${engine} ${args[0]}`);
    const wrong = await run(['extract', '--engine', engine, '--password', 'wrong', encrypted]);
    t.match(wrong.stderr, /password-required: The PDF is encrypted, and the password given does not open it/, `${engine}: a wrong password`);
  }
});

