/**
 * The languages of one document: every block's language, runs of another script inside a block
 * (`spans`), and the document's language distribution, the blocks too short to judge taking the
 * language their script has in the document (or the PDF's /Lang). Once languages are known, the
 * blocks printed beside their translation are paired (lib/regions/parallel.ts). The langid stage
 * (stages/langid.ts) runs it on every document.
 */
import type { DocumentGroup } from '../protocol/stage.js';
import { diagnostic, FURNITURE_ROLES, type Block, type DiagnosticRecord, type DocRecord, type LangSpan, type LanguageShare, type PageRecord } from '../protocol/records.js';
import { toFrancCode, toIso6391 } from './codes.js';
import { decide, judge, type Judgement } from './identify.js';
import { dominantScript, letterCount, letterScript, runsOfScript, type ScriptClass } from './scripts.js';
import { markParallel } from '../regions/parallel.js';

/** Options of `langidOfDocument`. */
export interface DocumentLanguageOptions {
  /** Keep only blocks in this language (ISO 639-1 or 639-3); '' keeps all. */
  lang: string;
  /** With `lang`: keep every block and mark it `selected` instead of dropping. */
  mark: boolean;
  /** Comma-separated candidate languages; '' means franc's full set. */
  candidates: string;
  /** Blocks with fewer letters than this take the document's prior instead of franc's guess. */
  minLetters: number;
  /** A prior wins when franc rates it at least this fraction of its best guess. */
  priorRatio: number;
  /** Language of short Latin-script runs inside non-Latin text when the document says nothing else; '' for `und`. */
  embeddedLatin: string;
}

const isFurniture = (block: Block): boolean => FURNITURE_ROLES.has(block.role);

/** The PDF's /Lang as a known code, or null. */
function pdfLang(doc: DocRecord): string | null {
  const lang = doc.meta?.lang;
  if (!lang) return null;
  const code = toFrancCode(lang);
  return code ? toIso6391(code) : null;
}

/** Counts characters per language, most first (spans counted to their own language). */
export function distribution(blocks: readonly Block[]): LanguageShare[] {
  const chars = new Map<string, number>();
  const count = new Map<string, number>();
  let total = 0;
  for (const block of blocks) {
    const lang = block.lang ?? 'und';
    const letters = letterCount(block.text);
    let own = letters;
    for (const spanLang of new Set((block.spans ?? []).map((s) => s.lang))) {
      if (spanLang !== lang) count.set(spanLang, (count.get(spanLang) ?? 0) + 1);
    }
    for (const span of block.spans ?? []) {
      const n = letterCount(block.text.slice(span.start, span.end));
      chars.set(span.lang, (chars.get(span.lang) ?? 0) + n);
      own -= n;
    }
    chars.set(lang, (chars.get(lang) ?? 0) + Math.max(0, own));
    count.set(lang, (count.get(lang) ?? 0) + 1);
    total += letters;
  }
  return [...chars.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([lang, n]) => ({ lang, percent: Math.round((n / Math.max(1, total)) * 10000) / 100, blocks: count.get(lang) ?? 0 }));
}

/** The pure core: languages for one document. */
export function langidOfDocument(group: DocumentGroup, options: DocumentLanguageOptions): { pages: PageRecord[]; doc: DocRecord; diagnostics: DiagnosticRecord[] } {
  const candidates = options.candidates.split(',').map((c) => c.trim()).filter(Boolean);
  const base = { candidates, priorRatio: options.priorRatio, minLetters: options.minLetters, fallback: 'und' };
  const declared = pdfLang(group.doc);
  const pages = group.pages.map((page) => ({ ...page, blocks: (page.blocks ?? []).map((b) => ({ ...b })) }));
  const blocks = pages.flatMap((p) => p.blocks);
  const scriptOfBlock = new Map<Block, ScriptClass | null>(blocks.map((b) => [b, dominantScript(b.text)]));

  // 1. Blocks long enough to judge, with /Lang as the prior. franc's ranking does not depend on
  //    the prior: it is kept for step 3. Texts that come back (running heads, the same name in
  //    many paragraphs) are judged once.
  const judged = new Map<string, Judgement>();
  const judgeOnce = (text: string): Judgement => {
    let verdict = judged.get(text);
    if (!verdict) judged.set(text, (verdict = judge(text, candidates, options.minLetters)));
    return verdict;
  };
  const byDeclared = { ...base, prior: declared };
  for (const block of blocks) block.lang = decide(judgeOnce(block.text), byDeclared);

  const diagnostics = garbledPages(pages, judgeOnce, options.minLetters);

  // 2. The language each script has in this document (by characters of judged body blocks).
  const byScript = new Map<ScriptClass, Map<string, number>>();
  for (const block of blocks) {
    const script = scriptOfBlock.get(block);
    if (!script || block.lang === 'und' || isFurniture(block)) continue;
    const tally = byScript.get(script) ?? new Map<string, number>();
    tally.set(block.lang!, (tally.get(block.lang!) ?? 0) + letterCount(block.text));
    byScript.set(script, tally);
  }
  // Asked for every block: the answer per script is made once (the tallies are final here).
  const scriptLangs = new Map<ScriptClass, string | null>();
  const scriptLang = (script: ScriptClass | null): string | null => {
    if (!script) return null;
    let lang = scriptLangs.get(script);
    if (lang !== undefined) return lang;
    const tally = byScript.get(script);
    if (tally && tally.size > 0) lang = [...tally.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    else lang = declared && dominantScript(sampleOf(declared)) === script ? declared : null;
    scriptLangs.set(script, lang);
    return lang;
  };

  // 3. Short blocks and blocks franc could not tell: the prior of their script; others re-judged
  //    with their script's language as the prior, so that one document is not split over dialects.
  for (const block of blocks) {
    const prior = scriptLang(scriptOfBlock.get(block) ?? null);
    block.lang = decide(judgeOnce(block.text), { ...base, prior: prior ?? declared, fallback: prior ?? 'und' });
  }

  // 4. Runs of another script inside a block.
  for (const block of blocks) {
    const own = scriptOfBlock.get(block);
    if (!own) continue;
    const spans: LangSpan[] = [];
    const others = new Set<ScriptClass>();
    for (const char of block.text) {
      const script = letterScript(char);
      if (script && script !== own) others.add(script);
    }
    for (const script of others) {
      for (const run of runsOfScript(block.text, script)) {
        const text = block.text.slice(run.start, run.end);
        const prior = scriptLang(script) ?? (script === 'Latin' && options.embeddedLatin ? options.embeddedLatin : null);
        const lang = decide(judgeOnce(text), { ...base, prior, fallback: prior ?? 'und' });
        if (lang !== block.lang) spans.push({ start: run.start, end: run.end, lang: toIso6391(toFrancCode(lang) ?? lang) });
      }
    }
    spans.sort((a, b) => a.start - b.start);
    if (spans.length > 0) block.spans = spans;
  }

  // 5. Parallel text: the same text in two languages side by side, paired block by block
  //    (lib/regions/parallel.ts); before `lang` keeps one language, so that pairs are whole.
  markParallel(pages, options.minLetters);

  const languages = distribution(blocks.filter((b) => !isFurniture(b)));
  const doc: DocRecord = { ...group.doc, lang: languages[0]?.lang ?? declared ?? 'und', languages };

  if (options.lang) {
    const wanted = toIso6391(toFrancCode(options.lang)!);
    for (const page of pages) {
      if (options.mark) for (const block of page.blocks) block.selected = block.lang === wanted;
      else page.blocks = page.blocks.filter((block) => block.lang === wanted);
    }
  }
  return { pages, doc, diagnostics };
}

/**
 * A page is judged on this many times the fewest letters a block needs: less than a paragraph's
 * worth (a page of formulas, a table of symbols and codes) is too easily no language.
 */
const PAGE_LETTERS_FACTOR = 5;

/**
 * A `garbled-text` warning for each page whose body text as a whole is no language (`garbled` in
 * identify.ts: its trigrams are not those of the language franc picks, as from a wrong 8-bit
 * table, or its words switch case inside, as from glyphs mapped to the wrong letters). Such a
 * page ends well and its text is written, but nobody can read it: without a word a crawl keeps
 * it. Page furniture is left out of the judgement (a running head can be the one readable line).
 */
function garbledPages(pages: readonly PageRecord[], judgeOnce: (text: string) => Judgement, minLetters: number): DiagnosticRecord[] {
  const warnings: DiagnosticRecord[] = [];
  for (const page of pages) {
    const text = (page.blocks ?? []).filter((b) => !isFurniture(b)).map((b) => b.text).join('\n');
    if (letterCount(text, minLetters * PAGE_LETTERS_FACTOR) < minLetters * PAGE_LETTERS_FACTOR) continue;
    if (!judgeOnce(text).garbled) continue;
    warnings.push(diagnostic(page.doc, 'langid', 'garbled-text', `The text of page ${page.page} looks garbled: it reads as no language (a font whose characters map to the wrong letters, or a wrong 8-bit table)`, { place: { page: page.page } }));
  }
  return warnings;
}

/** A few letters of a language's usual script, to compare /Lang with a block's script. */
function sampleOf(lang: string): string {
  const samples: Record<string, string> = {
    ar: 'ع', fa: 'ع', ur: 'ع', ps: 'ع', he: 'א', yi: 'א', el: 'α', ru: 'я', uk: 'я', bg: 'я', sr: 'я', mk: 'я', be: 'я',
    kk: 'я', mn: 'я', zh: '中', ja: 'の', ko: '한', th: 'ก', hi: 'क', mr: 'क', ne: 'क',
  };
  return samples[lang] ?? 'a';
}
