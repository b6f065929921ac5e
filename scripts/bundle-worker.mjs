/**
 * Bundles each of the two parse workers as tsc built them (lib/run/worker-start.ts
 * `WORKER_MODULES`: the parse worker alone, and with the stages after parse) into one file beside
 * it (NAME.bundle.js), with the list of the project's modules in it and a digest of their contents
 * (NAME.bundle.js.inputs.json, `BundleInputs`), so that a worker starts from one file, and from the
 * bundle only while the modules hold what it was made from (`currentBundle`).
 *
 *     node scripts/bundle-worker.mjs      (after tsc; `npm run build` runs both)
 *
 * pdf.js stays outside: it is loaded only for the documents PDFium cannot read.
 */
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { digestOf, WORKER_MODULES } from '../dist/lib/run/worker-start.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

for (const { module, bundle } of Object.values(WORKER_MODULES)) {
  const outfile = fileURLToPath(bundle);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [fileURLToPath(module)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pdfjs-dist'],
    metafile: true,
    logLevel: 'warning',
  });
  // The project's own modules (esbuild names its inputs from the working folder), not packages'.
  const modules = Object.keys(result.metafile.inputs).filter((path) => path.startsWith('dist/')).map((path) => resolve(root, path));
  const inputs = modules.map((path) => relative(dirname(outfile), path)).map((path) => (path.startsWith('.') ? path : `./${path}`));
  const made = { inputs, sha256: digestOf(modules.map((path) => pathToFileURL(path))) };
  writeFileSync(`${outfile}.inputs.json`, `${JSON.stringify(made, null, 1)}\n`);
}
