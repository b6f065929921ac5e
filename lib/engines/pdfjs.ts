/**
 * The pdf.js engine: PDF bytes in, engine-neutral records out.
 *
 * pdf.js runs with eval disabled, no font faces, no system fonts and no network; cMaps and the
 * standard fonts come from the package's own folders. Pages are yielded one at a time and cleaned
 * up, so memory is bounded by a page. Text items keep pdf.js's run splitting; whitespace-only runs
 * are dropped because the line stage measures gaps itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocMeta, DocRecord, Direction, Item, OutlineEntry, PageRecord } from '../records.js';
import { SCHEMA_VERSION } from '../records.js';
import { EngineError } from './errors.js';

const require = createRequire(import.meta.url);
const PDFJS_ROOT = dirname(require.resolve('pdfjs-dist/package.json'));
const CMAP_DIR = join(PDFJS_ROOT, 'cmaps') + '/';
const STANDARD_FONT_DIR = join(PDFJS_ROOT, 'standard_fonts') + '/';

export interface PdfjsOptions {
  /** Apply pdf.js's normalisation of ligatures, presentation forms and spaces (NFKC on a curated set). */
  normalize: boolean;
}

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/*
 * pdf.js fills gaps between glyphs of 0.1–0.6 em with a space inside one text run, and the glyph
 * positions are lost: a letter-spaced "D e c l a r a t i o n o f" cannot then be told from its word
 * gaps. We load pdf.js's worker code with that one branch turned off, so every gap wider than
 * 0.1 em ends the run and the line stage measures the gaps itself. If the code is not found (another
 * pdf.js version), the unmodified worker is used and the doc record says so.
 */
const IN_FLOW_SPACE_BRANCH =
  'if (textOrientation * textContentItem.spaceInFlowMin <= width && width <= textOrientation * textContentItem.spaceInFlowMax) {';
let splitRuns = false;

let pdfjsPromise: Promise<PdfjsModule> | null = null;
async function loadWorkerWithSplitRuns(): Promise<void> {
  const source = readFileSync(join(PDFJS_ROOT, 'legacy/build/pdf.worker.mjs'), 'utf8');
  if (!source.includes(IN_FLOW_SPACE_BRANCH)) return;
  // The source-map comment must go: relative to a data: URL it is an invalid URL, and with source
  // maps enabled (node --enable-source-maps, NODE_OPTIONS) Node throws on it and the import fails.
  const patched = source.replace(IN_FLOW_SPACE_BRANCH, 'if (false) {').replace(/^\/\/# sourceMappingURL=.*$/gm, '');
  const url = `data:text/javascript;base64,${Buffer.from(patched).toString('base64')}`;
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(url);
  splitRuns = true;
}
function loadPdfjs(): Promise<PdfjsModule> {
  pdfjsPromise ??= loadWorkerWithSplitRuns().then(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  return pdfjsPromise;
}

/** Loads pdf.js ahead of the first document, so that a worker's start-up is not charged to it. */
export async function preloadEngine(): Promise<void> {
  await loadPdfjs();
}

interface TextItemLike {
  str: string;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
}

function multiply(m: number[], n: number[]): number[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
  const [p = 0, q = 0, r = 0, s = 0, t = 0, u = 0] = n;
  return [a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f];
}

const round = (v: number): number => Math.round(v * 100) / 100;

/**
 * pdf.js names fonts `g_d<N>_f<M>`, N counting the documents its worker has loaded: the same PDF
 * would get other names in a worker that read other documents first. Without that prefix the name
 * depends on the document alone, so output does not change with --jobs, a restart or a split run.
 */
export function stableFontName(name: string): string {
  return name.replace(/^g_d\d+_/, '');
}

/** Maps pdf.js's text item to an item in page coordinates (see lib/records.ts). */
export function toItem(raw: TextItemLike, viewportTransform: number[], fontFamily: string): Item | null {
  if (raw.str.trim() === '') return null;
  const m = multiply(viewportTransform, raw.transform);
  const size = Math.hypot(m[2] ?? 0, m[3] ?? 0);
  const dir: Direction = raw.dir === 'rtl' ? 'rtl' : raw.dir === 'ttb' ? 'ttb' : 'ltr';
  return {
    text: raw.str,
    x: round(m[4] ?? 0),
    y: round(m[5] ?? 0),
    w: round(Math.abs(raw.width)),
    size: round(size),
    font: fontFamily ? `${stableFontName(raw.fontName)}:${fontFamily}` : stableFontName(raw.fontName),
    dir,
  };
}

function classify(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const name = (error as { name?: string })?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return new EngineError('password-required', `The PDF is encrypted and needs a password (${message})`);
  if (name === 'InvalidPDFException') {
    return new EngineError('corrupt', `The PDF structure is invalid: ${message}`);
  }
  return new EngineError('corrupt', `The PDF could not be read: ${message}`);
}

async function readOutline(doc: import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy): Promise<OutlineEntry[]> {
  const raw = await doc.getOutline().catch(() => null);
  if (!raw) return [];
  const seen = new Set<unknown>();
  const convert = async (nodes: typeof raw, depth: number): Promise<OutlineEntry[]> => {
    const out: OutlineEntry[] = [];
    // Outlines can loop or nest absurdly deep in hostile files.
    if (depth > 32) return out;
    for (const node of nodes) {
      if (seen.has(node)) continue;
      seen.add(node);
      let page: number | null = null;
      try {
        const dest = typeof node.dest === 'string' ? await doc.getDestination(node.dest) : node.dest;
        const ref = Array.isArray(dest) ? dest[0] : null;
        if (ref && typeof ref === 'object') page = (await doc.getPageIndex(ref as never)) + 1;
        else if (typeof ref === 'number') page = ref + 1;
      } catch {
        page = null;
      }
      out.push({ title: String(node.title ?? ''), page, children: await convert(node.items ?? [], depth + 1) });
    }
    return out;
  };
  return convert(raw, 0);
}

function stringInfo(info: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (info && typeof info === 'object') {
    for (const [key, value] of Object.entries(info)) {
      if (typeof value === 'string') out[key] = value;
    }
  }
  return out;
}

interface AnnotationLike {
  subtype?: string;
  rect?: number[];
  hidden?: boolean;
  fieldType?: string;
  fieldValue?: unknown;
  contentsObj?: { str?: string; dir?: string };
  textContent?: string[];
}

/**
 * Text that lives in annotations rather than in the page's content stream: free-text comments,
 * filled-in text fields and chosen values of choice fields. pdf.js's text layer leaves it out; pdftotext prints it (a form or a
 * note can be a document's only text). One item per annotation, on its rectangle's bottom edge,
 * font "annotation" so its origin stays visible. Hidden annotations and empty fields are skipped.
 */
async function annotationItems(
  page: import('pdfjs-dist/legacy/build/pdf.mjs').PDFPageProxy,
  viewport: import('pdfjs-dist/legacy/build/pdf.mjs').PageViewport,
): Promise<Item[]> {
  const annotations = ((await page.getAnnotations().catch(() => [])) ?? []) as AnnotationLike[];
  const items: Item[] = [];
  for (const a of annotations) {
    if (a.hidden || !a.rect || a.rect.length !== 4) continue;
    let text = '';
    if (a.subtype === 'FreeText') text = a.textContent?.join(' ') || a.contentsObj?.str || '';
    else if (a.subtype === 'Widget' && a.fieldType === 'Tx') text = typeof a.fieldValue === 'string' && a.fieldValue ? a.fieldValue : (a.textContent?.join(' ') ?? '');
    else if (a.subtype === 'Widget' && a.fieldType === 'Ch' && Array.isArray(a.fieldValue)) text = a.fieldValue.filter((v) => typeof v === 'string').join(' ');
    text = text.replace(/\s+/gu, ' ').trim();
    if (text === '') continue;
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle(a.rect);
    const height = Math.abs(y2 - y1);
    const size = Math.max(4, Math.min(height * 0.6, 24));
    items.push({
      text,
      x: round(Math.min(x1, x2)),
      y: round(Math.max(y1, y2) - height * 0.25),
      w: round(Math.abs(x2 - x1)),
      size: round(size),
      font: 'annotation',
      dir: a.contentsObj?.dir === 'rtl' ? 'rtl' : 'ltr',
    });
  }
  return items;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** True when the bytes look like a PDF: the header may sit anywhere in the first KiB. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).indexOf(PDF_MAGIC) !== -1;
}

/**
 * Yields the `doc` record, then one `page` record per page. Throws EngineError on failure; the
 * caller turns it into the document's `error` record.
 */
export async function* extractRecords(
  bytes: Uint8Array,
  id: string,
  source: string,
  options: PdfjsOptions,
): AsyncGenerator<DocRecord | PageRecord> {
  if (bytes.byteLength === 0) throw new EngineError('not-a-pdf', 'The file is empty');
  if (!looksLikePdf(bytes)) throw new EngineError('not-a-pdf', 'No %PDF- header in the first 1024 bytes: this is not a PDF');
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    isOffscreenCanvasSupported: false,
    cMapUrl: CMAP_DIR,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_DIR,
    verbosity: 0,
    stopAtErrors: false,
  });
  // pdf.js asks for a password through a callback; answering with an error ends the load cleanly.
  task.onPassword = () => {
    void task.destroy();
  };
  let doc: import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/destroyed|password/i.test(message) || (error as { name?: string })?.name === 'PasswordException') {
      throw new EngineError('password-required', 'The PDF is encrypted with a user password');
    }
    throw classify(error);
  }
  try {
    const metadata = await doc.getMetadata().catch(() => null);
    let lang: string | null = null;
    const info = stringInfo(metadata?.info);
    if (typeof (metadata?.info as Record<string, unknown> | undefined)?.Language === 'string') {
      lang = (metadata?.info as Record<string, string>).Language ?? null;
    }
    const meta: DocMeta = {
      pages: doc.numPages,
      info,
      lang,
      outline: await readOutline(doc),
      encrypted: Boolean((metadata?.info as Record<string, unknown> | undefined)?.EncryptFilterName),
      engine: `pdfjs ${pdfjs.version}${splitRuns ? ' split-runs' : ''}`,
      normalization: options.normalize ? 'pdfjs-nfkc-subset' : 'none',
    };
    yield { type: 'doc', id, source, schema: SCHEMA_VERSION, meta };
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent({ disableNormalization: !options.normalize });
      const items: Item[] = [];
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const family = content.styles[raw.fontName]?.fontFamily ?? '';
        const item = toItem(raw, viewport.transform, family);
        if (item) items.push(item);
      }
      items.push(...(await annotationItems(page, viewport)));
      page.cleanup();
      yield { type: 'page', doc: id, page: n, width: round(viewport.width), height: round(viewport.height), items };
    }
  } catch (error) {
    throw classify(error);
  } finally {
    await doc.destroy();
  }
}
