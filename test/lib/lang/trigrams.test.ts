/** rankLanguages: franc's francAll reimplemented, checked number for number against franc itself. */
import t from 'tap';
import { francAll } from 'franc';
import { DEFAULT_CANDIDATES, toFrancCode } from '../../../lib/lang/codes.js';
import { rankLanguages } from '../../../lib/lang/trigrams.js';
import { parseLines, run, samplesDir } from '../../helpers.js';

t.test("rankLanguages is franc's francAll, number for number, on every block of the samples", async (t) => {
  const result = await run(['extract', '--format', 'ndjson', samplesDir]);
  const texts = parseLines(result.stdout).flatMap((r) => (r.type === 'page' ? (r.blocks ?? []).map((b) => b.text) : []));
  t.ok(texts.length >= 30, `blocks from the samples (${texts.length})`);
  const candidates = DEFAULT_CANDIDATES.map(toFrancCode).filter((c): c is string => c !== null);
  // Whole blocks, their first words, and texts franc must call und or give to a one-language script.
  const cases = [...texts, ...texts.map((text) => text.slice(0, 25)), '', 'short', '12345 67890 !!', 'שלום עולם וכל יושביו', '𝐀𝐁𝐂 mathematical letters'];
  let same = 0;
  for (const text of cases) {
    for (const only of [candidates, [], ['deu', 'nld'], ['xxx']]) {
      const expected = francAll(text, { minLength: 10, ...(only.length > 0 ? { only } : {}) });
      if (JSON.stringify(rankLanguages(text, only)) === JSON.stringify(expected)) same++;
      else t.fail(`differs from franc on ${JSON.stringify(text.slice(0, 60))} (only ${only.length})`);
    }
  }
  t.equal(same, cases.length * 4);
});
