/**
 * pdf.js's legacy build replaces some of JavaScript's built-in functions as it loads (core-js):
 * the thread that reads a document with pdf.js keeps Node's own, and the functions pdf.js adds
 * stay for it.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { keepingBuiltins } from '../../../lib/engines/builtins.js';
import { extractRecords } from '../../../lib/engines/pdfjs.js';
import type { PipeRecord } from '../../../lib/protocol/records.js';
import { samplePdf } from '../../helpers.js';

const NODE_PUSH = Array.prototype.push;
const NODE_STRINGIFY = JSON.stringify;
const NODE_PARSE = JSON.parse;
const NODE_TO_STRING = Function.prototype.toString;

t.test('after pdf.js has read a document, the thread runs on Node\'s push, JSON and toString', async (t) => {
  const records: PipeRecord[] = [];
  for await (const record of extractRecords(new Uint8Array(readFileSync(samplePdf('one-column'))), 'one-column', 'one-column.pdf', { normalize: true, memory: 512 })) records.push(record);
  t.ok(records.some((r) => r.type === 'page' && (r.items?.length ?? 0) > 0), 'pdf.js read the text');
  t.equal(Array.prototype.push, NODE_PUSH, 'Array.prototype.push');
  t.equal(JSON.stringify, NODE_STRINGIFY, 'JSON.stringify');
  t.equal(JSON.parse, NODE_PARSE, 'JSON.parse');
  t.equal(Function.prototype.toString, NODE_TO_STRING, 'Function.prototype.toString');
  t.equal(typeof (Promise as { withResolvers?: unknown }).withResolvers, 'function', 'what pdf.js added for itself stays');
});

t.test('a load that replaces a built-in and adds another: the first is put back, the second stays', async (t) => {
  const added = Symbol('added');
  const loaded = await keepingBuiltins(async () => {
    Array.prototype.push = function push(this: unknown[], ...items: unknown[]): number {
      return NODE_PUSH.apply(this, items);
    };
    (Array.prototype as unknown as Record<symbol, number>)[added] = 1;
    return 'loaded';
  });
  t.teardown(() => delete (Array.prototype as unknown as Record<symbol, number>)[added]);
  t.equal(loaded, 'loaded', 'the load\'s value');
  t.equal(Array.prototype.push, NODE_PUSH, 'the replaced function is Node\'s again');
  t.equal((Array.prototype as unknown as Record<symbol, number>)[added], 1, 'the added one stays');
});
