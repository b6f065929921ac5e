/**
 * The configurable rules: the default `normalize` rules (ligatures, fixed-width spaces, soft
 * hyphens), a config's common and per-language sets and rule switches, its errors, and the shipped
 * PDFExtract rules file.
 */
import t from 'tap';
import { join } from 'node:path';
import { parseConfig } from '../../../lib/repair/rules.js';
import { loadContext, repairDocument } from '../../../lib/repair/document.js';
import { normalizeOptions } from '../../../stages/repair.js';
import { repoRoot } from '../../helpers.js';
import { context, group, line, repairLines } from './repair-fixtures.js';

t.test('ligatures and compatibility characters are expanded, spaces made plain, soft hyphens inside words removed', async (t) => {
  const { texts, diagnostics } = repairLines(['the ﬁrst ﬂoor, ﬀ ﬃ ﬄ ﬅ ﬆ', 'Ĳssel and ĳs', 'a\u00a0b\u2009c', 'Ver\u00adwaltung']);
  t.same(texts, ['the first floor, ff ffi ffl st st', 'IJssel and ijs', 'a b c', 'Verwaltung']);
  const counts = Object.fromEntries(diagnostics.map((d) => [d.code, d.count]));
  t.equal(counts['rule:ligature'], 9, 'one count per ligature expanded');
  t.equal(counts['rule:space'], 2);
  t.equal(counts['rule:soft-hyphen'], 1);
});

t.test('rules from a config file: common and per-language sets, rule switches', async (t) => {
  const config = parseConfig({
    rules: { 'ligature-space': false },
    language: [
      { name: 'common', config: { normalize: [['[“”]', '"']], repair: [['\\s(,|\\))', '$1']] } },
      { name: 'fr', config: { normalize: [['’', "'"]] } },
    ],
  });
  const ctx = context({ ...config });
  t.same(repairLines(['“l’eau” , de fi nition'], {}, ctx).texts, ['"l’eau", de fi nition'], 'common rules; ligature-space off');
  t.same(repairLines(['“l’eau”'], { ruleLang: 'fr' }, ctx).texts, ['"l\'eau"'], 'per-language rules');
  const fromLang = repairDocument(group([line('l’eau')], 'fr-FR'), normalizeOptions(), ctx);
  t.equal(fromLang.pages[0]!.lines![0]!.text, "l'eau", "the PDF's /Lang picks the set");
  t.throws(() => parseConfig({ rules: { 'no-such-rule': false } }), /unknown rule "no-such-rule"/);
  const unclosed = parseConfig({ language: [{ name: 'common', config: { normalize: [['(unclosed', 'x', 'my-rule'], ['a', 'b', 'kept']] } }] });
  t.match(unclosed.rejected, [/rule my-rule \/\(unclosed\/ left out/], 'a rule that does not compile is named and left out');
  t.same(unclosed.rules.get('common')!.normalize.map((r) => r.name), ['kept'], 'the other rules stay');
  t.throws(() => parseConfig({ language: [{ name: 'en', config: { repair: [[1, 2]] } }] }), /rule en\.repair\[0\] must be \[search, replace\]/);
  t.throws(() => loadContext(normalizeOptions({ thaiLexicon: '/nonexistent/th.tri' })), /cannot read lexicon \/nonexistent\/th\.tri/);
});

t.test('the shipped PDFExtract rules file loads and folds quotes and dashes', async (t) => {
  const ctx = context(loadContext(normalizeOptions({ config: join(repoRoot, 'config/pdfextract.json'), thaiLexicon: '', words: '' })));
  t.same(repairLines(['“quoted” – text…\u00a0here'], {}, { ...ctx, words: null }).texts, ['"quoted" - text... here'], 'NBSP becomes a space, not nothing');
});
