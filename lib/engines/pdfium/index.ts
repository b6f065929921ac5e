/**
 * The PDFium engine (WebAssembly): PDF bytes in, the same engine-neutral records as pdf.js out.
 *
 * PDFium's text API reports every character with its box, origin, matrix, font and flags. We read
 * those characters and group them into glyph runs the way the pdf.js adapter does: a run ends at a
 * change of font, size, baseline or orientation, at space glyphs, and at every gap wider than
 * 0.1 em, so the line stage measures gaps itself. Characters PDFium generated (a space for a gap,
 * a line break at the end of a line) are never text: they end the run and are kept as the `after`
 * mark of the item before. Right-to-left runs come out in glyph (drawing) order, as under pdf.js
 * (glyphOrderText in runs.ts, loneBracketsInGlyphOrder in right-to-left.ts, where
 * rightToLeftMarksOnTheirLine keeps separately drawn marks on their letters' line), and a cluster a
 * font maps twice is read once (chars.ts). An ActualText span of shaped Indic or Thai text becomes
 * one item over all of its glyphs, as under pdf.js (actualTextSpan, spanItem in actual-text.ts).
 * Characters whose font has no usable Unicode map are counted and reported as a diagnostic per
 * page. Annotations and form fields: annotations.ts; Info, outline and page boxes: metadata.ts;
 * the WebAssembly module and its heap: module.ts.
 *
 * Coordinates go through the same viewport as pdf.js (crop box ∩ media box, /Rotate, origin at the
 * top-left, y down), so nothing after parse knows which engine ran.
 *
 * Memory: the document's bytes, each page and each text page are freed as soon as they are done.
 * A WebAssembly heap never shrinks; it may not grow past the worker's memory limit (heapLimit in
 * module.ts refuses the growth), so a document that needs more ends with out-of-memory, and an instance whose heap has grown past RECYCLE_HEAP_BYTES (or that
 * aborted) is dropped after its document; the next document gets a fresh one (about 40 ms).
 */
import type { DiagnosticRecord, DocMeta, DocRecord, PageRecord } from '../../protocol/records.js';
import { diagnostic, SCHEMA_VERSION } from '../../protocol/records.js';
import { EngineError } from '../errors.js';
import { PageObjects, pageRange, repeatedPageMessage, type OpenOptions } from '../open.js';
import { xmpFromPdfBytes } from '../xmp.js';
import { looksLikePdf } from '../pdfjs.js';
import { engineVersion, heapBytes, heapGrowthRefused, heapLimit, heaps, loadModule, recycle, PAGE_OBJECT, RECYCLE_HEAP_BYTES, Scratch, type PdfiumModule } from './module.js';
import { readPageText } from './chars.js';
import { ArabicForms } from './forms.js';
import { openForm, readAnnotations } from './annotations.js';
import { pageView, readInfo, readOutline, readPermissions, viewportTransform } from './metadata.js';
import { round } from './runs.js';
import { isTagged, pageTags } from './structure.js';
import { imageCoverage, inkCoverage, renderDpi, renderPage } from './render.js';
import { countCharacters, foreignInWords, latin1Words, OCR_DEFAULTS, ocrReason, type OcrOptions } from '../../ocr/decide.js';
import { installedLanguages, pageLanguage, rereadLanguages, SIBLING_MARGIN, type LanguageEvidence } from '../../ocr/languages.js';
import { findTesseract, OcrUnavailable, recognize } from '../../ocr/tesseract.js';
import { dominantScript, letterCount, type ScriptClass } from '../../lang/scripts.js';
import { meanConfidence, ocrItems } from '../../ocr/words.js';

/** What the PDFium engine reads of the parse options. */
export interface PdfiumOptions extends OpenOptions, Partial<OcrOptions> {
  /** Apply NFKC to ligatures, Arabic presentation forms and odd spaces (what pdf.js's normalisation covers). */
  normalize: boolean;
  /** WebAssembly heap limit in MiB; a document that grows the heap past it ends with out-of-memory. */
  memory: number;
}

/**
 * The pages without text PDFium read, and how many of them may hold text it could not read: a page
 * with no objects at all (content it may have failed to decode), or with text or form objects. A
 * page of images and drawings alone holds none that another reader would find. The parse worker
 * reads a document without text again with pdf.js only when one may (lib/run/parse-worker.ts).
 */
export interface TextlessPages {
  read: number;
  mayHoldText: number;
}

/** Past this many objects a page is not looked through: it counts as one that may hold text. */
const MAX_OBJECTS_LOOKED_AT = 10_000;

function mayHoldText(m: PdfiumModule, page: number): boolean {
  const count = m.FPDFPage_CountObjects(page);
  if (count <= 0 || count > MAX_OBJECTS_LOOKED_AT) return true;
  for (let k = 0; k < count; k++) {
    const type = m.FPDFPageObj_GetType(m.FPDFPage_GetObject(page, k));
    if (type === PAGE_OBJECT.text || type === PAGE_OBJECT.form) return true;
  }
  return false;
}

/** Loads the WebAssembly module ahead of the first document. */
export async function preloadEngine(): Promise<void> {
  await loadModule();
}

function classifyLoadError(code: number, passwordGiven = false): EngineError {
  switch (code) {
    case 4:
      return new EngineError('password-required', passwordGiven ? 'The PDF is encrypted, and the password given does not open it' : 'The PDF is encrypted with a user password (give it with --password)');
    case 5:
      return new EngineError('corrupt', 'The PDF uses an unsupported security handler');
    case 2:
      return new EngineError('unreadable', 'PDFium could not read the file');
    case 3:
      return new EngineError('corrupt', 'The PDF structure is invalid: PDFium found no readable cross-reference or trailer');
    default:
      return new EngineError('corrupt', `The PDF could not be read (PDFium error ${code})`);
  }
}

/** The one `ocr-unavailable` diagnostic of a document: its first page that needed OCR, and why none ran. */
function unavailable(id: string, page: number, why: string): DiagnosticRecord {
  return diagnostic(id, 'parse', 'ocr-unavailable', `Pages that need OCR keep no text: ${why}`, { place: { page } });
}

/** The OCR options that are set (an undefined one keeps its default). */
function definedOf(options: Partial<OcrOptions>): Partial<OcrOptions> {
  return Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && key in OCR_DEFAULTS)) as Partial<OcrOptions>;
}

/** Errors thrown inside the WebAssembly module (abort, out of bounds, OOM) leave it unusable. */
function classifyThrown(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  recycle();
  if (heapGrowthRefused() || /OOM|out of memory|Cannot enlarge memory|memory access out of bounds.*alloc/i.test(message)) {
    return new EngineError('out-of-memory', `PDFium ran out of memory: ${message}`);
  }
  return new EngineError('corrupt', `PDFium failed on this PDF: ${message}`);
}

/**
 * Yields the `doc` record, then one `page` record per page (each followed by a diagnostic when
 * characters on it had no Unicode mapping). Throws EngineError on failure. `textless`, when given,
 * counts the pages without text and those of them that may hold some.
 */
export async function* extractRecords(
  bytes: Uint8Array,
  id: string,
  source: string,
  options: PdfiumOptions,
  textless?: TextlessPages,
): AsyncGenerator<DocRecord | PageRecord | DiagnosticRecord> {
  if (bytes.byteLength === 0) throw new EngineError('not-a-pdf', 'The file is empty');
  if (!looksLikePdf(bytes)) throw new EngineError('not-a-pdf', 'No %PDF- header in the first 1024 bytes: this is not a PDF');
  const m = await loadModule();
  const limit = options.memory * 1024 * 1024;
  heapLimit(limit);
  const scratch = new Scratch(m);
  const forms = new ArabicForms();
  let data = 0;
  let doc = 0;
  let form = 0;
  let formInfo = 0;
  // Whether a page was drawn (for its ink, or for OCR): the instance is then not reused (below).
  let rendered = false;
  try {
    data = m.pdfium.wasmExports.malloc(bytes.byteLength);
    if (!data) throw new EngineError('out-of-memory', 'The PDFium heap cannot hold this file');
    heaps(m).HEAPU8.set(bytes, data);
    doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, options.password ?? '');
    if (!doc) throw classifyLoadError(m.FPDF_GetLastError(), Boolean(options.password));
    const pages = m.FPDF_GetPageCount(doc);
    const info = readInfo(m, doc, scratch);
    const meta: DocMeta = {
      pages,
      info,
      lang: info.Language ?? null,
      outline: readOutline(m, doc, scratch),
      encrypted: m.FPDF_GetSecurityHandlerRevision(doc) !== -1,
      engine: `${engineVersion} glyph-order`,
      xmp: xmpFromPdfBytes(bytes),
      normalization: options.normalize ? 'nfkc-ligatures-presentation-forms' : 'none',
      permissions: readPermissions(m, doc),
    };
    yield { type: 'doc', id, source, schema: SCHEMA_VERSION, meta };
    ({ form, info: formInfo } = openForm(m, doc));
    // A tagged PDF's structure tree gives each run its `tag`; an untagged one is not read.
    const tagged = isTagged(m, doc);
    const range = pageRange(pages, options);
    const ocr = { ...OCR_DEFAULTS, ...definedOf(options) };
    // Tesseract is looked for once per document, when a page first needs it.
    let tesseract: string | null | undefined;
    let ocrUnavailable = false;
    /** Milliseconds this document has spent in OCR, against --ocr-budget. */
    let ocrSpent = 0;
    const pageObjects = new PageObjects();
    let repeats = 0;
    // The script of the last page whose text layer was kept (or that osd saw): a scan's language when nothing else names it.
    const language: LanguageEvidence = { configured: ocr.ocrLang, docLang: meta.lang, pageScript: null, documentScript: null };
    for (let n = range.first; n <= range.last; n++) {
      const page = m.FPDF_LoadPage(doc, n - 1);
      if (!page) throw new EngineError('corrupt', `PDFium could not load page ${n}`);
      const firstShown = pageObjects.seenBefore(m.EPDFPage_GetObjectNumber(page), n);
      if (firstShown !== undefined) {
        try {
          const { width, height } = viewportTransform(pageView(m, page, scratch), m.FPDFPage_GetRotation(page) * 90);
          yield { type: 'page', doc: id, page: n, width: round(width), height: round(height), items: [] };
        } finally {
          m.FPDF_ClosePage(page);
        }
        if (repeats++ === 0) yield diagnostic(id, 'parse', 'page-repeated', repeatedPageMessage(n, firstShown), { place: { page: n } });
        continue;
      }
      let record: PageRecord;
      let unmapped = 0;
      let ocrWhy: string | null = null;
      let image: { pnm: Uint8Array; dpi: number } | null = null;
      let pageScript: ScriptClass | null = null;
      const notes: DiagnosticRecord[] = [];
      try {
        const view = pageView(m, page, scratch);
        const { transform, width, height } = viewportTransform(view, m.FPDFPage_GetRotation(page) * 90);
        const text = readPageText(m, page, transform, scratch, options.normalize, forms, tagged ? pageTags(m, page, scratch) : undefined);
        unmapped = text.unmapped;
        const items = text.items;
        if (ocr.ocr !== 'never' && !ocrUnavailable) {
          // Characters PDFium finds unmapped are not counted: repair reads many of them back
          // (8-bit Cyrillic without a Unicode map), which OCR would only make worse.
          const counted = countCharacters(items.map((item) => item.text));
          const pageText = items.map((item) => (item.after === 'space' || item.after === 'break' ? `${item.text} ` : item.text)).join('');
          // A page whose glyphs were mostly read as numbers their fonts cannot draw is in the
          // script of those fonts' programs, not in that of the few letters left.
          const [misreadScript, misread = 0] = [...text.misread].sort((a, b) => b[1] - a[1])[0] ?? [];
          pageScript = misreadScript && misread > letterCount(pageText) ? misreadScript : dominantScript(pageText);
          // What a page without text shows is measured; a page with text is judged by its text alone.
          const hasText = counted.chars > 0;
          const coverage = { imageCoverage: hasText ? 0 : imageCoverage(m, page, view, scratch), inkCoverage: hasText ? 0 : inkCoverage(m, page, width, height) };
          if (!hasText) rendered = true;
          const foreign = foreignInWords(pageText);
          // Words of an 8-bit code page matter only to a page that control codes or foreign characters would condemn.
          const latin1Letters = counted.controls > 0 || foreign.foreign > 0 ? latin1Words(pageText) : 0;
          ocrWhy = ocrReason(ocr.ocr, { ...counted, ...foreign, latin1Letters, ...coverage });
          if (!ocrWhy && pageScript) language.documentScript = pageScript;
          if (ocrWhy && ocrSpent >= ocr.ocrBudget * 1000) {
            notes.push(diagnostic(id, 'parse', 'ocr-skipped', `The page was not read by OCR: the document spent its ${ocr.ocrBudget} s of OCR (--ocr-budget); it keeps its text layer (${ocrWhy})`, { place: { page: n } }));
            ocrWhy = null;
          }
          if (ocrWhy) {
            tesseract ??= findTesseract(ocr.tesseract);
            if (tesseract) {
              const dpi = renderDpi(width, height, ocr.ocrDpi);
              image = { pnm: renderPage(m, page, width, height, dpi), dpi };
              rendered = true;
            }
          }
        }
        for (const item of readAnnotations(m, page, form, transform, scratch)) items.push(item);
        if (textless && items.length === 0) {
          textless.read += 1;
          if (mayHoldText(m, page)) textless.mayHoldText += 1;
        }
        record = { type: 'page', doc: id, page: n, width: round(width), height: round(height), items };
      } finally {
        m.FPDF_ClosePage(page);
      }
      if (heapBytes(m) > limit || heapGrowthRefused()) {
        throw new EngineError('out-of-memory', `The document grew PDFium's heap past the ${options.memory} MiB limit`);
      }
      if (ocrWhy && (!tesseract || !image)) {
        ocrUnavailable = true;
        notes.push(unavailable(id, n, ocr.tesseract ? `Tesseract cannot be run at ${ocr.tesseract}` : 'Tesseract is not installed (install tesseract-ocr, or give its path with --tesseract)'));
      } else if (ocrWhy && tesseract && image) {
        const started = Date.now();
        try {
          const engine = { binary: tesseract, dpi: image.dpi, timeoutMs: ocr.ocrTimeout * 1000 };
          const chosen = await pageLanguage(Object.assign(language, { pageScript }), image.pnm, engine);
          let words = ocrItems(await recognize(image.pnm, { ...engine, lang: chosen.lang }), image.dpi);
          const rereads = rereadLanguages(language, chosen, words.map((word) => word.text).join(' '), meanConfidence(words), installedLanguages(tesseract));
          // Identification from a first reading can be wrong between close languages (Arabic
          // read as Persian): the reading Tesseract is surer of is kept, and its language serves
          // the document's next pages. A language of the script tried on an unsure reading must
          // be surer by a margin; none is tried past the document's OCR budget.
          let surest = meanConfidence(words);
          let how = '';
          const tries = [...(rereads.identified ? [{ lang: rereads.identified, margin: 0, why: 'then the language identified in its text' }] : []), ...rereads.siblings.map((lang) => ({ lang, margin: SIBLING_MARGIN, why: 'then the language of its script Tesseract read it surest in' }))];
          for (const { lang, margin, why } of tries) {
            if (ocrSpent + (Date.now() - started) >= ocr.ocrBudget * 1000) break;
            const reread = ocrItems(await recognize(image.pnm, { ...engine, lang }), image.dpi);
            const confidence = meanConfidence(reread);
            if (confidence >= surest + margin) {
              words = reread;
              surest = confidence;
              how = why;
              chosen.lang = lang;
            }
          }
          if (tries.length > 0) {
            language.identified = chosen.lang;
            if (how) chosen.how = `${chosen.how}, ${how}`;
          }
          record.items = [...words, ...(record.items ?? []).filter((item) => item.font === 'annotation')];
          unmapped = 0;
          ocrSpent += Date.now() - started;
          notes.push(diagnostic(id, 'parse', 'ocr', `The page was read by OCR (${chosen.lang}, from ${chosen.how}; ${Math.round(image.dpi)} dpi, ${Date.now() - started} ms): ${ocrWhy}`, { place: { page: n }, count: words.length, severity: 'info' }));
        } catch (error) {
          ocrSpent += Date.now() - started;
          if (error instanceof OcrUnavailable) {
            ocrUnavailable = true;
            notes.push(unavailable(id, n, error.message));
          } else notes.push(diagnostic(id, 'parse', 'ocr-failed', `OCR of the page failed, its text layer is kept: ${(error as Error).message}`, { place: { page: n } }));
        }
      }
      yield record;
      yield* notes;
      if (unmapped > 0) {
        yield diagnostic(id, 'parse', 'unicode-map-error', `${unmapped} characters on this page come from a font whose Unicode map is missing or broken; their text may be wrong`, {
          place: { page: n },
          count: unmapped,
        });
      }
    }
  } catch (error) {
    const failure = classifyThrown(error);
    // A failure after the heap cap refused memory is the cap's doing, whatever PDFium made of it.
    if (heapGrowthRefused() && failure.code !== 'out-of-memory') {
      recycle();
      throw new EngineError('out-of-memory', `The document needed more than PDFium's ${options.memory} MiB heap limit (${failure.message})`);
    }
    throw failure;
  } finally {
    try {
      if (form) m.FPDFDOC_ExitFormFillEnvironment(form);
      if (formInfo) m.pdfium.wasmExports.free(formInfo);
      if (doc) m.FPDF_CloseDocument(doc);
      if (data) m.pdfium.wasmExports.free(data);
      scratch.free();
    } catch {
      recycle();
    }
    // Drawing a page leaves the instance changed: a later document's fonts that are not embedded
    // were measured otherwise after it (pdfminer__dmca after WaldenFull's pages without text were
    // drawn: an "M" of Garamond,Bold 14.27 wide alone, 13.87 after; "liabilityof" and "liability
    // of"). A fresh instance keeps each document's reading its own, whatever came before.
    if (rendered || heapBytes(m) > RECYCLE_HEAP_BYTES) recycle();
  }
}
