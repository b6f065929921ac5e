/**
 * A document's languages: short blocks taking their script's language in the document, Latin runs
 * inside Arabic text, the distribution, and `lang` keeping or marking blocks.
 */
import t from 'tap';
import { langidOfDocument } from '../../../lib/lang/document.js';
import { normalizeOptions } from '../../../stages/langid.js';
import { block, group, pageRecord } from '../../helpers.js';
import { arabic, english, german } from './texts.js';

t.test('a document: short blocks take the language of their script; Latin runs in Arabic are spans', async (t) => {
  const page = pageRecord('l', 1, {
    blocks: [block(german), block('Kapitel 2', { role: 'heading' }), block(german.toUpperCase().slice(0, 8)), block(`${arabic} شركة Siemens في المدينة.`, { dir: 'rtl' })],
  });
  const { pages, doc } = langidOfDocument(group([page]), normalizeOptions());
  const blocks = pages[0]!.blocks!;
  t.equal(blocks[0]!.lang, 'de');
  t.equal(blocks[1]!.lang, 'de', 'a short Latin heading takes the Latin language of the document');
  t.equal(blocks[3]!.lang, 'ar');
  t.same(blocks[3]!.spans, [{ start: blocks[3]!.text.indexOf('Siemens'), end: blocks[3]!.text.indexOf('Siemens') + 7, lang: 'de' }], 'a Latin run takes the document\'s Latin language');
  t.equal(doc.lang, doc.languages![0]!.lang, 'the primary language is the most frequent');
  t.same(doc.languages!.map((l) => l.lang).sort(), ['ar', 'de']);
  t.ok(Math.abs(doc.languages!.reduce((s, l) => s + l.percent, 0) - 100) < 0.1);
});

t.test('Latin names in Arabic text with no other Latin text are English; und when told not to guess', async (t) => {
  const page = pageRecord('l', 1, { blocks: [block(`${arabic} يعمل نظام Linux على الخوادم.`, { dir: 'rtl' })] });
  t.equal(langidOfDocument(group([page]), normalizeOptions()).pages[0]!.blocks![0]!.spans![0]!.lang, 'en');
  t.equal(langidOfDocument(group([page]), normalizeOptions({ embeddedLatin: '' })).pages[0]!.blocks![0]!.spans![0]!.lang, 'und');
});

t.test('lang keeps or marks blocks', async (t) => {
  const page = pageRecord('l', 1, { blocks: [block(english), block(german)] });
  t.same(langidOfDocument(group([page]), normalizeOptions({ lang: 'de' })).pages[0]!.blocks!.map((b) => b.lang), ['de']);
  t.same(langidOfDocument(group([page]), normalizeOptions({ lang: 'de', mark: true })).pages[0]!.blocks!.map((b) => b.selected), [false, true]);
});
