/**
 * Malformed records into every stage: the line `null`, a page whose block text is a number, an
 * item that is null. Each is a `bad-record` error for its document (or for its line), never a
 * crash, and the documents around it come through.
 */
import t from 'tap';
import { parseLines, run, toNdjson } from '../helpers.js';

const doc = (id: string): object => ({ type: 'doc', id, schema: 1, meta: { pages: 1 } });
const item = { text: 'Hello', x: 10, y: 20, w: 25, size: 10, font: 'f', dir: 'ltr' };
const block = { text: 'Hello', lines: 1, box: { x: 10, y: 10, w: 25, h: 12 } };
const page = (id: string, extra: object): object => ({ type: 'page', doc: id, page: 1, width: 200, height: 200, items: [item], blocks: [block], ...extra });
const end = (id: string): object => ({ type: 'end', doc: id });

const input =
  'null\n' +
  toNdjson([doc('a'), page('a', {}), end('a')]) +
  toNdjson([doc('b'), page('b', { blocks: [{ text: 5, lines: 1 }] }), end('b')]) +
  toNdjson([doc('c'), page('c', { items: [null] }), end('c')]) +
  toNdjson([doc('d'), page('d', {}), end('d')]);

const STAGES = ['parse', 'order', 'lines', 'bidi', 'repair', 'resegment', 'paragraphs', 'join', 'roles', 'langid'];

for (const stage of STAGES) {
  t.test(`${stage}: bad records are bad-record errors, the good documents end`, async (t) => {
    const result = await run([stage, '--fail-on', 'error'], input);
    t.notMatch(result.stderr, /TypeError|at .*\.js:\d+/u, 'no stack trace');
    const outcomes = parseLines(result.stdout).filter((r) => r.type === 'end' || r.type === 'error');
    t.same(
      outcomes.map((r) => `${r.type === 'end' || r.type === 'error' ? r.doc : ''}:${r.type === 'error' ? r.code : r.type}`),
      ['line-1:bad-record', 'a:end', 'b:bad-record', 'c:bad-record', 'd:end'],
    );
    t.equal(result.code, 1, 'exit code 1 with --fail-on error: some documents failed');
  });
}

for (const format of ['text', 'html', 'xml']) {
  t.test(`serialize --format ${format}: bad records are reported, the good documents written`, async (t) => {
    const result = await run(['serialize', '--format', format, '--fail-on', 'error'], input);
    t.notMatch(result.stderr, /TypeError|at .*\.js:\d+/u, 'no stack trace');
    t.match(result.stderr, /b: bad-record/u);
    // The text and XML writers read what these blocks have: the good documents are written. The
    // HTML writer needs blocks as the chain makes them; these lack fields, so a and d are reported.
    if (format !== 'html') t.ok(result.stdout.split('Hello').length - 1 >= 2, 'documents a and d are written');
    else t.match(result.stderr, /d: bad-record: serialize could not write/u, 'the run reaches the last document');
    t.equal(result.code, 1);
  });
}
