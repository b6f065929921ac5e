/**
 * extract's options: every stage's options are merged into one table (lib/run/extract.ts DEFAULTS),
 * and the same options object reaches every stage. A key two stages both read must mean one thing
 * with one default, or `extract` would run a stage with another stage's default and give other
 * output than the stages piped.
 */
import t from 'tap';
import { DEFAULTS } from '../../../lib/run/extract.js';
import * as parse from '../../../stages/parse.js';
import * as order from '../../../stages/order.js';
import * as lines from '../../../stages/lines.js';
import * as bidi from '../../../stages/bidi.js';
import * as repair from '../../../stages/repair.js';
import * as resegment from '../../../stages/resegment.js';
import * as paragraphs from '../../../stages/paragraphs.js';
import * as join from '../../../stages/join.js';
import * as langid from '../../../stages/langid.js';
import * as serialize from '../../../stages/serialize.js';

const stages: Record<string, Record<string, unknown>> = {
  parse: { ...parse.DEFAULTS },
  order: { ...order.DEFAULTS },
  lines: { ...lines.DEFAULTS },
  bidi: { ...bidi.DEFAULTS },
  repair: { ...repair.DEFAULTS },
  resegment: { ...resegment.DEFAULTS },
  paragraphs: { ...paragraphs.DEFAULTS },
  join: { ...join.DEFAULTS },
  langid: { ...langid.DEFAULTS },
  serialize: { ...serialize.DEFAULTS },
};

t.test('an option key two stages share has one default, and extract passes each stage its own', async (t) => {
  const merged = DEFAULTS as unknown as Record<string, unknown>;
  const clashes: string[] = [];
  for (const [stage, defaults] of Object.entries(stages)) {
    for (const [key, value] of Object.entries(defaults)) {
      if (JSON.stringify(merged[key]) !== JSON.stringify(value)) clashes.push(`${stage}.${key}: ${JSON.stringify(value)}, extract passes ${JSON.stringify(merged[key])}`);
    }
  }
  t.same(clashes, []);
});
