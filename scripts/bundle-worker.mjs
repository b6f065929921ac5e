/**
 * Bundles each of the two parse workers, as tsc built them (dist/lib/run/parse-worker.js, alone,
 * and dist/lib/run/chain-worker.js, with the stages after parse), into one file beside it
 * (NAME.bundle.js), with the list of the project's modules in it and a digest of their contents
 * (NAME.bundle.js.inputs.json), so that a worker starts from one file, and from the bundle only
 * while the modules hold what it was made from (lib/run/worker-start.ts).
 *
 *     node scripts/bundle-worker.mjs      (after tsc; `npm run build` runs both)
 *
 * pdf.js stays outside: it is loaded only for the documents PDFium cannot read.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

for (const name of ['parse-worker', 'chain-worker']) {
  const outfile = resolve(root, `dist/lib/run/${name}.bundle.js`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [`dist/lib/run/${name}.js`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pdfjs-dist'],
    metafile: true,
    logLevel: 'warning',
  });
  const modules = Object.keys(result.metafile.inputs).filter((path) => path.startsWith('dist/'));
  const inputs = modules.map((path) => relative(dirname(outfile), resolve(root, path))).map((path) => (path.startsWith('.') ? path : `./${path}`));
  const hash = createHash('sha256');
  for (const path of modules) hash.update(readFileSync(resolve(root, path)));
  writeFileSync(`${outfile}.inputs.json`, `${JSON.stringify({ inputs, sha256: hash.digest('hex') }, null, 1)}\n`);
}
