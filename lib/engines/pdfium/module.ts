/**
 * The PDFium WebAssembly module: loaded once and shared by the documents of a worker, dropped
 * (recycled) after a document when its heap has grown past RECYCLE_HEAP_BYTES or it aborted, and
 * the views and scratch memory through which the engine reads the module's heap.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EngineError } from '../errors.js';

/** The module as @embedpdf/pdfium wraps it. */
export type PdfiumModule = import('@embedpdf/pdfium').WrappedPdfiumModule;

/** An instance whose heap has grown past this is replaced before the next document. */
export const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;

let modulePromise: Promise<PdfiumModule> | null = null;
/** The most the module's heap may grow to; set per document from the memory limit (heapLimit). */
let heapCeiling = Number.POSITIVE_INFINITY;
/** Whether the module asked for more heap than heapCeiling allowed since the last heapLimit call. */
let growthRefused = false;

/**
 * Caps the module's heap at `bytes` from now on. PDFium asks for heap through emscripten's
 * `emscripten_resize_heap` import: a request past the cap is refused there, PDFium's allocation
 * fails and the document ends (out-of-memory), before the memory is ever committed. Without it a
 * Flate bomb grows the heap to the 2 GiB the module allows whatever the worker's limit.
 */
export function heapLimit(bytes: number): void {
  heapCeiling = bytes;
  growthRefused = false;
}

/** Whether the heap cap refused a growth since the document began: a failure then is lack of memory. */
export const heapGrowthRefused = (): boolean => growthRefused;

type WasmImports = Record<string, Record<string, unknown>>;
/** The part of the WebAssembly global used here (the project's type libraries do not declare it). */
interface WasmApi {
  instantiate(binary: ArrayBuffer, imports: WasmImports): Promise<{ instance: unknown; module: unknown }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Instantiates the module with its heap growth passing through the cap (emscripten's instantiateWasm hook). */
function instantiateCapped(wasmBinary: ArrayBuffer) {
  return (imports: WasmImports, receive: (instance: unknown, module: unknown) => void): Record<string, never> => {
    const env = imports.env!;
    const resize = env.emscripten_resize_heap as (requested: number) => boolean;
    const capped = { ...env, emscripten_resize_heap: (requested: number) => {
      if (requested >>> 0 > heapCeiling) {
        growthRefused = true;
        return false;
      }
      return resize(requested);
    } };
    void wasm.instantiate(wasmBinary, { ...imports, env: capped, wasi_snapshot_preview1: capped }).then(({ instance, module }) => receive(instance, module));
    return {};
  };
}
/** The engine name and version for `meta.engine`, known once the module has loaded. */
export let engineVersion = 'pdfium';

async function createModule(): Promise<PdfiumModule> {
  const require = createRequire(import.meta.url);
  const { init } = await import('@embedpdf/pdfium');
  const wasmBinary = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
  // printErr: the module's own complaints (an abort when the heap cap refuses growth) reach the
  // document's error record through the exception; on stderr they would only be noise.
  const binary = wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer;
  const module = await init({ wasmBinary: binary, instantiateWasm: instantiateCapped(binary), printErr: () => undefined } as Parameters<typeof init>[0]);
  module.PDFiumExt_Init();
  callDirectly(module);
  try {
    const pkg = JSON.parse(readFileSync(require.resolve('@embedpdf/pdfium/package.json'), 'utf8')) as { version?: string };
    engineVersion = `pdfium wasm ${pkg.version ?? ''}`.trim();
  } catch {
    engineVersion = 'pdfium wasm';
  }
  return module;
}

/**
 * The calls made per character, per page object or per node of a page's structure tree. The
 * package wraps each export in `cwrap`, which on every call builds its argument converters, an
 * argument array and closures, and in this build checks its arguments: that cost more than the
 * calls themselves (2–3 % of `parse`'s CPU for about 300 calls a page). These, whose arguments are
 * all numbers, are called straight from the WebAssembly exports; what they return is a number, also
 * for the three whose wrapper makes it a boolean (the matrix, the origin and the loose box, read
 * only by chars.ts, as numbers).
 */
const DIRECT_CALLS = [
  'FPDFText_CountChars',
  'FPDFText_GetUnicode',
  'FPDFText_IsGenerated',
  'FPDFText_HasUnicodeMapError',
  'FPDFText_GetTextObject',
  'FPDFTextObj_GetFont',
  'FPDFText_GetMatrix',
  'FPDFText_GetFontSize',
  'FPDFText_GetCharOrigin',
  'FPDFText_GetLooseCharBox',
  'FPDFFont_GetBaseFontName',
  'FPDFPageObj_CountMarks',
  'FPDFPageObj_GetMark',
  'FPDFPageObj_GetMarkedContentID',
  'FPDF_StructElement_GetMarkedContentIdAtIndex',
  'FPDF_StructElement_GetChildAtIndex',
] as const;

function callDirectly(module: PdfiumModule): void {
  const exports = module.pdfium.wasmExports as unknown as Record<string, unknown>;
  const calls = module as unknown as Record<string, unknown>;
  for (const name of DIRECT_CALLS) if (typeof exports[name] === 'function') calls[name] = exports[name];
}

/** PDFium's page object types (FPDF_PAGEOBJ_*, fpdf_edit.h). */
export const PAGE_OBJECT = { text: 1, path: 2, image: 3, shading: 4, form: 5 } as const;

/** The module, loaded on first use; a load that failed is tried again by the next call. */
export function loadModule(): Promise<PdfiumModule> {
  modulePromise ??= createModule().catch((error: unknown) => {
    modulePromise = null;
    throw error;
  });
  return modulePromise;
}

/** Drops the instance; the next document starts a fresh one with an empty heap. */
export function recycle(): void {
  modulePromise = null;
}

/** The module's views of its heap; emscripten replaces them when the heap grows, so read them each time. */
export interface Heaps {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
}
/** The module's heap views, read afresh at each call. */
export const heaps = (m: PdfiumModule): Heaps => m.pdfium as unknown as Heaps;

/** The size of the module's heap in bytes (it never shrinks). */
export const heapBytes = (m: PdfiumModule): number => heaps(m).HEAPU8.byteLength;

/** A scratch buffer in the WebAssembly heap, grown on demand, freed with the document. */
export class Scratch {
  ptr = 0;
  size = 0;
  constructor(private readonly m: PdfiumModule) {}
  get(size: number): number {
    if (size > this.size) {
      if (this.ptr) this.m.pdfium.wasmExports.free(this.ptr);
      this.size = Math.max(size, 256);
      this.ptr = this.m.pdfium.wasmExports.malloc(this.size);
      if (!this.ptr) throw new EngineError('out-of-memory', 'The PDFium heap is exhausted');
    }
    return this.ptr;
  }
  free(): void {
    if (this.ptr) this.m.pdfium.wasmExports.free(this.ptr);
    this.ptr = 0;
    this.size = 0;
  }
}
