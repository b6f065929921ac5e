/**
 * Java regular expressions (PDFExtract.json's dialect) translated to JavaScript's `u` mode, or
 * refused by construct; and a PDFExtract.json whose rules JavaScript alone rejects, read rule by rule.
 */
import t from 'tap';
import { join } from 'node:path';
import { JavaRegexError, translateJavaRegex } from '../../../lib/repair/java-regex.js';
import { loadConfig } from '../../../lib/repair/rules.js';
import { loadJoinRules, rejectedJoinRules, applyJoinRules } from '../../../lib/paragraphs/join-rules.js';
import { repoRoot } from '../../helpers.js';
import { context, repairLines } from './repair-fixtures.js';

const fixture = join(repoRoot, 'test/fixtures/pdfextract/PDFExtract.json');
const js = (java: string): RegExp => {
  const { source, flags } = translateJavaRegex(java);
  return new RegExp(source, `${flags}gu`);
};

t.test("PDFExtract's escaped punctuation, which the u flag refuses, means itself", async (t) => {
  t.throws(() => new RegExp('\\s(\\,|\\)|\\]|\\;)', 'u'), SyntaxError, 'JavaScript alone refuses it');
  t.equal('a , b ) c ; d'.replace(js('\\s(\\,|\\)|\\]|\\;)'), '$1'), 'a, b) c; d');
  t.equal('x\u00a0,'.replace(js('\\s(\\,)'), '$1'), 'x\u00a0,', "Java's \\s is ASCII: NBSP is not eaten");
  t.ok(js('[\\-\\.]').test('-'), 'escapes inside a class');
  t.ok(js('a}]').test('a}]'), 'a lone } and ] are literals in Java');
  t.ok(js('\\Q(a)*\\E').test('(a)*'), '\\Q…\\E quotes');
  t.equal('x\u0007'.replace(js('\\a'), 'BEL'), 'xBEL');
  t.ok(js('\\x{1F600}').test('😀'));
});

t.test('properties, POSIX classes and leading flags', async (t) => {
  t.ok(js('^\\p{IsLatin}+$').test('Straße'), '\\p{IsLatin} is the Latin script');
  t.notOk(js('^\\p{IsLatin}+$').test('Ωμέγα'));
  t.ok(js('^\\p{Lu}\\p{IsL}+$').test('Élan'), 'general categories, bare and Is-prefixed');
  t.ok(js('^\\p{Punct}$').test('!'), 'POSIX classes are ASCII, as in Java');
  t.notOk(js('^\\p{Alpha}$').test('é'));
  t.ok(js('^\\pL$').test('ж'), 'the one-letter form');
  t.ok(js('^\\p{javaLowerCase}$').test('ß'));
  t.same(translateJavaRegex('(?i)abc'), { source: 'abc', flags: 'i' });
  t.ok(js('(?i)abc').test('ABC'));
});

t.test('constructs with no JavaScript form are refused, naming the construct', async (t) => {
  for (const [java, reason] of [
    ['a*+b', /possessive quantifier \*\+/],
    ['a{2,3}+', /possessive quantifier \{2,3\}\+/],
    ['(?>ab)', /atomic group/],
    ['\\p{InGreek}', /Unicode block \\p\{InGreek\}/],
    ['[a-z&&[^e]]', /intersection/],
    ['x(?i)y', /embedded flags inside the pattern/],
    ['\\p{NoSuchThing}', /Unknown property/],
    ['\\G', /escape \\G/],
    ['(unclosed', /./],
  ] as const) {
    t.throws(() => translateJavaRegex(java), JavaRegexError, java);
    t.throws(() => translateJavaRegex(java), reason, java);
  }
});

t.test('a PDFExtract.json: translated rules apply, untranslatable ones are named and left out', async (t) => {
  const config = loadConfig(fixture);
  t.equal(config.rejected.length, 1);
  t.match(config.rejected[0], /rule common\.repair\[3\] .* left out: possessive quantifier \*\+/);
  t.same(config.rules.get('common')!.repair.map((r) => r.name), ['common.repair[0]', 'common.repair[1]', 'common.repair[2]']);
  const ctx = context({ rules: config.rules, disabled: config.disabled, rejected: config.rejected });
  t.same(repairLines(['“Quoted” text , with ( spaces ) .'], {}, ctx).texts, ['"Quoted" text, with (spaces).']);
  const { diagnostics } = repairLines(['x'], {}, ctx);
  t.match(diagnostics.find((d) => d.code === 'config-rule-rejected'), { severity: 'warning', stage: 'repair', message: /common\.repair\[3\]/ });

  const join = loadJoinRules(fixture);
  t.match(rejectedJoinRules(join), [/join_words\[3\] of language "common" left out: possessive/]);
  t.match(applyJoinRules(join, 'en', 'one of', 'the words'), { join: true, joiner: ' ' });
  t.match(applyJoinRules(join, 'en', 'It ends here', 'Then more'), { join: false, rule: 'common:absolute_eof[0]' });
  t.match(applyJoinRules(join, 'en', 'It ends here,', 'Then more'), { join: true }, 'the lookbehind keeps a comma from ending the sentence');
});
