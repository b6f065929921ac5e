/**
 * The stage adapters: a core that throws fails its own document with one `stage-failed` error
 * record, and the stream goes on with the next document; failed documents pass through untouched.
 */
import t from 'tap';
import { asyncDocumentTransform, documentTransform, pageTransform } from '../../../lib/protocol/stage.js';
import type { ErrorRecord, PageRecord, PipeRecord } from '../../../lib/protocol/records.js';
import { docRecord, endRecord, item, pageRecord, through } from '../../helpers.js';

/** Two pages each for documents a, b and c. */
const input = (): PipeRecord[] =>
  ['a', 'b', 'c'].flatMap((id) => [
    docRecord(id, 2),
    pageRecord(id, 1, { items: [item(`${id}1`, 10, 20)] }),
    pageRecord(id, 2, { items: [item(`${id}2`, 10, 20)] }),
    endRecord(id, 2),
  ]);

const mark = (page: PageRecord): PageRecord => ({ ...page, items: page.items?.map((i) => ({ ...i, text: i.text + '!' })) });

/** Each document's record types, in order, keyed by id. */
function shape(records: readonly PipeRecord[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of records) {
    const id = r.type === 'doc' ? r.id : 'doc' in r && typeof r.doc === 'string' ? r.doc : '-';
    (out[id] ??= []).push(r.type === 'error' ? `error:${r.code}` : r.type);
  }
  return out;
}

t.test('documentTransform: a throwing core fails only its document, once', async (t) => {
  const stage = documentTransform('test', (group) => {
    if (group.doc.id === 'b') throw new Error('cannot handle b');
    return { pages: group.pages.map(mark) };
  });
  const out = (await through(stage, input())) as PipeRecord[];
  t.same(shape(out), {
    a: ['doc', 'page', 'page', 'end'],
    b: ['doc', 'error:stage-failed'],
    c: ['doc', 'page', 'page', 'end'],
  });
  const error = out.find((r): r is ErrorRecord => r.type === 'error');
  t.match(error, { doc: 'b', stage: 'test', message: /cannot handle b/ });
  const texts = out.filter((r): r is PageRecord => r.type === 'page').map((p) => p.items?.[0]?.text);
  t.same(texts, ['a1!', 'a2!', 'c1!', 'c2!'], 'the other documents went through the core');
});

t.test('pageTransform: a page that throws fails its document once; the rest of it is dropped', async (t) => {
  const stage = pageTransform('test', (page) => {
    if (page.doc === 'b' && page.page === 1) throw new Error('bad page');
    return { page: mark(page) };
  });
  const out = (await through(stage, input())) as PipeRecord[];
  t.same(shape(out), {
    a: ['doc', 'page', 'page', 'end'],
    b: ['doc', 'error:stage-failed'],
    c: ['doc', 'page', 'page', 'end'],
  });
  t.match(out.find((r) => r.type === 'error'), { doc: 'b', place: { page: 1 } });
});

t.test('a document that failed upstream passes through without running the core', async (t) => {
  let calls = 0;
  const records: PipeRecord[] = [
    docRecord('x'),
    pageRecord('x', 1, { items: [] }),
    { type: 'error', doc: 'x', code: 'timeout', message: 'too slow', stage: 'parse' },
  ];
  const viaDocument = (await through(
    documentTransform('test', (g) => {
      calls += 1;
      return { pages: g.pages };
    }),
    records,
  )) as PipeRecord[];
  t.equal(calls, 0, 'the document core did not run');
  t.same(shape(viaDocument), { x: ['doc', 'page', 'error:timeout'] });
  const viaPage = (await through(
    pageTransform('test', (page) => {
      calls += 1;
      return { page };
    }),
    records,
  )) as PipeRecord[];
  t.same(shape(viaPage), { x: ['doc', 'page', 'error:timeout'] }, 'pages of a document that fails later are still passed on');
});

t.test('asyncDocumentTransform: documents stay in order however long each core waits; a rejecting core fails its document', async (t) => {
  let closed = 0;
  const delays: Record<string, number> = { a: 30, b: 0, c: 5 };
  const stage = asyncDocumentTransform(
    'test',
    async (group) => {
      await new Promise((resolve) => setTimeout(resolve, delays[group.doc.id] ?? 0));
      if (group.doc.id === 'b') throw new Error('the model went away');
      return { pages: group.pages.map(mark) };
    },
    async () => {
      closed++;
    },
  );
  const out = (await through(stage, input())) as PipeRecord[];
  t.same(shape(out), {
    a: ['doc', 'page', 'page', 'end'],
    b: ['doc', 'error:stage-failed'],
    c: ['doc', 'page', 'page', 'end'],
  });
  t.same(out.filter((r) => r.type === 'doc').map((r) => (r.type === 'doc' ? r.id : '')), ['a', 'b', 'c'], 'in input order, though a waited longest');
  t.match(out.find((r) => r.type === 'error'), { doc: 'b', stage: 'test', message: /the model went away/ });
  t.equal(closed, 1, 'close runs once, at the end');
});

