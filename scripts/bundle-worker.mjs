/**
 * Bundles each of the two parse workers as tsc built them (lib/run/worker-start.ts
 * `WORKER_MODULES`: the parse worker alone, and with the stages after parse) into one script
 * beside it (NAME.script.js), which a small module (NAME.bundle.js) runs with V8's code cache
 * (lib/run/worker-script.ts); with the list of the project's modules in it and a digest of their
 * contents (NAME.bundle.js.inputs.json, `BundleInputs`), so that a worker starts from one file,
 * and from the bundle only while the modules hold what it was made from (`currentBundle`). The
 * code cache is made next (scripts/code-cache.mjs); a cache left from an earlier bundle is
 * removed here.
 *
 *     node scripts/bundle-worker.mjs      (after tsc; `npm run build` runs both)
 *
 * pdf.js stays outside: it is loaded only for the documents PDFium cannot read.
 */
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { digestOf, scriptOf, WORKER_MODULES } from '../dist/lib/run/worker-start.js';
import { codeCacheOf } from '../dist/lib/run/worker-script.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// A dynamic import in the bundle (pdf.js, Node's `module` in PDFium's loader): esbuild leaves
// `import(` as it is, which a script compiled by `vm` cannot run on Node 20; it calls the
// importer the worker gives it instead. Each must be code, not a string that happens to hold
// the word: a quote, a backtick or a name follows the parenthesis.
const DYNAMIC_IMPORT = /(?<![\w$.])import\(/gu;
const IMPORTED = /^(?:["'`]|[\w$])/u;

for (const { module, bundle } of Object.values(WORKER_MODULES)) {
  const script = scriptOf(bundle);
  const outfile = fileURLToPath(script);
  rmSync(codeCacheOf(script), { force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [fileURLToPath(module)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['pdfjs-dist'],
    define: { 'import.meta.url': '__bundleUrl' },
    metafile: true,
    logLevel: 'warning',
  });
  let source = readFileSync(outfile, 'utf8');
  const imports = [...source.matchAll(DYNAMIC_IMPORT)];
  for (const found of imports) {
    const after = source.slice(found.index + found[0].length, found.index + found[0].length + 1);
    if (!IMPORTED.test(after)) throw new Error(`${basename(outfile)}: "import(" at ${found.index} is not followed by what it imports`);
  }
  source = source.replace(DYNAMIC_IMPORT, '__import(');
  writeFileSync(outfile, source);
  writeFileSync(
    fileURLToPath(bundle),
    `// Made by scripts/bundle-worker.mjs: runs ${basename(outfile)}, the bundle of ${basename(fileURLToPath(module))}, with its code cache.\n` +
      `import { runWorkerScript } from './worker-script.js';\n` +
      `runWorkerScript(new URL('./${basename(outfile)}', import.meta.url));\n`,
  );
  // The project's own modules (esbuild names its inputs from the working folder), not packages'.
  const modules = Object.keys(result.metafile.inputs).filter((path) => path.startsWith('dist/')).map((path) => resolve(root, path));
  const inputs = modules.map((path) => relative(dirname(outfile), path)).map((path) => (path.startsWith('.') ? path : `./${path}`));
  const made = { inputs, sha256: digestOf(modules.map((path) => pathToFileURL(path))) };
  writeFileSync(`${fileURLToPath(bundle)}.inputs.json`, `${JSON.stringify(made, null, 1)}\n`);
}
