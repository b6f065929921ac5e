/**
 * join: the language-model margin on a hand-written ARPA model, document-level decisions on
 * hand-built pages, bad configurations, and paragraphs that run on across pages in the shared
 * ground-truth corpus. The rules, the decision at one break and the display-formula test on their
 * own are in test/lib/paragraphs/.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JoinConfigError, loadJoinRules, parseJoinRules, rejectedJoinRules } from '../../lib/paragraphs/join-rules.js';
import { joinMargin, SentenceScores } from '../../lib/lm/join-model.js';
import { ModelError, type LanguageModel } from '../../lib/lm/model.js';
import { findKenlm, KenlmQuery } from '../../lib/lm/kenlm.js';
import { ArpaModel } from '../../lib/lm/arpa.js';
import { joinDocument, joinDocumentScored, normalizeOptions } from '../../stages/join.js';
import { decide } from '../../lib/paragraphs/breaks.js';
import { indentsParagraphs } from '../../lib/paragraphs/indents.js';
import { documentText } from '../../lib/formats/text.js';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { block, childEnv, cli, docRecord, endRecord, group, line, pageRecord, repoRoot, run, sharedRoot, untapped } from '../helpers.js';
import type { Block, Line, PageRecord } from '../../lib/protocol/records.js';

t.test('bad configurations name the problem', async (t) => {
  t.match(rejectedJoinRules(parseJoinRules({ language: [{ name: 'en', config: { join_words: [['(unclosed', '', ' ']] } }] })), [/rule join_words\[0\] of language "en" left out/]);
  t.throws(() => parseJoinRules({ language: [{ name: 'en', config: { absolute_eof: [['only one']] } }] }), JoinConfigError);
  t.throws(() => parseJoinRules({ rules: [] }), /without a `language` array/);
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-join-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"language": [');
  t.throws(() => loadJoinRules(bad), /not valid JSON/);
  const result = await run(['join', '--join-rules', bad], '');
  t.equal(result.code, 2);
  t.match(result.stderr, /not valid JSON/);
  const missing = await run(['join', '--join-lm', join(dir, 'none.arpa')], '');
  t.equal(missing.code, 2);
  t.match(missing.stderr, /none\.arpa cannot be read/);
  const lang = await run(['join', '--join-lang', 'qqq'], '');
  t.equal(lang.code, 2);
  t.match(lang.stderr, /Unknown language code "qqq"/);
});

const ARPA = `\\data\\
ngram 1=7
ngram 2=6

\\1-grams:
-1.0 <s> -0.5
-0.7 </s>
-1.2 the -0.4
-1.5 red -0.4
-1.5 house -0.4
-1.6 boat -0.4
-2.0 <unk>

\\2-grams:
-0.2 <s> the
-0.3 the red
-0.2 red house
-0.3 red boat
-0.1 house </s>
-0.1 boat </s>

\\end\\
`;

t.test('language model: ARPA back-off scores and the join margin', async (t) => {
  const model = ArpaModel.parse(ARPA);
  t.equal(model.order, 2);
  t.ok(Math.abs(model.sequenceProb(['the', 'red'], { bos: true, eos: false }) - (-0.2 - 0.3)) < 1e-9);
  t.ok(Math.abs(model.sequenceProb(['house', 'the'], { bos: false, eos: false }) - (-1.5 - 0.4 - 1.2)) < 1e-9, 'backs off');
  t.ok(joinMargin({ forward: model }, 'the red', 'house', 3) > 0, 'mid-phrase: run on');
  t.ok(joinMargin({ forward: model }, 'the red house', 'the red boat', 3) < 0, 'after a phrase end: break');
  const options = normalizeOptions({ rules: parseJoinRules({ language: [] }), model: { forward: model } });
  t.same(decide('the red', 'house', { lang: 'en', lastLine: null }, options), { join: true, rule: 'lm', joiner: ' ' });
  t.throws(() => ArpaModel.parse('not a model'), ModelError);
});

t.test('joinDocument re-decides breaks across pages and columns, skipping furniture', async (t) => {
  const page1 = pageRecord('j', 1, {
    lines: [line('Harbour Notes', 40, { role: 'header', block: 0 }), line('The boats came in with the', 100, { block: 1 }), line('Fin', 800, { role: 'page-number', block: 2 })],
    blocks: [block('Harbour Notes', { role: 'header' }), block('The boats came in with the'), block('Fin', { role: 'page-number' })],
  });
  const page2 = pageRecord('j', 2, {
    lines: [line('Harbour Notes', 40, { role: 'header', block: 0 }), line('morning tide.', 100, { block: 1 }), line('New Section', 130, { block: 1 }), line('Ships waited.', 160, { block: 2 })],
    blocks: [
      block('Harbour Notes', { role: 'header' }),
      block('morning tide.'),
      block('New Section', { role: 'heading' }),
      block('Ships waited.', { continues: true }),
    ],
  });
  const { pages } = await joinDocument(group([page1, page2]));
  const blocks = pages[1]!.blocks!;
  t.equal(blocks[1]!.continues, true, 'the sentence runs on across the page and its header');
  t.equal(blocks[1]!.joinRule, 'pdf2xml');
  t.equal(blocks[3]!.continues, false, 'nothing runs on from a heading');
  t.equal(page2.blocks![1]!.continues, false, 'input records are not mutated');
});

t.test('a running head that order missed, and notes at the foot of a page, do not break a run-on', async (t) => {
  const head = (): ReturnType<typeof block> => block('Harbour Notes — field edition');
  const pages = [
    pageRecord('r', 1, { blocks: [head(), block('The boats came in with the'), block('1 Counted at dawn.', { role: 'list-item', size: 8 })] }),
    pageRecord('r', 2, { blocks: [head(), block('morning tide, and the nets were'), block('2 Weighed twice.', { size: 8 })] }),
    pageRecord('r', 3, { blocks: [head(), block('hung out to dry.')] }),
  ];
  const out = (await joinDocument(group(pages))).pages;
  t.same(out.map((p) => p.blocks![1]!.continues), [false, true, true]);
  t.equal(out[1]!.blocks![0]!.continues, false, 'the repeated head itself joins nothing');
  t.same(out.map((p) => p.blocks![0]!.role), ['header', 'header', 'header'], 'and it becomes page furniture');
  t.equal(documentText(out, { blankLines: false, keepFurniture: false, sentences: false }), 'The boats came in with the morning tide, and the nets were hung out to dry.\n1 Counted at dawn.\n2 Weighed twice.\n', 'serialize joins the halves past the notes');
});

t.test('a one-line paragraph before a break is full when it spans the column of the paragraph after it', async (t) => {
  const wide = { x: 72, y: 800, w: 400, h: 11 };
  const pages = [
    pageRecord('s', 1, { blocks: [block('ตลาดเช้าเปิดทุกวันที่ท่าเรือเก่า', { box: wide })] }),
    pageRecord('s', 2, { blocks: [block('ชาวประมงนำปลามาขายตั้งแต่เช้ามืด', { box: { ...wide, y: 72, h: 26 }, lines: 2 })] }),
  ];
  t.same((await joinDocument(group(pages))).pages[1]!.blocks!.map((b) => [b.continues, b.joinRule]), [[true, 'pdf2xml-uncased']]);
  const debris = [pageRecord('s', 1, { blocks: [block('ตลาดเช้าเปิดทุกวันที่ท่าเรือเก่า', { box: wide }), block('อื่', { box: { x: 300, y: 810, w: 0, h: 11 } })] }), pages[1]!];
  t.equal((await joinDocument(group(debris))).pages[1]!.blocks![0]!.continues, true, 'a stray mark at the foot of the page is passed over');
  const narrow = [pageRecord('s', 1, { blocks: [block('ตลาดเช้าเปิดทุกวัน', { box: { ...wide, w: 120 } })] }), pages[1]!];
  t.same((await joinDocument(group(narrow))).pages[1]!.blocks!.map((b) => b.continues), [false]);
});

t.test('inside a layout block, a split that cut a sentence is mended; one at a sentence end is kept', async (t) => {
  const page = pageRecord('w', 1, {
    lines: [
      line('The boats came in with the', 100, { block: 3, w: 400 }),
      line('morning tide and the market opened.', 115, { block: 3, w: 400 }),
      line('Gulls circled above the quay all day.', 140, { block: 3, w: 400 }),
      line('boats were', 155, { block: 3, w: 60 }),
      line('then hauled out.', 170, { block: 3, w: 400 }),
    ],
    blocks: [
      block('The boats came in with the', { box: { x: 72, y: 92, w: 400, h: 11 } }),
      block('morning tide and the market opened.', { box: { x: 72, y: 107, w: 400, h: 11 } }),
      block('Gulls circled above the quay all day. boats were', { box: { x: 72, y: 132, w: 400, h: 26 }, lines: 2 }),
      block('then hauled out.', { box: { x: 72, y: 162, w: 400, h: 11 } }),
    ],
  });
  const blocks = (await joinDocument(group([page]))).pages[0]!.blocks!;
  t.same(blocks.map((b) => [b.continues, b.joinRule ?? null]), [[false, null], [true, 'within'], [false, null], [false, null]], 'a short last line is a paragraph end');
  t.same((await joinDocument(group([page]), { within: false })).pages[0]!.blocks!.map((b) => b.continues), [false, false, false, false]);
});

const gt = join(sharedRoot, 'corpus/gt');

t.test('ground truth: paragraphs that run across pages come out whole', { skip: existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`, timeout: 300_000 }, async (t) => {
  const names = ['de-chromium-hyph', 'el-pdflatex', 'tr-chromium-spaced'];
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-join-gt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--blank-lines', '--out-dir', dir, ...names.map((n) => join(gt, `${n}.pdf`))]);
  t.equal(result.code, 0, result.stderr);
  const collapse = (s: string): string => s.replace(/\s+/gu, ' ').trim();
  for (const name of names) {
    const meta = JSON.parse(readFileSync(join(gt, `${name}.json`), 'utf8')) as { features: string[] };
    t.ok(meta.features.includes('paragraph-across-pages'), `${name} has a paragraph across pages`);
    const truth = readFileSync(join(gt, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse).filter((p) => p.length >= 120);
    const out = readFileSync(join(dir, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(collapse);
    let whole = 0;
    let found = 0;
    for (const paragraph of truth) {
      const holder = out.find((o) => o.includes(paragraph.slice(0, 30)));
      if (!holder) continue;
      found++;
      if (holder.includes(paragraph.slice(-30))) whole++;
    }
    t.ok(found >= truth.length * 0.8, `${name}: most long paragraphs found (${found}/${truth.length})`);
    t.equal(whole, found, `${name}: every long paragraph found ends in the same output paragraph`);
  }
});

t.test('a display formula keeps its place in the paragraph the paragraphs stage gave it', async (t) => {
  // Text, a formula below it in a block of its own, and the text going on: the paragraphs stage
  // ran them on; the formula's one short line must not end the paragraph.
  const page = pageRecord('f', 1, {
    lines: [line('the entropy defined as', 100, { block: 0 }), line('Sq = k', 120, { block: 1, x: 200, w: 30 }), line('where q is a real number.', 140, { block: 2 })],
    blocks: [
      block('the entropy defined as', { box: { x: 72, y: 92, w: 400, h: 12 } }),
      block('Sq = k', { box: { x: 200, y: 112, w: 30, h: 12 }, continues: true }),
      block('where q is a real number.', { box: { x: 72, y: 132, w: 400, h: 12 }, continues: true }),
    ],
  });
  const out = (await joinDocument(group([page]))).pages[0]!.blocks!;
  t.same(out.map((b) => b.continues), [false, true, true]);
});

/** A page of one column: its lines, and one block per run of lines (`[text…]` per paragraph). */
function columnPage(doc: string, page: number, paragraphs: { lines: { text: string; w: number; x?: number }[]; extra?: Partial<Block> }[], size = 10): PageRecord {
  const lines: Line[] = [];
  const blocks: Block[] = [];
  let base = 100;
  paragraphs.forEach((p, index) => {
    const own = p.lines.map((l) => line(l.text, (base += 14), { x: l.x ?? 72, w: l.w, size, block: index }));
    lines.push(...own);
    const x = Math.min(...own.map((l) => l.box.x));
    const right = Math.max(...own.map((l) => l.box.x + l.box.w));
    blocks.push(block(own.map((l) => l.text).join(' '), { box: { x, y: own[0]!.box.y, w: right - x, h: 14 * own.length }, lines: own.length, size, ...p.extra }));
    base += 10;
  });
  return pageRecord(doc, page, { lines, blocks });
}

t.test('a paragraph cut by a page break in a script without case or spaces is joined by the measure', async (t) => {
  const wrapped = { text: 'ตลาดเช้าเปิดทุกวันที่ท่าเรือเก่าและมีคนมาก', w: 400 };
  const page1 = (lastWidth: number): PageRecord =>
    columnPage('m', 1, [{ lines: [wrapped, wrapped, { text: 'ชาวบ้านมาซื้อของ', w: 150 }] }, { lines: [{ text: 'ตลาดเช้าเปิดทุกวันที่ท่าเรือ', w: lastWidth }] }]);
  const page2 = columnPage('m', 2, [{ lines: [{ text: 'ชาวประมงนำปลามาขายตั้งแต่เช้ามืด', w: 320 }] }]);
  const full = (await joinDocument(group([page1(395), page2]))).pages[1]!.blocks!;
  t.same(full.map((b) => [b.continues, b.joinRule]), [[true, 'pdf2xml-uncased']], 'one line before the break and one after: the column tells');
  const short = (await joinDocument(group([page1(200), page2]))).pages[1]!.blocks!;
  t.same(short.map((b) => b.continues), [false], 'a line that stopped where the next word would have fitted ended its paragraph');
  // A heading set apart from its column's edge and run into the paragraph below it does not set
  // the measure: the heading after it is not "full" for being as wide.
  const headed = columnPage('m', 1, [
    { lines: [{ text: 'มาตรา ๑', x: 430, w: 40 }, { text: 'ตลาดเช้าเปิดทุกวันที่ท่าเรือเก่าและมีคนมาก', w: 400 }] },
    { lines: [{ text: 'มาตรา ๒', x: 430, w: 40 }] },
  ]);
  const next = columnPage('m', 2, [{ lines: [{ text: 'ชาวประมงนำปลามาขายตั้งแต่เช้ามืด', w: 320 }] }]);
  t.same((await joinDocument(group([headed, next]))).pages[1]!.blocks!.map((b) => b.continues), [false]);
});

t.test('a change of font size across a break ends the paragraph, between two stretches of prose', async (t) => {
  const page1 = columnPage('z', 1, [{ lines: [{ text: 'los Derechos Humanos como ideal común', w: 400 }, { text: 'que todos los pueblos y naciones por el', w: 398 }] }], 10.9);
  const page2 = (size: number): PageRecord => columnPage('z', 2, [{ lines: [{ text: 'Artículo 5', w: 60 }], extra: { size } }]);
  t.same((await joinDocument(group([page1, page2(12)]))).pages[1]!.blocks!.map((b) => [b.continues, b.joinRule]), [[false, 'size-change']]);
  t.same((await joinDocument(group([page1, page2(10.9)]))).pages[1]!.blocks!.map((b) => [b.continues, b.joinRule]), [[true, 'full-line']]);
  // A subscript left on its own before the break is no stretch of prose: its size says nothing.
  const sub = columnPage('z', 1, [{ lines: [{ text: 'text text text', w: 400 }, { text: 'text text text', w: 400 }] }, { lines: [{ text: 'MEdd', w: 20 }], extra: { size: 7 } }]);
  const after = columnPage('z', 2, [{ lines: [{ text: 'respectively, and the rates go up', w: 300 }] }]);
  t.not((await joinDocument(group([sub, after]))).pages[1]!.blocks![0]!.joinRule, 'size-change');
});

t.test('a display formula belongs to the paragraph it is set in', async (t) => {
  const page1 = columnPage('q', 1, [{ lines: [{ text: 'text text text', w: 400 }, { text: 'the entropy is defined as', w: 300 }] }]);
  const page2 = columnPage('q', 2, [{ lines: [{ text: 'Sq = k', x: 200, w: 30 }] }, { lines: [{ text: 'Everything else follows.', w: 300 }] }]);
  const blocks = (await joinDocument(group([page1, page2]))).pages[1]!.blocks!;
  // After it, below it on the page, the decision of the paragraphs stage stands.
  t.same(blocks.map((b) => [b.continues, b.joinRule ?? null]), [[true, 'formula'], [false, null]]);
});

t.test('where paragraphs start indented, a flush line after a full line that ends a sentence runs on', async (t) => {
  const wide = { text: 'text text text text text', w: 400 };
  const indented = { lines: [{ text: 'Text text text text', x: 87, w: 385 }, wide, { text: 'text.', w: 100 }] };
  const page1 = columnPage('i', 1, [indented, indented, indented, indented, indented, { lines: [{ text: 'Text text text text', x: 87, w: 385 }, { text: 'and so the section ends here.', w: 400 }] }]);
  t.ok(indentsParagraphs([page1]));
  t.notOk(indentsParagraphs([columnPage('i', 1, [{ lines: [wide, wide] }, { lines: [wide, wide] }])]));
  const flush = columnPage('i', 2, [{ lines: [{ text: 'The text goes on here', w: 400 }, wide] }]);
  const set = columnPage('i', 2, [{ lines: [{ text: 'A new paragraph', x: 87, w: 385 }, wide] }]);
  t.same((await joinDocument(group([page1, flush]))).pages[1]!.blocks!.map((b) => [b.continues, b.joinRule]), [[true, 'unindented']]);
  t.same((await joinDocument(group([page1, set]))).pages[1]!.blocks!.map((b) => [b.continues, b.joinRule]), [[false, 'sentence-end']]);
});

t.test('ground truth: paragraphs cut by a page or column break in scripts without case come out whole', { skip: existsSync(gt) ? false : `${gt} is not available (no ../shared corpus)`, timeout: 300_000 }, async (t) => {
  // Without spaces the paragraphs are compared on their letters alone.
  const names = ['ja-chromium', 'he-xelatex-mixed'];
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-join-gt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = await run(['extract', '--blank-lines', '--out-dir', dir, ...names.map((n) => join(gt, `${n}.pdf`))]);
  t.equal(result.code, 0, result.stderr);
  const squeeze = (s: string): string => s.replace(/\s+/gu, '');
  for (const name of names) {
    const truth = readFileSync(join(gt, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(squeeze).filter((p) => p.length >= 60);
    const out = readFileSync(join(dir, `${name}.txt`), 'utf8').split(/\n\s*\n/u).map(squeeze);
    const found = truth.map((p) => [p, out.find((o) => o.includes(p.slice(0, 15)))] as const).filter(([, holder]) => holder !== undefined);
    t.equal(found.length, truth.length, `${name}: every long paragraph found`);
    t.same(found.filter(([p, holder]) => !holder!.includes(p.slice(-15))).map(([p]) => p.slice(0, 30)), [], `${name}: each ends in the output paragraph it starts in`);
  }
});

/** Three pages whose two breaks only a model decides: "the red | house" and "house | the red boat". */
function modelPages(): PageRecord[] {
  return [pageRecord('k', 1, { blocks: [block('the red')] }), pageRecord('k', 2, { blocks: [block('house')] }), pageRecord('k', 3, { blocks: [block('the red boat')] })];
}
const noRules = (): ReturnType<typeof parseJoinRules> => parseJoinRules({ language: [] });
const decisions = (pages: readonly PageRecord[]): [boolean, string | undefined][] => pages.slice(1).map((p) => [p.blocks![0]!.continues, p.blocks![0]!.joinRule]);

t.test('a model that scores whole sentences (the KenLM query interface) decides as the in-process ARPA model does', async (t) => {
  const arpa = ArpaModel.parse(ARPA);
  const direct = (await joinDocument(group(modelPages()), { rules: noRules(), model: { forward: arpa } })).pages;
  t.same(decisions(direct), [[true, 'lm'], [false, 'lm']], 'the model joins mid-phrase and breaks after one');
  // The same model through LanguageModel.score, as KenlmQuery answers: sentences in, totals out.
  const asked: number[] = [];
  const sentences: LanguageModel = { name: 'arpa-sentences', score: async (s) => (asked.push(s.length), arpa.score(s)), close: async () => {} };
  const scored = await joinDocumentScored(group(modelPages()), { rules: noRules(), sentenceModel: sentences });
  t.same(decisions(scored.pages), decisions(direct));
  t.same(asked, [5], 'one batch per document: the distinct sequences of both breaks ("house" serves both)');
  const scores = new SentenceScores();
  for (const [l, r] of [['the red', 'house'], ['house', 'the red boat']] as const) {
    t.ok(Math.abs(joinMargin({ forward: scores }, l, r, 3)) === 0, 'unscored sequences read 0 until filled');
  }
  await scores.fill(sentences);
  t.equal(scores.missing, 0);
  t.ok(Math.abs(joinMargin({ forward: scores }, 'the red', 'house', 3) - joinMargin({ forward: arpa }, 'the red', 'house', 3)) < 1e-9, 'the margin from sentence scores equals the direct one');
  // A model that fails: the rules decide, and a diagnostic says why.
  const failing: LanguageModel = { name: 'broken', score: async () => Promise.reject(new ModelError('KenLM query exited (code 9)')), close: async () => {} };
  const fallback = await joinDocumentScored(group(modelPages()), { rules: noRules(), sentenceModel: failing });
  t.same(decisions(fallback.pages), [[true, 'pdf2xml'], [true, 'pdf2xml']], 'lowercase starts: pdf2xml joins both');
  t.match(fallback.diagnostics, [{ code: 'lm-failed', message: /breaks decided by the rules alone: KenLM query exited \(code 9\)/ }]);
});

/** Records of `modelPages` as NDJSON, for the command line. */
const modelInput = (): string => [docRecord('k', 3), ...modelPages(), endRecord('k', 3)].map((r) => JSON.stringify(r)).join('\n') + '\n';
const rulesFile = (dir: string): string => {
  const path = join(dir, 'none.json');
  writeFileSync(path, JSON.stringify({ language: [] }));
  return path;
};
const cliDecisions = (stdout: string): [boolean, string | undefined][] =>
  decisions(stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageRecord).filter((r) => r.type === 'page'));

t.test('--join-lm with a binary model goes through KenLM query, as resegment --lm does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-join-kenlm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const arpaPath = join(dir, 'model.arpa');
  writeFileSync(arpaPath, ARPA);
  // A stand-in for KenLM's query: it speaks query's protocol (a sentence a line in, "Total: … OOV: …"
  // out), scoring with the ARPA model named on the second line of the "binary" model file.
  const query = join(dir, 'query');
  writeFileSync(
    query,
    `#!/usr/bin/env node
const { readFileSync } = require('node:fs');
const { createInterface } = require('node:readline');
const arpa = readFileSync(process.argv[process.argv.length - 1], 'utf8').split('\\n')[1];
import(${JSON.stringify(join(repoRoot, 'dist/lib/lm/arpa.js'))}).then(({ ArpaModel }) => {
  const model = ArpaModel.load(arpa);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const words = line.split(' ').filter(Boolean);
    const oov = words.filter((w) => model.wordProb([], w) === model.wordProb([], '<unk>')).length;
    process.stdout.write('Total: ' + model.sentenceProb(words) + ' OOV: ' + oov + '\\n');
  });
});
`,
  );
  chmodSync(query, 0o755);
  const binary = join(dir, 'model.binary');
  writeFileSync(binary, `mmap lm stand-in\n${arpaPath}\n`);
  const env = { ...childEnv, KENLM_BIN: dir };
  const viaQuery = spawnSync(...untapped(process.execPath, [cli, 'join', '--join-rules', rulesFile(dir), '--join-lm', binary]), { input: modelInput(), env, encoding: 'utf8' });
  t.equal(viaQuery.status, 0, viaQuery.stderr);
  const inProcess = spawnSync(...untapped(process.execPath, [cli, 'join', '--join-rules', rulesFile(dir), '--join-lm', arpaPath]), { input: modelInput(), env, encoding: 'utf8' });
  t.equal(inProcess.status, 0, inProcess.stderr);
  t.same(cliDecisions(viaQuery.stdout), [[true, 'lm'], [false, 'lm']]);
  t.same(cliDecisions(viaQuery.stdout), cliDecisions(inProcess.stdout), 'the binary model through query decides as the ARPA file in-process');
  const noQuery = spawnSync(...untapped(process.execPath, [cli, 'join', '--join-lm', binary]), { input: '', env: { ...childEnv, KENLM_BIN: join(dir, 'nowhere'), PATH: '' }, encoding: 'utf8' });
  t.equal(noQuery.status, 2);
  t.match(noQuery.stderr, /KenLM `query` program not found/);
});

const kenlmQuery = findKenlm('query');
const buildBinary = findKenlm('build_binary');
const kenlmSkip = kenlmQuery && buildBinary ? false : 'KenLM is not installed (put query and build_binary on PATH or set KENLM_BIN to their folder)';

t.test('real KenLM: a binary model decides the breaks as its ARPA text does', { skip: kenlmSkip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-join-kenlm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const text = ['hyphenated', 'one-column', 'two-columns'].map((n) => readFileSync(join(repoRoot, `samples/${n}.txt`), 'utf8')).join('\n');
  const built = spawnSync(...untapped(process.execPath, [cli, 'lm', 'build', '--in-process', '--order', '3']), { input: text, env: childEnv, maxBuffer: 64 << 20 });
  t.equal(built.status, 0, String(built.stderr));
  const arpaPath = join(dir, 'samples.arpa');
  writeFileSync(arpaPath, built.stdout);
  const binPath = join(dir, 'samples.binary');
  t.equal(spawnSync(buildBinary!, [arpaPath, binPath]).status, 0, 'build_binary converts it');
  const options = normalizeOptions({ joinLm: binPath });
  t.ok(options.sentenceModel instanceof KenlmQuery, 'a binary model goes through query');
  t.teardown(() => options.sentenceModel?.close());
  const pages = [
    pageRecord('b', 1, { blocks: [block('The text of the')] }),
    pageRecord('b', 2, { blocks: [block('document is set in two')] }),
    pageRecord('b', 3, { blocks: [block('columns. The')] }),
  ];
  const scored = await joinDocumentScored(group(pages), { ...options, rules: noRules(), sentenceModel: options.sentenceModel! });
  const direct = await joinDocument(group(pages), { rules: noRules(), model: { forward: ArpaModel.load(arpaPath) } });
  t.same(decisions(scored.pages), decisions(direct.pages), 'query and the in-process reader decide alike');
});

t.test('a join rule with no JavaScript form is left out with a warning on each document; the others apply', async (t) => {
  const rules = parseJoinRules({ language: [{ name: 'common', config: { join_words: [['.*\\w++', '', ' '], ['.*[\\,\\;]', '', ' ']] } }] });
  t.equal(rules.get('common')!.joinWords.length, 1, 'the translatable rule stays');
  const result = await joinDocument(group([pageRecord('d', 1, { blocks: [] })]), { rules });
  t.match(result.diagnostics, [{ type: 'diagnostic', doc: 'd', severity: 'warning', stage: 'join', code: 'config-rule-rejected', message: /join_words\[0\] of language "common" left out: possessive quantifier \+\+/ }]);
});

const arxiv = join(sharedRoot, 'corpus/arxiv');
t.test('arXiv papers, body text only: a list item is whole, and a sentence a float interrupts goes on after it', { skip: existsSync(arxiv) ? false : `${arxiv} is not available (no ../shared corpus)` }, async (t) => {
  // hep-ph0501251, page 6: "2. A model where … all the other leptons / transform according to …"
  // (the item's wrapped lines, set in at its hanging indent).
  const list = await run(['extract', '--quiet', '--blank-lines', '--body-only', join(arxiv, 'hep-ph0501251.pdf')]);
  t.ok(list.stdout.split('\n\n').some((p) => p.startsWith('2. A model where') && p.includes('all the other leptons transform according to an Abelian group')), 'the list item and its wrapped lines: one paragraph');
  // hep-lat0501011: "…to reliably estimate the contributions" ends page 1; page 2 opens with a
  // table, its caption and a figure's caption, then "of even the first excited state…".
  const float = await run(['extract', '--quiet', '--blank-lines', '--body-only', join(arxiv, 'hep-lat0501011.pdf')]);
  t.ok(float.stdout.split('\n\n').some((p) => p.includes('estimate the contributions of even the first excited state')), 'the sentence goes on past the floats');
});
