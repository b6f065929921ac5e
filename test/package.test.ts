/**
 * The package as users get it: `npm pack` of the built tree holds the licence, the config the
 * README names and the compiled library, and no tests, benchmarks or source maps; installed in an
 * empty project, it runs the README's library examples and PDFExtract's command line.
 */
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, repoRoot, untapped } from './helpers.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
/** The ```js blocks of the README's Library section. */
const libraryExamples = [...(/^## Library\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

t.test('the packed tarball installs and runs the README library examples', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pack-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The tree as built (`npm test` builds first); no prepare script, which would rebuild under the running tests.
  const packed = JSON.parse(execFileSync(...untapped('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir]), { cwd: repoRoot, env: childEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path);
  for (const needed of ['LICENSE', 'README.md', 'package.json', 'config/pdfextract.json', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/bin/pdfpipe.js', 'docs/records.md']) {
    t.ok(files.includes(needed), `ships ${needed}`);
  }
  t.same(files.filter((f) => /^dist\/(test|bench)\//.test(f) || f.endsWith('.map')), [], 'no tests, benchmarks or source maps');

  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const tarball = join(dir, packed[0]!.filename);
  const install = spawnSync(...untapped('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball]), { cwd: app, env: childEnv, encoding: 'utf8', timeout: 120_000 });
  if (install.status !== 0) {
    // No registry and no cache: unpack the tarball as npm would and lend it this clone's dependencies.
    const target = join(app, 'node_modules/pdfpipe');
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    symlinkSync(join(repoRoot, 'node_modules'), join(target, 'node_modules'), 'dir');
  }
  t.ok(existsSync(join(app, 'node_modules/pdfpipe/dist/lib/index.js')), `installed (${install.status === 0 ? 'npm install --offline' : 'unpacked, dependencies linked'})`);
  symlinkSync(join(repoRoot, 'samples'), join(app, 'samples'), 'dir');

  t.ok(libraryExamples.length >= 2, 'the README has its library examples');
  for (const [index, source] of libraryExamples.entries()) {
    const script = join(app, `example-${index}.mjs`);
    writeFileSync(script, source);
    const result = spawnSync(...untapped(process.execPath, [script]), { cwd: app, env: childEnv, encoding: 'utf8', timeout: 120_000 });
    t.equal(result.status, 0, `example ${index + 1} runs: ${result.stderr}`);
    t.ok(result.stdout.length > 0, `example ${index + 1} writes output`);
    if (index === 1) t.match(result.stdout, /^<html>\n<head>/, 'the composed chain writes the HTML asked for');
  }

  const bin = join(app, 'node_modules/pdfpipe/dist/bin/pdfpipe.js');
  const out = join(dir, 'one.html');
  const pdfextract = spawnSync(...untapped(process.execPath, [bin, 'pdfextract', '-I', 'samples/one-column.pdf', '-O', out]), { cwd: app, env: childEnv, encoding: 'utf8', timeout: 120_000 });
  t.equal(pdfextract.status, 0, pdfextract.stderr);
  t.match(readFileSync(out, 'utf8'), /<p id="page1p1"/, 'pdfextract finds its shipped config and writes HTML');
});

t.test('every run-time dependency is imported by the shipped code', async (t) => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const sources = ['bin', 'lib', 'stages']
    .flatMap((dir) => readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(repoRoot, dir, f)))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  for (const name of Object.keys(manifest.dependencies)) {
    t.ok(sources.includes(`from '${name}`) || sources.includes(`import('${name}`) || sources.includes(`resolve('${name}`), `${name} is imported`);
  }
});
