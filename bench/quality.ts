/**
 * Quality benchmark: extracts a folder of ground-truth PDFs with `pdfpipe extract` and scores the
 * text with ../shared/eval/score.py, optionally beside common extractors run by
 * ../shared/eval/peers.sh on the same PDFs.
 *
 *     npm run bench:quality -- [DIR] [--subset] [--peers] [--keep]
 *     npm run bench:quality -- --families [--peers]
 *
 * DIR defaults to ../shared/corpus/gt. A folder whose truth files are NAME.body.txt (the arXiv
 * corpus) is scored through a temporary folder of NAME.txt → NAME.body.txt symlinks, since score.py
 * only reads NAME.txt. `--subset` keeps the documents whose NAME.json `features` contain none of
 * SUBSET_EXCLUDES; `--peers` adds a side-by-side table of the other tools. `--families` scores every
 * corpus of bench/corpus/ (the layout families, fonts, scans) and prints a row per family.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The repository root (this file runs as dist/bench/quality.js). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = resolve(ROOT, '../shared');
export const SCORE_PY = join(SHARED, 'eval/score.py');
export const PEERS_SH = join(SHARED, 'eval/peers.sh');
const DEFAULT_DIR = join(SHARED, 'corpus/gt');
export const CLI = join(ROOT, 'dist/bin/pdfpipe.js');

/** Features that `--subset` leaves out: scripts and damage pdfpipe does not handle yet. */
export const SUBSET_EXCLUDES = ['rtl', 'thai', 'redistilled', 'no-tounicode'] as const;
/** The tools `--peers` runs (names as peers.sh knows them). */
export const PEERS = ['pdftotext', 'pdftotext-layout', 'pymupdf', 'pdfminer'] as const;

const USAGE = `usage: npm run bench:quality -- [DIR] [--subset] [--peers] [--keep]
       npm run bench:quality -- --families [--peers]

  DIR        folder of NAME.pdf + NAME.txt (or NAME.body.txt) [default: ../shared/corpus/gt]
  --subset   only documents whose NAME.json features contain none of: ${SUBSET_EXCLUDES.join(', ')}
  --peers    also run ${PEERS.join(', ')} (../shared/eval/peers.sh) and compare
  --keep     keep the temporary output folder and print its path
  --families every corpus of bench/corpus/, a row per family (char / tokF1 / paraF1), with --peers
             the peers' char / paraF1 beside it; "<" marks a cell below a peer's
`;

/** The corpora of generated documents with exact truth that ship with the repository. */
const FAMILIES_DIR = join(ROOT, 'bench/corpus');
/** The peers of the families table: one process per document, as people run them. */
const FAMILY_PEERS = ['pdftotext', 'pymupdf', 'pdfminer'] as const;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs a command; stdout is captured, or passed through when `inherit` is set. */
export function run(command: string, args: readonly string[], inherit = false): Promise<Run> {
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', inherit ? 'inherit' : 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      done({ code: code ?? 1, stdout, stderr, seconds });
    });
  });
}

/** The truth folder score.py should read: DIR itself, or a folder of NAME.txt → NAME.body.txt links. */
async function truthFolder(dir: string, tmp: string): Promise<string> {
  const names = await readdir(dir);
  const bodies = names.filter((n) => n.endsWith('.body.txt'));
  if (bodies.length === 0) return dir;
  const folder = join(tmp, 'truth');
  await mkdir(folder);
  for (const body of bodies) {
    const name = body.slice(0, -'.body.txt'.length);
    await symlink(join(dir, body), join(folder, `${name}.txt`));
    if (names.includes(`${name}.json`)) await symlink(join(dir, `${name}.json`), join(folder, `${name}.json`));
  }
  return folder;
}

/** A folder of symlinks to the given files (same names). */
async function linkFolder(folder: string, files: readonly string[]): Promise<string> {
  await mkdir(folder);
  for (const file of files) await symlink(file, join(folder, basename(file)));
  return folder;
}

/** Names of the documents whose metadata lists none of the excluded features (null: no metadata). */
async function subsetNames(dir: string): Promise<string[] | null> {
  const metas = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  if (metas.length === 0) return null;
  const keep: string[] = [];
  for (const file of metas) {
    const meta = JSON.parse(await readFile(join(dir, file), 'utf8')) as { features?: string[] };
    const features = meta.features ?? [];
    if (!SUBSET_EXCLUDES.some((f) => features.includes(f))) keep.push(file.slice(0, -'.json'.length));
  }
  return keep;
}

interface Overall {
  docs: number;
  char_acc: number | null;
  tok_f1: number | null;
  order: number | null;
  para_f1: number | null;
  missing_or_empty: number;
}

/** Runs score.py --json and returns its overall row. */
async function overallScore(truth: string, out: string, docs: string[] | null): Promise<Overall> {
  const args = [SCORE_PY, truth, out, '--json', ...(docs ? ['--docs', docs.join(',')] : [])];
  const result = await run('python3', args);
  if (result.code !== 0) throw new Error(`score.py failed (exit ${result.code}):\n${result.stderr}`);
  return (JSON.parse(result.stdout) as { overall: Overall }).overall;
}

/** Seconds per tool from peers.sh's timing.tsv (tool, docs, seconds, failures, timeouts). */
async function peerSeconds(out: string): Promise<Map<string, string>> {
  const seconds = new Map<string, string>();
  const text = await readFile(join(out, 'timing.tsv'), 'utf8').catch(() => '');
  for (const line of text.split('\n').slice(1)) {
    const [tool, , secs] = line.split('\t');
    if (tool && secs) seconds.set(tool, secs);
  }
  return seconds;
}

const fmt = (v: number | null): string => (v === null ? '     -' : v.toFixed(3).padStart(6));

/**
 * A row per corpus of bench/corpus/: pdfpipe's overall char / tokF1 / paraF1 and, with `peers`,
 * each peer's char / paraF1; a pdfpipe cell below the best peer's is marked "<".
 */
async function familiesTable(tmp: string, peers: boolean): Promise<number> {
  const families = [];
  for (const name of (await readdir(FAMILIES_DIR)).sort()) {
    const files = await readdir(join(FAMILIES_DIR, name)).catch(() => [] as string[]);
    if (files.some((f) => f.endsWith('.pdf')) && files.some((f) => f.endsWith('.txt'))) families.push(name);
  }
  const head = [`${'family'.padEnd(10)} docs  pdfpipe char / tokF1 / paraF1`, ...(peers ? FAMILY_PEERS.map((p) => `${p} char / paraF1`) : [])];
  process.stdout.write(head.join(' | ') + '\n');
  for (const family of families) {
    const dir = join(FAMILIES_DIR, family);
    const ours = join(tmp, family, 'pdfpipe');
    await run(process.execPath, [CLI, 'extract', '--quiet', '--blank-lines', '--out-dir', ours, dir]);
    const o = await overallScore(dir, ours, null);
    const others: Overall[] = [];
    if (peers) {
      await run('bash', [PEERS_SH, dir, join(tmp, family, 'peers'), ...FAMILY_PEERS]);
      for (const tool of FAMILY_PEERS) others.push(await overallScore(dir, join(tmp, family, 'peers', tool), null));
    }
    const below = (key: 'char_acc' | 'para_f1'): string => (others.some((p) => (p[key] ?? 0) > (o[key] ?? 0)) ? '<' : ' ');
    const cells = [`${family.padEnd(10)} ${String(o.docs).padStart(4)}  ${fmt(o.char_acc)}${below('char_acc')}/ ${fmt(o.tok_f1)} / ${fmt(o.para_f1)}${below('para_f1')}`];
    for (const p of others) cells.push(`${fmt(p.char_acc)} / ${fmt(p.para_f1)}`);
    process.stdout.write(cells.join(' | ') + '\n');
  }
  return 0;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      subset: { type: 'boolean', default: false },
      peers: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      families: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (values.families) {
    if (!existsSync(SCORE_PY) || !existsSync(CLI)) {
      process.stdout.write(`bench:quality: needs ${SCORE_PY} (../shared beside the repository) and ${CLI} (build first)\n`);
      return 0;
    }
    const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-families-'));
    try {
      return await familiesTable(tmp, values.peers);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = positionals[0] ? resolve(base, positionals[0]) : DEFAULT_DIR;
  if (!existsSync(SCORE_PY)) {
    process.stdout.write(`bench:quality: ${SCORE_PY} is not there (../shared beside the repository); nothing to score.\n`);
    return 0;
  }
  if (!existsSync(dir)) {
    process.stderr.write(`bench:quality: no such folder: ${dir}\n`);
    return 2;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`bench:quality: ${CLI} is missing; build first (npx tsc -p .)\n`);
    return 2;
  }

  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-quality-'));
  try {
    const truth = await truthFolder(dir, tmp);
    let docs: string[] | null = null;
    if (values.subset) {
      docs = await subsetNames(dir);
      if (docs === null) process.stdout.write(`--subset: ${dir} has no NAME.json metadata; scoring every document.\n`);
      else process.stdout.write(`--subset: ${docs.length} documents without features ${SUBSET_EXCLUDES.join(', ')}\n`);
    }

    // pdfpipe: one process over the folder (or over the subset's PDFs).
    const ours = join(tmp, 'pdfpipe');
    const inputs = docs ? docs.map((d) => join(dir, `${d}.pdf`)).filter((p) => existsSync(p)) : [dir];
    const extract = await run(process.execPath, [CLI, 'extract', '--blank-lines', '--out-dir', ours, ...inputs]);
    // serialize reports each failed document on stderr as "pdfpipe: ID: CODE: message".
    const failures = extract.stderr.split('\n').filter((l) => /^pdfpipe: .+: [a-z-]+: /.test(l)).length;
    process.stdout.write(`pdfpipe extract: exit ${extract.code}, ${extract.seconds.toFixed(1)} s, ${failures} documents failed\n`);
    if (extract.code > 1) {
      process.stderr.write(extract.stderr);
      return 1;
    }
    if (failures > 0) process.stdout.write(extract.stderr.replace(/^/gm, '  ').trimEnd() + '\n');
    if (truth !== dir) process.stdout.write('truth: NAME.body.txt files, scored as NAME.txt through symlinks\n');
    process.stdout.write('\n');

    const scoreArgs = [SCORE_PY, truth, ours, ...(docs ? ['--docs', docs.join(',')] : [])];
    const table = await run('python3', scoreArgs, true);
    if (table.code !== 0) {
      process.stderr.write(table.stderr);
      return 1;
    }

    if (values.peers) {
      const peersOut = join(tmp, 'peers');
      process.stdout.write(`\nRunning peers (${PEERS.join(', ')}); one process per document…\n`);
      // peers.sh reads PDF_DIR/*.pdf: give it only the documents being scored, so times compare.
      const pdfDir = docs ? await linkFolder(join(tmp, 'pdfs'), inputs) : dir;
      const peers = await run('bash', [PEERS_SH, pdfDir, peersOut, ...PEERS]);
      process.stdout.write(peers.stderr.replace(/^/gm, '  ').trimEnd() + '\n\n');
      const seconds = await peerSeconds(peersOut);
      const rows: [string, Overall | null, string][] = [['pdfpipe', await overallScore(truth, ours, docs), extract.seconds.toFixed(2)]];
      for (const tool of PEERS) {
        const available = existsSync(join(peersOut, tool));
        rows.push([tool, available ? await overallScore(truth, join(peersOut, tool), docs) : null, seconds.get(tool) ?? 'NA']);
      }
      process.stdout.write(`${'tool'.padEnd(18)} ${'docs'.padStart(5)} ${'char'.padStart(6)} ${'tokF1'.padStart(6)} ${'order'.padStart(6)} ${'paraF1'.padStart(6)} ${'empty'.padStart(6)} ${'time s'.padStart(7)}\n`);
      for (const [tool, o, secs] of rows) {
        if (!o) {
          process.stdout.write(`${tool.padEnd(18)} not available (see ../shared/eval/peers.sh for its Debian package)\n`);
          continue;
        }
        const cells = [fmt(o.char_acc), fmt(o.tok_f1), fmt(o.order), fmt(o.para_f1), String(o.missing_or_empty).padStart(6)];
        process.stdout.write(`${tool.padEnd(18)} ${String(o.docs).padStart(5)} ${cells.join(' ')} ${secs.padStart(7)}\n`);
      }
      process.stdout.write('(time: pdfpipe is one process for all documents; peers are one process per document)\n');
    }
    if (values.keep) process.stdout.write(`\noutputs kept in ${tmp}\n`);
    return 0;
  } finally {
    if (!values.keep) await rm(tmp, { recursive: true, force: true });
  }
}

// bench/fonts.ts imports the helpers above; main runs only when this file is the program.
if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
