/**
 * The KenLM `query` wrapper: its output parsing on the documented format, its behaviour against a
 * stand-in program that answers, hangs, dies or prints garbage, and the real KenLM when it is
 * installed.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArpaModel } from '../../../lib/lm/arpa.js';
import { findKenlm, KenlmQuery, parseQueryLine } from '../../../lib/lm/kenlm.js';
import { ModelError } from '../../../lib/lm/model.js';
import { openModel } from '../../../lib/lm/open.js';
import { wordsOf } from '../../../lib/lm/words.js';
import { childEnv, cli, repoRoot, untapped } from '../../helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'pdfpipe-lm-'));
t.teardown(() => rmSync(tmp, { recursive: true, force: true }));

t.test("KenLM query's sentence lines are parsed; anything else is not an answer", async (t) => {
  t.same(parseQueryLine('Total: -12.3456 OOV: 2'), { total: -12.3456, oov: 2 });
  t.same(parseQueryLine('Total: -inf OOV: 0'), { total: -Infinity, oov: 0 });
  t.equal(parseQueryLine('Perplexity including OOVs:\t12.5'), null);
  t.equal(parseQueryLine('the=4 2 -0.5\tTotal: -1 OOV: 0'), null);
});

/** A stand-in for `query`: answers each line with its word count, or misbehaves as MODE says. */
function fakeQuery(mode: 'ok' | 'hang' | 'die' | 'garbage'): string {
  const path = join(tmp, `query-${mode}`);
  writeFileSync(
    path,
    `#!/usr/bin/env node
const mode = ${JSON.stringify(mode)};
let seen = 0;
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    seen += 1;
    if (mode === 'hang' && seen === 2) return;
    if (mode === 'die' && seen === 2) process.exit(3);
    if (mode === 'garbage' && seen === 2) { process.stdout.write('Segmentation fault\\n'); continue; }
    const words = line.split(' ').filter(Boolean).length;
    process.stdout.write('Total: ' + (-words) + ' OOV: 0\\n');
  }
});
`,
  );
  chmodSync(path, 0o755);
  return path;
}

t.test('the query wrapper keeps one process and answers in order, also past a full pipe', async (t) => {
  writeFileSync(join(tmp, 'model.bin'), 'binary model stand-in');
  const lm = new KenlmQuery(join(tmp, 'model.bin'), { binary: fakeQuery('ok') });
  const many = Array.from({ length: 20000 }, (_, i) => Array.from({ length: i % 7 }, () => 'word'));
  const scores = await lm.score(many);
  t.same(scores.slice(0, 8).map((s) => s.total), [0, -1, -2, -3, -4, -5, -6, 0]);
  t.equal(scores.length, 20000);
  t.same(await lm.score([['a', 'b']]), [{ total: -2, oov: 0 }], 'the same process answers again');
  await lm.close();
});

t.test('a hung, dying or babbling query process fails the request clearly, and is restarted', async (t) => {
  const model = join(tmp, 'model.bin');
  writeFileSync(model, 'binary model stand-in');
  // The timeout leaves room for a busy machine to start node.
  const hung = new KenlmQuery(model, { binary: fakeQuery('hang'), timeoutMs: 3000 });
  await t.rejects(hung.score([['a'], ['b'], ['c']]), /no answer within 3000 ms/);
  // A fresh process answers the next request (it hangs again only at its second line).
  t.same(await hung.score([['x', 'y']]), [{ total: -2, oov: 0 }]);
  await hung.close();
  const dying = new KenlmQuery(model, { binary: fakeQuery('die'), maxRestarts: 1 });
  await t.rejects(dying.score([['a'], ['b']]), /exited \(code 3\)/);
  await t.rejects(dying.score([['a'], ['b']]), /exited/);
  await t.rejects(dying.score([['a']]), /exited/, 'after too many restarts it stays failed');
  await dying.close();
  const garbage = new KenlmQuery(model, { binary: fakeQuery('garbage') });
  await t.rejects(garbage.score([['a'], ['b']]), /printed "Segmentation fault", expected "Total: … OOV: …"/);
  await garbage.close();
});

t.test('a missing query program or model is a clear error', async (t) => {
  t.throws(() => new KenlmQuery(join(tmp, 'model.bin'), { binary: join(tmp, 'no-such-query') }), ModelError);
  t.throws(() => new KenlmQuery(join(tmp, 'model.bin'), { binary: join(tmp, 'no-such-query') }), /`query` program not found at/);
  t.throws(() => new KenlmQuery(join(tmp, 'missing.bin'), { binary: fakeQuery('ok') }), /cannot be read/);
});

const query = findKenlm('query');
const lmplz = findKenlm('lmplz');
const buildBinary = findKenlm('build_binary');
const kenlmSkip = query && lmplz && buildBinary ? false : 'KenLM is not installed (put query, lmplz and build_binary on PATH or set KENLM_BIN to their folder)';

t.test('real KenLM: lmplz builds a model, and query scores it as the ARPA reader does', { skip: kenlmSkip }, async (t) => {
  const text = ['hyphenated', 'one-column', 'two-columns'].map((n) => readFileSync(join(repoRoot, `samples/${n}.txt`), 'utf8')).join('\n');
  const built = spawnSync(...untapped(process.execPath, [cli, 'lm', 'build', '--order', '3']), { input: text, env: childEnv, maxBuffer: 64 << 20 });
  t.equal(built.status, 0, String(built.stderr));
  const arpaPath = join(tmp, 'samples.arpa');
  writeFileSync(arpaPath, built.stdout);
  const binPath = join(tmp, 'samples.binary');
  t.equal(spawnSync(buildBinary!, [arpaPath, binPath]).status, 0, 'build_binary converts it');
  const lm = openModel(binPath);
  t.ok(lm instanceof KenlmQuery, 'a binary model goes through query');
  const arpa = openModel(arpaPath);
  t.ok(arpa instanceof ArpaModel, 'an ARPA file is read in-process');
  const sentences = [wordsOf('Boiling water turned out to be surprisingly troublesome'), wordsOf('troublesome surprisingly be to out turned water'), []];
  const [fromQuery, fromArpa] = [await lm.score(sentences), await arpa.score(sentences)];
  for (const [i, s] of fromQuery.entries()) {
    t.ok(Math.abs(s.total - fromArpa[i]!.total) < 0.01, `query ${s.total.toFixed(3)} ≈ in-process ${fromArpa[i]!.total.toFixed(3)}`);
    t.equal(s.oov, fromArpa[i]!.oov, 'the same unknown words');
  }
  t.ok(fromQuery[0]!.total > fromQuery[1]!.total, 'the sentence in order scores better');
  t.same((await lm.score([['boiling', 'zyxwvut']]))[0]?.oov, 1, 'query reports an unknown word');
  await lm.close();
});
