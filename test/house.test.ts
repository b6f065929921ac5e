/**
 * The shape of the source tree, read from the TypeScript sources: stages are independent filters
 * over the record protocol, the library never reaches back into a stage (but for the two modules
 * that compose the chain), no module imports itself through others, and every file stays a short
 * read. These rules are what let a stage run alone as a Unix filter and a newcomer find the room
 * where a change belongs.
 */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from './helpers.js';

/** Longest stage file: its doc comment, options, adapter and the calls into its core. */
const STAGE_MAX_LINES = 300;
/** Longest library file. */
const LIB_MAX_LINES = 600;
/** The library modules that compose the chain of stages, and so may import them. */
const COMPOSERS = new Set(['lib/index.ts', 'lib/run/extract.ts', 'lib/run/chain.ts']);

function sources(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repoRoot, folder))) {
    const path = join(folder, name);
    if (statSync(join(repoRoot, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s+'(\.{1,2}\/[^']+)\.js'|import\(\s*'(\.{1,2}\/[^']+)\.js'\s*\)/g;

/** Each source file's relative imports (static, type-only and dynamic), as repository paths. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? '';
      targets.push(relative(repoRoot, resolve(repoRoot, dirname(file), `${spec}.ts`)));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph, one path each, found by depth-first search. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

const files = [...sources('lib'), ...sources('stages'), ...sources('bin')];
const graph = importGraph(files);

t.test('the tree is where the rules below expect it', async (t) => {
  t.ok(files.filter((f) => f.startsWith('stages/')).length >= 10, 'the ten stages are found');
  t.ok(graph.get('lib/run/extract.ts')?.some((f) => f.startsWith('stages/')), 'imports are read (extract composes the stages)');
});

t.test('no module imports itself through others', async (t) => {
  t.same(cycles(graph), []);
});

t.test('no stage imports another stage', async (t) => {
  for (const [file, targets] of graph) {
    if (!file.startsWith('stages/')) continue;
    t.same(targets.filter((f) => f.startsWith('stages/')), [], file);
  }
});

t.test('the library imports no stage, but where it composes the chain', async (t) => {
  for (const [file, targets] of graph) {
    if (!file.startsWith('lib/') || COMPOSERS.has(file)) continue;
    t.same(targets.filter((f) => f.startsWith('stages/')), [], file);
  }
});

t.test('every file is a short read', async (t) => {
  const tooLong = files.flatMap((file) => {
    const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n').length - 1;
    const limit = file.startsWith('stages/') ? STAGE_MAX_LINES : LIB_MAX_LINES;
    return lines > limit ? [`${file}: ${lines} lines, more than ${limit}`] : [];
  });
  t.same(tooLong, []);
});
