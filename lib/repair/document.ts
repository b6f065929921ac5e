/**
 * The core of the repair stage: every rule run over one document's lines, in order — broken
 * encodings (./encodings.ts), the configured `normalize` rules (./rules.ts), ligature damage
 * (./ligatures.ts), Arabic and Hebrew (lib/scripts/arabic-hebrew.ts), Thai (lib/scripts/thai.ts),
 * Devanagari and Bengali in glyph order (lib/scripts/indic.ts), Chinese and Japanese radicals
 * (lib/scripts/cjk.ts), then the configured `repair` rules.
 * Decisions that need the whole document (code page, glyph shift, word list, lost ligatures,
 * glyph-order Devanagari and Bengali, Arabic yeh and kaf in Persian) are made once per document.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { diagnostic, type DiagnosticRecord, type Item, type Line, type PageRecord } from '../protocol/records.js';
import { Rewriter, Tally } from './rewrite.js';
import { applyRules, type RuleSet } from './rules.js';
import type { RepairContext } from './context.js';
import { chooseCodePage, findCyrillicShift, looksLatin1Mojibake, redecode, redecodeWords, shiftBack, texPunctuation } from './encodings.js';
import { LIGATURE_EVIDENCE_WORDS, LIGATURE_LOST_SHARE, ligatureRules, markLostSoftHyphens, Vocabulary, WORD_LIST_SHARE } from './ligatures.js';
import { isPersoArabicWithArabicYehKaf, persoArabicYehKaf, rtlRules, type TatweelOptions } from '../scripts/arabic-hebrew.js';
import { hasThai, reattachMarks, thaiLexical, thaiOrthography, thaiWordCounts } from '../scripts/thai.js';
import { glyphOrderRewrites, NASAL_ORDER, SIGN_AFTER_DANDA } from '../scripts/indic.js';
import { radicalsToIdeographs } from '../scripts/cjk.js';
import { greekCapitalAccents } from '../scripts/greek.js';

export { loadContext, type ContextOptions, type RepairContext } from './context.js';

/** What `repairDocument` reads of the repair stage's options. */
export interface RepairDocumentOptions extends TatweelOptions {
  /** Report every change (before/after) as a diagnostic. */
  explain: boolean;
  /** The document language for per-language rule sets; '' to use the PDF's /Lang. */
  ruleLang: string;
  /** Re-decode text layers with broken encodings. */
  mojibake: boolean;
}

/** The items of a page that belong to a line: its block, within its box and near its baseline. */
function itemsOfLine(page: PageRecord, line: Line): Item[] {
  const { box } = line;
  return (page.items ?? []).filter(
    (i) => (i.block ?? 0) === line.block && i.x >= box.x - 0.5 && i.x <= box.x + box.w + 0.5 && Math.abs(i.y - line.base) <= Math.max(line.size, 1) * 0.5,
  );
}

/** The pure core: repairs one document's lines; returns new pages and diagnostics. */
export function repairDocument(group: DocumentGroup, options: RepairDocumentOptions, context: RepairContext): { pages: PageRecord[]; diagnostics: DiagnosticRecord[] } {
  const { doc } = group;
  const lang = (options.ruleLang || doc.meta.lang || '').toLowerCase().split(/[-_]/)[0] ?? '';
  const sets = [context.rules.get('common'), lang ? context.rules.get(lang) : undefined].filter((s): s is RuleSet => s !== undefined);
  const tally = new Tally(options.explain);
  const diagnostics: DiagnosticRecord[] = (context.rejected ?? []).map((message) => ({
    type: 'diagnostic', doc: doc.id, severity: 'warning', stage: 'repair', code: 'config-rule-rejected', message,
  }));
  const disabled = context.disabled;
  const allLines = group.pages.flatMap((p) => p.lines ?? []);

  const anyThai = allLines.some((l) => hasThai(l.text));
  const thaiCounts = anyThai && context.thai ? thaiWordCounts(allLines.map((l) => l.text.replace(/\S*[\u0000\uf700-\uf71a]\S*/gu, ' '))) : new Map<string, number>();
  // The word list counts only for a document written in its language: most of the document's
  // distinct words must be in it. Otherwise the document's own words are the vocabulary.
  const docWords = new Vocabulary(null);
  for (const line of allLines) docWords.addText(line.text.normalize('NFKC'));
  const distinct = [...docWords.counts.keys()].filter((w) => w.length > 1);
  const inList = context.words ? distinct.filter((w) => context.words!.has(w)).length : 0;
  const listFits = context.words !== null && distinct.length > 0 && inList >= WORD_LIST_SHARE * distinct.length;
  const vocab = new Vocabulary(listFits ? context.words : null);
  // Letters a ligature swallowed are looked for only in a document that shows it: many words and
  // (almost) none with ff, fi or fl, where English has them in about 2 % of words.
  const tokens = [...docWords.counts.values()].reduce((a, b) => a + b, 0);
  const withLigature = [...docWords.counts].filter(([w]) => /f[fil]/u.test(w)).reduce((a, [, n]) => a + n, 0);
  const ligaturesLost = tokens >= LIGATURE_EVIDENCE_WORDS && withLigature < LIGATURE_LOST_SHARE * tokens;
  for (const [w, n] of docWords.counts) vocab.counts.set(w, n);

  // Broken encodings are decided once per document.
  const mojibakeOn = options.mojibake && !disabled.has('mojibake');
  const latin1Lines = mojibakeOn ? allLines.filter((l) => looksLatin1Mojibake(l.text)).map((l) => l.text) : [];
  const codePage = latin1Lines.length > 0 ? chooseCodePage(latin1Lines, lang) : null;
  const shift = options.mojibake && !disabled.has('shifted-encoding') ? findCyrillicShift(allLines.map((l) => l.text)) : null;
  const yehKaf = !disabled.has('persian-yeh-kaf') && isPersoArabicWithArabicYehKaf(allLines.map((l) => l.text));
  const indicRewrites = [...glyphOrderRewrites(allLines.map((l) => l.text)), SIGN_AFTER_DANDA, NASAL_ORDER].filter((r) => !disabled.has(r.rule));

  const pages = group.pages.map((page) => {
    if (!page.lines) return page;
    const lines = page.lines.map((line, index) => {
      const afterHyphen = /[-\u00ad\u2010]\s*$/u.test(page.lines![index - 1]?.text ?? '');
      const rw = new Rewriter(line.text, line.inferred, tally);
      if (codePage && looksLatin1Mojibake(rw.text)) {
        const decoded = redecode(rw.text, codePage);
        if (decoded !== null) rw.apply([{ start: 0, end: rw.text.length, text: decoded }], 'mojibake');
      } else if (codePage) redecodeWords(rw, codePage);
      if (codePage) texPunctuation(rw);
      if (shift !== null) shiftBack(rw, shift);
      for (const set of sets) applyRules(rw, set.normalize);
      ligatureRules(rw, vocab, disabled, afterHyphen, ligaturesLost);
      rtlRules(rw, options, disabled);
      if (yehKaf) persoArabicYehKaf(rw);
      if (hasThai(rw.text) || rw.text.includes('\u0000')) {
        thaiOrthography(rw, disabled);
        if (!disabled.has('thai-reattach-mark') && page.items) reattachMarks(rw, itemsOfLine(page, line));
        if (context.thai) thaiLexical(rw, context.thai, disabled, thaiCounts);
      }
      for (const { rule, pattern, replace } of indicRewrites) rw.replace(pattern, replace, rule);
      if (!disabled.has('cjk-radical')) radicalsToIdeographs(rw);
      if (!disabled.has('greek-capital-accent')) greekCapitalAccents(rw);
      if (!disabled.has('nul') && rw.text.includes('\u0000')) {
        // A glyph the text layer could not name, outside Thai: nothing better than dropping it.
        rw.replace(/\u0000+/gu, () => '', 'nul');
      }
      for (const set of sets) applyRules(rw, set.repair);
      if (rw.text === line.text) return line;
      return { ...line, text: rw.text, inferred: rw.marks };
    });
    if (listFits && !disabled.has('lost-soft-hyphen')) markLostSoftHyphens(lines, vocab, tally);
    return { ...page, lines };
  });

  if (anyThai && context.thai === null) {
    diagnostics.push(diagnostic(doc.id, 'repair', 'no-thai-lexicon', `No Thai word list (install libthai-data or give --thai-lexicon): Thai rules I and III and lost marks are skipped`, { severity: 'warning' }));
  }
  for (const change of tally.changes) {
    diagnostics.push(diagnostic(doc.id, 'repair', 'change', `${change.rule}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)} in ${JSON.stringify(change.context)}`, { severity: 'info' }));
  }
  for (const [rule, count] of [...tally.counts.entries()].sort()) {
    diagnostics.push(diagnostic(doc.id, 'repair', `rule:${rule}`, `${rule} changed the text ${count} time${count === 1 ? '' : 's'}`, { severity: 'info', count }));
  }
  return { pages, diagnostics };
}
