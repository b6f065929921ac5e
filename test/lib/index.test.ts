/**
 * The library's public face: every stage exported, a chain built by hand from `stages` equal to
 * `extract`, `compose` as one stream for `stream.pipeline`, and a wrong `format` refused.
 */
import t from 'tap';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compose, extract, fullChain, stages, UsageError, type PdfRecord } from '../../lib/index.js';
import { samplePdf } from '../helpers.js';

const inputs = (): PdfRecord[] => [
  { type: 'pdf', id: 'two-columns', path: samplePdf('two-columns') },
  { type: 'pdf', id: 'hyphenated', path: samplePdf('hyphenated') },
];

/** Runs transforms over records and returns what the last wrote, joined. */
async function collect(streams: NodeJS.ReadWriteStream[]): Promise<string> {
  const out: string[] = [];
  await pipeline([
    Readable.from(inputs()),
    ...(streams as never[]),
    new Writable({ objectMode: true, write(chunk: unknown, _e, done) { out.push(String(chunk)); done(); } }),
  ]);
  return out.join('');
}

t.test('every stage of the chain is exported, in the order of the chain', async (t) => {
  t.same(Object.keys(stages), ['parse', 'order', 'lines', 'bidi', 'repair', 'resegment', 'paragraphs', 'join', 'roles', 'langid', 'serialize']);
});

t.test('a chain built by hand from `stages` gives what extract gives', async (t) => {
  for (const format of ['text', 'html'] as const) {
    const byHand = await collect([
      stages.parse({ jobs: 1 }), stages.order(), stages.lines(), stages.bidi(), stages.repair(), stages.resegment(),
      stages.paragraphs(), stages.join(), stages.roles(), stages.langid(), stages.serialize({ format }),
    ]);
    const outputs: string[] = [];
    for await (const doc of extract(inputs(), { format })) outputs.push(doc.output);
    t.ok(outputs.every((o) => o.length > 100), `${format}: extract wrote both documents`);
    t.equal(byHand, outputs.join('\f\n'), `${format}: the same documents`);
    if (format === 'html') t.match(outputs[0], /^<html>\n<head>/, "extract's output is the HTML asked for");
  }
});

t.test('compose: the whole chain as one Duplex for stream.pipeline', async (t) => {
  const composed = await collect([compose(...fullChain({ format: 'text' }))]);
  const texts: string[] = [];
  for await (const doc of extract(inputs())) texts.push(doc.text);
  t.equal(composed, texts.join('\f\n'));
  const failing = compose(...fullChain({ format: 'text' }));
  const run = pipeline(Readable.from([{ type: 'nonsense' }]), failing, new Writable({ write(_c, _e, done) { done(); } }));
  await t.resolves(run, 'a bad record becomes an error document, not a broken stream');
});

t.test('a wrong format is a type error and an exception, never silently text', async (t) => {
  // @ts-expect-error 'htm' is not a format
  const wrong = extract([samplePdf('one-column')], { format: 'htm' });
  await t.rejects(wrong.next(), UsageError);
  t.throws(() => fullChain({ format: 'txt' as never }), /Unknown format "txt"/);
});
