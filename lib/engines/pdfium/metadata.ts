/**
 * A document's metadata and page boxes under PDFium: the Info dictionary (with the catalog's /Lang
 * and the file's version), the outline, and each page's visible box and its transform to display
 * space (crop box ∩ media box, /Rotate, origin at the top-left, y down), as pdf.js computes them.
 */
import type { OutlineEntry } from '../../protocol/records.js';
import { heaps, type PdfiumModule, type Scratch } from './module.js';
import { readBytes, readUtf16 } from './strings.js';

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate', 'Trapped'];

/** The document's Info entries (standard and custom keys), its PDF version and its catalog's /Lang as `Language`. */
export function readInfo(m: PdfiumModule, doc: number, scratch: Scratch): Record<string, string> {
  const info: Record<string, string> = {};
  const version = scratch.get(8);
  if (m.FPDF_GetFileVersion(doc, version)) {
    const v = m.pdfium.getValue(version, 'i32');
    info.PDFFormatVersion = `${Math.floor(v / 10)}.${v % 10}`;
  }
  const lang = readUtf16(m, scratch, (buf, len) => m.FPDFCatalog_GetLanguage(doc, buf, len));
  if (lang) info.Language = lang;
  const keys = [...INFO_KEYS];
  try {
    const custom = m.EPDF_GetMetaKeyCount(doc, true);
    for (let i = 0; i < Math.min(custom, 64); i++) {
      const name = readBytes(m, scratch, (buf, len) => m.EPDF_GetMetaKeyName(doc, i, true, buf, len));
      if (name && !keys.includes(name)) keys.push(name);
    }
  } catch {
    // Custom keys are a bonus; the standard ones are read below either way.
  }
  for (const key of keys) {
    const value = readUtf16(m, scratch, (buf, len) => m.FPDF_GetMetaText(doc, key, buf, len));
    if (value) info[key] = value;
  }
  return info;
}

const MAX_OUTLINE_ENTRIES = 10_000;
const PDFACTION_GOTO = 1;

/** The document's outline: titles and target pages (null outside this document), bounded in depth and size. */
export function readOutline(m: PdfiumModule, doc: number, scratch: Scratch): OutlineEntry[] {
  const seen = new Set<number>();
  const convert = (first: number, depth: number): OutlineEntry[] => {
    const out: OutlineEntry[] = [];
    // Outlines can loop or nest absurdly deep in hostile files.
    if (depth > 32) return out;
    for (let bm = first; bm && !seen.has(bm) && seen.size < MAX_OUTLINE_ENTRIES; bm = m.FPDFBookmark_GetNextSibling(doc, bm)) {
      seen.add(bm);
      const title = readUtf16(m, scratch, (buf, len) => m.FPDFBookmark_GetTitle(bm, buf, len));
      // PDFium falls back to the action's destination whatever the action; only a GoTo points into
      // this document (a GoToR's destination is a page of another file).
      const action = m.FPDFBookmark_GetAction(bm);
      const dest = action && m.FPDFAction_GetType(action) !== PDFACTION_GOTO ? 0 : m.FPDFBookmark_GetDest(doc, bm);
      const index = dest ? m.FPDFDest_GetDestPageIndex(doc, dest) : -1;
      out.push({ title, page: index >= 0 ? index + 1 : null, children: convert(m.FPDFBookmark_GetFirstChild(doc, bm), depth + 1) });
    }
    return out;
  };
  return convert(m.FPDFBookmark_GetFirstChild(doc, 0), 0);
}

/**
 * The page's visible box as pdf.js computes it: crop box ∩ media box, or the media box. PDFium's
 * page bounding box is that box with the boxes inherited from the page tree (xdvipdfmx writes the
 * MediaBox on /Pages only, where FPDFPage_GetMediaBox, which reads the page's own dictionary, does
 * not see it); the page's own boxes are read only when PDFium gives no bounding box.
 */
export function pageView(m: PdfiumModule, page: number, scratch: Scratch): [number, number, number, number] {
  const p = scratch.get(16);
  const read = (): [number, number, number, number] => {
    const f = heaps(m).HEAPF32;
    const [l, b, r, t] = [f[p >> 2] ?? 0, f[(p >> 2) + 1] ?? 0, f[(p >> 2) + 2] ?? 0, f[(p >> 2) + 3] ?? 0];
    return [Math.min(l, r), Math.min(b, t), Math.max(l, r), Math.max(b, t)];
  };
  if (m.FPDF_GetPageBoundingBox(page, p)) {
    const bounds = read(); // FS_RECTF: left, top, right, bottom, ordered by read()
    if (bounds[2] > bounds[0] && bounds[3] > bounds[1]) return bounds;
  }
  let media: [number, number, number, number] = [0, 0, 612, 792];
  if (m.FPDFPage_GetMediaBox(page, p, p + 4, p + 8, p + 12)) media = read();
  if (media[2] - media[0] <= 0 || media[3] - media[1] <= 0) media = [0, 0, 612, 792];
  if (!m.FPDFPage_GetCropBox(page, p, p + 4, p + 8, p + 12)) return media;
  const crop = read();
  const view: [number, number, number, number] = [
    Math.max(crop[0], media[0]),
    Math.max(crop[1], media[1]),
    Math.min(crop[2], media[2]),
    Math.min(crop[3], media[3]),
  ];
  return view[2] > view[0] && view[3] > view[1] ? view : media;
}

/** The page-to-display transform of pdf.js's viewport at scale 1: [a, b, c, d, e, f]. */
export function viewportTransform(view: readonly [number, number, number, number], rotation: number): { transform: number[]; width: number; height: number } {
  const [x0, y0, x1, y1] = view;
  const cx = (x1 + x0) / 2;
  const cy = (y1 + y0) / 2;
  const r = ((rotation % 360) + 360) % 360;
  const [a, b, c, d] = r === 90 ? [0, 1, 1, 0] : r === 180 ? [-1, 0, 0, 1] : r === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  let offsetX: number;
  let offsetY: number;
  let width: number;
  let height: number;
  if (a === 0) {
    offsetX = Math.abs(cy - y0);
    offsetY = Math.abs(cx - x0);
    width = Math.abs(y1 - y0);
    height = Math.abs(x1 - x0);
  } else {
    offsetX = Math.abs(cx - x0);
    offsetY = Math.abs(cy - y0);
    width = Math.abs(x1 - x0);
    height = Math.abs(y1 - y0);
  }
  return { transform: [a, b, c, d, offsetX - a * cx - c * cy, offsetY - b * cx - d * cy], width, height };
}

/** The permission bits of the encryption dictionary's `P`, in the order pdf.js's PermissionFlag lists them. */
const PERMISSION_FLAGS = [4, 8, 16, 32, 256, 512, 1024, 2048] as const;

/**
 * The permissions an encrypted PDF grants its reader, as pdf.js reports them (the flags set in
 * `P`), or null for a PDF that is not encrypted and so restricts nothing. `P` is read with
 * FPDF_GetDocUserPermissions, the user's permissions whatever password opened the file: a PDF
 * encrypted with an owner password alone opens without one, and FPDF_GetDocPermissions would then
 * report the owner's (every permission) when the empty password happens to be the owner's.
 */
export function readPermissions(m: PdfiumModule, doc: number): number[] | null {
  if (m.FPDF_GetSecurityHandlerRevision(doc) === -1) return null;
  const p = m.FPDF_GetDocUserPermissions(doc) >>> 0;
  return PERMISSION_FLAGS.filter((flag) => (p & flag) !== 0);
}
