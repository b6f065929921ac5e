/**
 * What a run's main thread loads: `extract` reads every stage's option table there, and must not
 * import the stages' cores with them (franc, the bidi tables, the Thai tables, the layout and
 * paragraph code), which only the workers run. The modules are seen through a module-loading hook
 * in a child process that imports lib/run/extract.js and reads its tables.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { repoRoot, untapped } from '../../helpers.js';

/** The modules a child process loads to import `module` and run `then` (a statement over `m`). */
function modulesLoaded(module: string, then: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-start-'));
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log = '';
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + '\\n'); return next(url, context); }
`,
  );
  writeFileSync(
    join(dir, 'main.mjs'),
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });
const m = await import(${JSON.stringify(pathToFileURL(join(repoRoot, module)).href)});
${then}
`,
  );
  const run = spawnSync(...untapped(process.execPath, [join(dir, 'main.mjs')]), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** Modules that belong to the stages' cores, not to their option tables. */
const CORES = [
  /node_modules\/franc\//,
  /node_modules\/bidi-js\//,
  /\/lib\/scripts\/(thai|bidi)\.js$/,
  /\/lib\/layout\/(reading-order|lines)\.js$/,
  /\/lib\/paragraphs\/(blocks|join)\.js$/,
  /\/lib\/regions\/roles\.js$/,
  /\/lib\/lang\/(identify|document)\.js$/,
  /\/lib\/repair\/(document|segment-document)\.js$/,
];

t.test("extract's option tables load no stage core", async (t) => {
  const loaded = modulesLoaded('dist/lib/run/extract.js', 'if (m.OPTIONS.length === 0 || !m.DEFAULTS.format) process.exit(3);');
  t.ok(loaded.some((url) => url.endsWith('/stages/langid.js')), 'the stage files are loaded');
  t.same(loaded.filter((url) => CORES.some((core) => core.test(url))), [], 'no core module is');
});

t.test('a stage built loads its core and runs it', async (t) => {
  const loaded = modulesLoaded(
    'dist/stages/order.js',
    `const { Readable } = await import('node:stream');
const out = await Readable.from([]).pipe(m.order()).toArray();
if (out.length !== 0) process.exit(3);`,
  );
  t.ok(loaded.some((url) => url.endsWith('/lib/layout/reading-order.js')));
});

t.test("identification reads franc's profiles, not franc's module (which builds a table of them all as it loads), nor the whole ISO 639-3 table", async (t) => {
  const loaded = modulesLoaded('dist/lib/lang/identify.js', "if (m.francCode('The quick brown fox jumps over the lazy dog by the river bank') !== 'eng') process.exit(3);");
  t.ok(loaded.some((url) => url.endsWith('/node_modules/franc/data.js')), 'the profiles are loaded');
  t.notOk(loaded.some((url) => url.endsWith('/node_modules/franc/index.js')), "franc's own module is not");
  t.notOk(loaded.some((url) => url.endsWith('/node_modules/iso-639-3/iso6393.js')), 'nor the table of every 639-3 code');
});
