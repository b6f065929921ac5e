/**
 * lib/formats/selection.ts: `--roles` values (roles, named sets, unknown names), the furniture
 * rule, runs of selected blocks on hand-built pages (a run-on joined past left-out blocks), and
 * the body-only text's unnumbered headings.
 */
import t from 'tap';
import { blockRuns, parseRoles, roleFilter, ROLE_SETS, type RoleOptions } from '../../../lib/formats/selection.js';
import { UsageError } from '../../../lib/protocol/options.js';
import { FURNITURE_ROLES, ROLES } from '../../../lib/protocol/records.js';
import { join } from 'node:path';
import type { PageRecord } from '../../../lib/protocol/records.js';
import { block, interruptedPages, pageRecord, parseLines, run, samplesDir } from '../../helpers.js';

const NONE: RoleOptions = { roles: '', bodyOnly: false, keepFurniture: false };
/** The roles of the vocabulary that the options select. */
const chosen = (options: Partial<RoleOptions>): string[] => ROLES.filter(roleFilter({ ...NONE, ...options }));

t.test('parseRoles: roles and named sets, comma-separated, spaces ignored', async (t) => {
  t.same([...parseRoles('heading')], ['heading']);
  t.same([...parseRoles(' caption , table,caption ')], ['caption', 'table']);
  t.same([...parseRoles('body-only')], ['title', 'heading', 'body', 'list-item']);
  t.same([...parseRoles('body-only,caption')], ['title', 'heading', 'body', 'list-item', 'caption']);
  t.same([...parseRoles('all')].sort(), [...ROLES].sort());
  t.same(ROLE_SETS['body-only'], ['title', 'heading', 'body', 'list-item']);
});

t.test('parseRoles: an unknown name is a usage error that lists the valid names', async (t) => {
  t.throws(() => parseRoles('heading,bogus'), UsageError);
  try {
    parseRoles('bogus,Body');
    t.fail('no error');
  } catch (error) {
    const message = (error as Error).message;
    t.match(message, /Unknown roles "bogus", "Body"/, 'names every unknown one; names are case-sensitive');
    for (const name of [...ROLES, 'body-only', 'all']) t.ok(message.includes(name), `lists ${name}`);
  }
  t.throws(() => parseRoles(' , '), /No role given/);
  t.throws(() => parseRoles('toString'), UsageError, 'an inherited property is no set');
});

t.test('the furniture rule', async (t) => {
  const notFurniture = ROLES.filter((role) => !FURNITURE_ROLES.has(role));
  t.same(chosen({}), notFurniture, 'default: every role but header, footer and page-number');
  t.same(chosen({ keepFurniture: true }), ROLES, 'keepFurniture adds them to the default');
  t.same(chosen({ roles: 'heading' }), ['heading'], '--roles replaces the default');
  t.same(chosen({ roles: 'heading', keepFurniture: true }), ['heading', 'header', 'footer', 'page-number'], 'keepFurniture adds them to --roles');
  t.same(chosen({ roles: 'footer' }), ['footer'], 'a furniture role is written when named');
  t.same(chosen({ bodyOnly: true }), ['title', 'heading', 'body', 'list-item']);
  t.same(chosen({ bodyOnly: true, roles: 'caption,footnote' }), ['title', 'heading', 'body', 'list-item', 'caption', 'footnote'], '--body-only and --roles together: both');
  t.same(chosen({ roles: 'all' }), ROLES);
  t.ok(roleFilter(NONE)('a-future-role'), 'the default writes a role outside the vocabulary, as before');
  t.notOk(roleFilter({ ...NONE, roles: 'all' })('a-future-role'), 'a selection writes only what it names');
  t.throws(() => roleFilter({ ...NONE, roles: 'nope' }), UsageError);
});

/** The texts of each run. */
const texts = (runs: ReturnType<typeof blockRuns>): string[][] => runs.map((run) => run.map(({ block }) => block.text));

t.test('blockRuns: a run-on joins its paragraph past a caption and a footnote left out', async (t) => {
  const pages = interruptedPages();
  t.same(texts(blockRuns(pages, { ...NONE, bodyOnly: true })), [['Results'], ['The counts rose in every pond but the', 'last one.']]);
  t.same(texts(blockRuns(pages, NONE)), [['Results'], ['The counts rose in every pond but the', 'last one.'], ['Figure 1. Counts by pond.'], ['1 Two ponds were dry.'], ['Table 2']], 'kept between the halves, too');
  t.same(blockRuns(pages, NONE)[1]!.map(({ page }) => page), [1, 2], 'each block keeps its page');
  t.same(texts(blockRuns(pages, { ...NONE, roles: 'caption,table' })), [['Figure 1. Counts by pond.'], ['Table 2']]);
});

t.test('blockRuns: what continues a paragraph left out starts its own', async (t) => {
  const pages = [
    pageRecord('l', 1, {
      blocks: [
        block('Read the notes first.'),
        block('• Bring a torch and', { role: 'list-item' }),
        block('spare batteries.', { continues: true }),
        block('   '),
      ],
    }),
  ];
  t.same(texts(blockRuns(pages, { ...NONE, roles: 'body' })), [['Read the notes first.'], ['spare batteries.']], 'not joined to the body paragraph before the list item');
  t.same(texts(blockRuns(pages, { ...NONE, roles: 'list-item' })), [['• Bring a torch and']]);
  t.same(texts(blockRuns(pages, NONE)), [['Read the notes first.'], ['• Bring a torch and', 'spare batteries.']], 'empty blocks are left out');
});

t.test('blockRuns: a footnote is a run of its own; small print does not take a run-on', async (t) => {
  const pages = [
    pageRecord('f', 1, {
      blocks: [
        block('The first half of a sentence'),
        block('* A note in small print.', { joinRule: 'note' }),
        block('2 A footnote that', { role: 'footnote' }),
      ],
    }),
    pageRecord('f', 2, { blocks: [block('goes on.', { role: 'footnote', continues: true }), block('and its second half.', { continues: true })] }),
  ];
  t.same(texts(blockRuns(pages, NONE)), [['The first half of a sentence', 'and its second half.'], ['* A note in small print.'], ['2 A footnote that'], ['goes on.']]);
});

t.test('blockRuns: a display formula stays in its paragraph when written, and ends it when left out', async (t) => {
  const pages = [
    pageRecord('f', 1, {
      blocks: [
        block('The count in each pond is given by'),
        block('N = n₁ + n₂', { role: 'formula' }),
        block('where n₁ counts the frogs and n₂ the toads.', { continues: true }),
      ],
    }),
  ];
  t.same(texts(blockRuns(pages, NONE)), [['The count in each pond is given by'], ['N = n₁ + n₂', 'where n₁ counts the frogs and n₂ the toads.']], 'the text after the formula goes on where it stands');
  t.same(texts(blockRuns(pages, { ...NONE, bodyOnly: true })), [['The count in each pond is given by'], ['where n₁ counts the frogs and n₂ the toads.']]);
});

t.test('the body-only text writes headings without their numbering; every other output keeps it', async (t) => {
  // samples/paper.pdf numbers its sections "1 Introduction", "2.1 Mugs and tea", "4.1 Limitations".
  const pdf = join(samplesDir, 'paper.pdf');
  const body = await run(['extract', '--quiet', '--body-only', pdf]);
  const lines = body.stdout.split('\n');
  t.ok(lines.includes('Introduction') && lines.includes('Mugs and tea') && lines.includes('Limitations'), 'the headings, unnumbered');
  t.notOk(lines.some((line) => /^\d+(\.\d+)* [A-Z]/u.test(line) && line.length < 40), 'no numbered heading left');
  const named = await run(['extract', '--quiet', '--roles', 'body-only', pdf]);
  t.equal(named.stdout, body.stdout, '--roles body-only is the same set');
  const all = await run(['extract', '--quiet', pdf]);
  t.ok(all.stdout.split('\n').includes('2.1 Mugs and tea'), 'the default text keeps the numbers');
  const headings = await run(['extract', '--quiet', '--roles', 'heading', pdf]);
  t.ok(headings.stdout.split('\n').includes('4.1 Limitations'), 'so does a selection of headings');
  const ndjson = await run(['extract', '--quiet', '--format', 'ndjson', '--body-only', pdf]);
  const blocks = parseLines(ndjson.stdout).flatMap((r) => ((r as PageRecord).type === 'page' ? ((r as PageRecord).blocks ?? []) : []));
  t.ok(blocks.some((b) => b.role === 'heading' && b.text === '1 Introduction'), 'the records keep the heading whole');
});
