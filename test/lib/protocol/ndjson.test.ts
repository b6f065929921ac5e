/**
 * NDJSON input: bytes → checked records. Multibyte characters survive any chunking; a bad line is
 * an error record (never silence, never a crash); every document ends with exactly one outcome.
 */
import t from 'tap';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { jsonLines, parseNdjson, stringifyNdjson } from '../../../lib/protocol/ndjson.js';
import { SCHEMA_VERSION, type ErrorRecord, type PipeRecord } from '../../../lib/protocol/records.js';
import { docRecord, endRecord, item, pageRecord, toNdjson } from '../../helpers.js';

/** Feeds byte chunks through the NDJSON parser and guard, collecting the records. */
async function readRecords(chunks: readonly (Buffer | string)[]): Promise<PipeRecord[]> {
  const out: PipeRecord[] = [];
  const sink = new Writable({
    objectMode: true,
    write(record: PipeRecord, _enc, done) {
      out.push(record);
      done();
    },
  });
  const source = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  await pipeline([source, ...parseNdjson('test'), sink]);
  return out;
}

const outcomesOf = (records: readonly PipeRecord[], doc: string) =>
  records.filter((r) => (r.type === 'end' || r.type === 'error') && r.doc === doc);

const SPECIAL = 'é中🙂';

t.test('multibyte UTF-8 split across chunks at every byte boundary is decoded intact', async (t) => {
  const bytes = Buffer.from(
    toNdjson([docRecord('u'), pageRecord('u', 1, { items: [item(SPECIAL, 10, 20)] }), endRecord('u')]),
    'utf8',
  );
  // The special characters' bytes: every split inside them is a split inside a character.
  const start = bytes.indexOf(Buffer.from(SPECIAL));
  t.ok(start > 0);
  const failures: number[] = [];
  for (let k = 1; k < bytes.length; k++) {
    const records = await readRecords([bytes.subarray(0, k), bytes.subarray(k)]);
    const page = records.find((r) => r.type === 'page');
    const ok = records.length === 3 && page?.type === 'page' && page.items?.[0]?.text === SPECIAL;
    if (!ok) failures.push(k);
  }
  t.same(failures, [], 'every two-chunk split decodes the same records');
  // And one byte at a time, which splits every character and every line.
  const oneByOne = await readRecords([...bytes].map((b) => Buffer.from([b])));
  const page = oneByOne.find((r) => r.type === 'page');
  t.equal(page?.type === 'page' ? page.items?.[0]?.text : undefined, SPECIAL);
  t.same(oneByOne.map((r) => r.type), ['doc', 'page', 'end']);
});

t.test('a bad JSON line inside a document ends that document with one bad-json error, and the next comes through', async (t) => {
  const lines = [
    JSON.stringify(docRecord('a')),
    JSON.stringify(pageRecord('a', 1, { items: [item('one', 10, 20)] })),
    '{"type":"page","doc":"a","page":2,', // line 3: cut short
    JSON.stringify(pageRecord('a', 3, { items: [] })),
    JSON.stringify(endRecord('a')),
    JSON.stringify(docRecord('b')),
    JSON.stringify(pageRecord('b', 1, { items: [item('two', 10, 20)] })),
    JSON.stringify(endRecord('b')),
  ];
  const records = await readRecords([lines.join('\n') + '\n']);
  const outcomesA = outcomesOf(records, 'a');
  t.equal(outcomesA.length, 1, 'document a has exactly one outcome');
  const error = outcomesA[0] as ErrorRecord;
  t.equal(error.type, 'error');
  t.equal(error.code, 'bad-json');
  t.equal(error.place?.line, 3);
  t.notOk(records.some((r) => r.type === 'page' && r.doc === 'a' && r.page === 3), 'the rest of the failed document is dropped');
  // Document b comes through whole.
  const b = records.filter((r) => (r.type === 'doc' && r.id === 'b') || ('doc' in r && r.doc === 'b'));
  t.same(b.map((r) => r.type), ['doc', 'page', 'end']);
  const pageB = b[1];
  t.equal(pageB?.type === 'page' ? pageB.items?.[0]?.text : undefined, 'two');
});

t.test('a bad line outside any document becomes an error record, not silence', async (t) => {
  const lines = [
    JSON.stringify(docRecord('a')),
    JSON.stringify(endRecord('a')),
    'this is not json', // line 3
    '[1, 2, 3]', // line 4: JSON, but not a record
    JSON.stringify({ type: 'pdf' }), // line 5: a pdf record with neither path nor data
    JSON.stringify(docRecord('b')),
    JSON.stringify(endRecord('b')),
  ];
  const records = await readRecords([lines.join('\n') + '\n']);
  const errors = records.filter((r): r is ErrorRecord => r.type === 'error');
  t.same(
    errors.map((e) => [e.code, e.place?.line]),
    [
      ['bad-json', 3],
      ['bad-record', 4],
      ['bad-record', 5],
    ],
  );
  for (const e of errors) t.type(e.doc, 'string');
  t.equal(outcomesOf(records, 'a').length, 1);
  t.equal(outcomesOf(records, 'b')[0]?.type, 'end', 'the documents around the bad lines are intact');
});

t.test('a document cut off after its header ends with a bad-record error', async (t) => {
  const cut = await readRecords([toNdjson([docRecord('a'), pageRecord('a', 1, { items: [] })])]);
  t.same(cut.map((r) => r.type), ['doc', 'page', 'error']);
  const error = cut[2] as ErrorRecord;
  t.equal(error.doc, 'a');
  t.equal(error.code, 'bad-record');

  // A new header before the previous document's outcome cuts that one off too.
  const interrupted = await readRecords([toNdjson([docRecord('a'), docRecord('b'), endRecord('b')])]);
  t.same(interrupted.map((r) => r.type), ['doc', 'error', 'doc', 'end']);
  const first = interrupted[1] as ErrorRecord;
  t.equal(first.doc, 'a');
  t.equal(first.code, 'bad-record');
  t.equal(first.place?.line, 2);
});

t.test('a document with another schema version fails as a whole with one schema-mismatch error', async (t) => {
  const records = await readRecords([
    toNdjson([
      { ...docRecord('old'), schema: SCHEMA_VERSION + 1 },
      pageRecord('old', 1, { items: [] }),
      pageRecord('old', 2, { items: [] }),
      endRecord('old', 2),
      docRecord('new'),
      pageRecord('new', 1, { items: [] }),
      endRecord('new'),
    ]),
  ]);
  const old = records.filter((r) => (r.type === 'doc' && r.id === 'old') || ('doc' in r && r.doc === 'old'));
  t.equal(old.length, 1, 'one record for the old document: its error');
  t.match(old[0], { type: 'error', doc: 'old', code: 'schema-mismatch', place: { line: 1 } });
  t.same(
    records.filter((r) => r !== old[0]).map((r) => r.type),
    ['doc', 'page', 'end'],
    'the next document comes through',
  );
});

t.test('CRLF line ends and blank lines are accepted', async (t) => {
  const text = toNdjson([docRecord('a'), endRecord('a')]).replace(/\n/g, '\r\n') + '\r\n\n';
  const records = await readRecords([text]);
  t.same(records.map((r) => r.type), ['doc', 'end']);
});

t.test('stringifyNdjson writes one JSON record per line, which reads back the same', async (t) => {
  const input = [docRecord('r'), pageRecord('r', 1, { items: [item(SPECIAL, 1, 2)] }), endRecord('r')];
  const chunks: string[] = [];
  await pipeline(
    Readable.from(input),
    stringifyNdjson(),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
  );
  const text = chunks.join('');
  t.equal(text.split('\n').length, input.length + 1);
  t.same(await readRecords([text]), input);
});

t.test('a line over the length cap is one bad-record error, and the document after it comes through', async (t) => {
  const out: PipeRecord[] = [];
  const chunks = [toNdjson([docRecord('a'), endRecord('a')]), '{"type":"doc","id":"long","pad":"', 'x'.repeat(3000), '"}\n', toNdjson([docRecord('b'), endRecord('b')])];
  const [, guard] = parseNdjson('test');
  await pipeline([Readable.from(chunks.map((c) => Buffer.from(c))), jsonLines(1024), guard, new Writable({ objectMode: true, write(r: PipeRecord, _e, done) { out.push(r); done(); } })]);
  t.same(out.filter((r) => r.type === 'end' || r.type === 'error').map((r) => (r.type === 'error' ? `${r.doc}:${r.code}` : `${r.type === 'end' && r.doc}:end`)), ['a:end', 'line-3:bad-record', 'b:end']);
});

t.test('a bad-json message never ends inside a surrogate pair', async (t) => {
  // V8 quotes the unexpected token (half of the emoji) and a snippet around it.
  for (let shift = 0; shift < 4; shift++) {
    const line = `[${'1,'.repeat(20 + shift)}${'🙂'.repeat(30)}]\n`;
    const [error] = (await readRecords([line])).filter((r): r is ErrorRecord => r.type === 'error');
    t.ok(error, `shift ${shift}: an error record`);
    t.notOk(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u.test(error!.message), `shift ${shift}: no lone surrogate in "${error!.message.slice(0, 80)}"`);
  }
});

t.test('a stray page before its document\'s header: that document gets one outcome, the next one comes through', async (t) => {
  const records = await readRecords([toNdjson([pageRecord('x', 1, { items: [item('early', 10, 10)] }), docRecord('x'), pageRecord('x', 1, { items: [item('late', 10, 10)] }), endRecord('x'), docRecord('y'), endRecord('y')])]);
  t.same(outcomesOf(records, 'x').map((r) => r.type), ['error']);
  t.same(outcomesOf(records, 'y').map((r) => r.type), ['end']);
});
