/**
 * pdf.js's display layer, imported without the native canvas its Node build loads for rendering
 * (see importWithoutCanvas): pdfpipe reads text with pdf.js and never renders with it.
 */
import Module, { createRequire } from 'node:module';

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** pdf.js's package file: the canvas is resolved from where pdf.js would resolve it. */
const PDFJS_PACKAGE = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');

/** The native canvas pdf.js's Node build loads for rendering. */
const CANVAS_PACKAGE = '@napi-rs/canvas';
/** The browser classes pdf.js takes from that canvas (one is built as its display layer loads). */
const CANVAS_GLOBALS = ['DOMMatrix', 'ImageData', 'Path2D'] as const;

/**
 * Imports pdf.js's display layer without loading its canvas until a class of it is used. As it is
 * imported, pdf.js's Node build loads @napi-rs/canvas (Skia, a native library) to polyfill
 * DOMMatrix, Path2D and ImageData. pdfpipe reads text with pdf.js and never renders with it (PDFium
 * renders the pages OCR reads); only a Type 3 glyph drawn as an image mask, which pdf.js turns
 * into a path as it loads the font, needs a DOMMatrix. Loading the library took 230 MiB of resident
 * memory (a process reading one page with pdf.js: 394 MiB at its peak with it, 177 MiB without).
 * For the length of the import the package is an empty module and each class a stand-in (pdf.js
 * builds a matrix for rendering as it loads, and warns on stdout of a class it finds missing);
 * then each class is a property that loads the canvas the first time it is read. That one matrix
 * stays a stand-in, so pdf.js as imported here cannot render a page: pdfpipe never asks it to.
 * The import is made once per thread, so that two callers never patch the loader over each other.
 */
export function importWithoutCanvas(): Promise<PdfjsModule> {
  imported ??= importOnce();
  return imported;
}
let imported: Promise<PdfjsModule> | null = null;

async function importOnce(): Promise<PdfjsModule> {
  type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };
  const loader = Module as unknown as Loader;
  const load = loader._load;
  const missing = CANVAS_GLOBALS.filter((name) => !(name in globalThis));
  for (const name of missing) Object.defineProperty(globalThis, name, { configurable: true, writable: true, value: class NotLoaded {} });
  loader._load = function (this: unknown, request: string, ...rest: unknown[]): unknown {
    return request === CANVAS_PACKAGE ? {} : load.call(this, request, ...rest);
  };
  try {
    return await import('pdfjs-dist/legacy/build/pdf.mjs');
  } finally {
    loader._load = load;
    for (const name of missing) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get: () => loadCanvasGlobals(missing)[name],
        // Whoever sets the class first has it, as with an ordinary global.
        set: (value: unknown) => Object.defineProperty(globalThis, name, { configurable: true, writable: true, value }),
      });
    }
  }
}

/** Loads the canvas and puts its classes in place of the properties that loaded it; what it lacks stays undefined. */
function loadCanvasGlobals(names: readonly string[]): Record<string, unknown> {
  let canvas: Record<string, unknown> = {};
  try {
    canvas = createRequire(PDFJS_PACKAGE)(CANVAS_PACKAGE) as Record<string, unknown>;
  } catch {
    // an optional dependency: without it, what needs a class fails as pdf.js fails without it
  }
  for (const name of names) Object.defineProperty(globalThis, name, { configurable: true, writable: true, value: canvas[name] });
  return canvas;
}
