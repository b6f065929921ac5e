/**
 * arXiv benchmark: scores pdfpipe's text on the arXiv papers of ../shared/corpus/arxiv with the
 * Bast & Korzen benchmark's own evaluator (github:ckorzen/pdf-text-extraction-benchmark,
 * evaluation/bin), run through ../shared/eval/bk/setup.sh and runeval.sh with the benchmark's
 * settings. Prints its mean error counts per document and their shares, one row per pdfpipe
 * configuration (and pdftotext with --peers).
 *
 *     npm run bench:arxiv -- [--evaluator DIR] [--corpus DIR] [--run NAME=ARGS]... [--peers] [--per-doc] [--keep]
 *
 * The evaluator is not part of this repository: DIR (or env BK_EVALUATOR) is a folder holding
 * `evaluation/bin/evaluator.py`. It is copied into the temporary folder before use, because
 * setup.sh writes its truth and tool folders inside the evaluator's folder.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The repository root (this file runs as dist/bench/arxiv.js). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = resolve(ROOT, '../shared');
const BK = join(SHARED, 'eval/bk');
const SETUP_SH = join(BK, 'setup.sh');
const RUNEVAL_SH = join(BK, 'runeval.sh');
const DEFAULT_CORPUS = join(SHARED, 'corpus/arxiv');
const CLI = join(ROOT, 'dist/bin/pdfpipe.js');
/** The file inside the evaluator folder that shows it is the right one. */
const EVALUATOR_PY = 'evaluation/bin/evaluator.py';
/** The arguments every pdfpipe run gets before its own (the output folder follows). */
const BASE_ARGS = ['extract', '--quiet', '--blank-lines'] as const;

/** The evaluator's columns, in the order it prints them. */
export const COLUMNS = ['NL+', 'NL−', 'P+', 'P−', 'P↕', 'W+', 'W−', 'W~'] as const;

const HOW_TO_GET = `fetch github:ckorzen/pdf-text-extraction-benchmark and extract its evaluation/bin into DIR (see ../shared/eval/bk/README.md), then pass --evaluator DIR or set BK_EVALUATOR=DIR`;

const USAGE = `usage: npm run bench:arxiv -- [--evaluator DIR] [--corpus DIR] [--run NAME=ARGS]... [--peers] [--per-doc] [--keep]

  --evaluator DIR   folder holding ${EVALUATOR_PY} [default: env BK_EVALUATOR]
  --corpus DIR      folder of NAME.pdf + NAME.body.txt [default: ../shared/corpus/arxiv]
  --run NAME=ARGS   a pdfpipe configuration: ARGS (split on spaces) follow
                    \`pdfpipe ${BASE_ARGS.join(' ')} --out-dir TMP\`; repeatable [default: pdfpipe=]
  --peers           also score pdftotext -nopgbrk -enc UTF-8 (one process per document)
  --per-doc         also print the evaluator's per-document rows for each run
  --keep            keep the temporary folder (outputs, evaluator copy, its diffs) and print its path
`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
  /** The spawn error (e.g. ENOENT), when the command could not start. */
  error?: NodeJS.ErrnoException;
}

/** Runs a command and captures its output; a command that cannot start resolves with `error`. */
function run(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<Run> {
  const started = process.hrtime.bigint();
  const seconds = (): number => Number(process.hrtime.bigint() - started) / 1e9;
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => done({ code: 127, stdout, stderr, seconds: seconds(), error }));
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr, seconds: seconds() }));
  });
}

/** One configuration to score: a name (the evaluator's tool name) and how to produce NAME.txt. */
interface Config {
  name: string;
  /** pdfpipe's extra arguments, or null for pdftotext. */
  args: string[] | null;
}

/** Parses `NAME=ARGS` (ARGS split on spaces; empty ARGS allowed). */
export function parseRun(spec: string): Config {
  const eq = spec.indexOf('=');
  const name = eq < 0 ? spec : spec.slice(0, eq);
  if (!/^[A-Za-z0-9._-]+$/.test(name)) {
    throw new Error(`--run ${JSON.stringify(spec)}: expected NAME=ARGS with NAME of letters, digits, '.', '_' or '-'`);
  }
  const args = eq < 0 ? [] : spec.slice(eq + 1).split(' ').filter((a) => a !== '');
  return { name, args };
}

/** One cell as the evaluator prints it: the mean count per document and the share. */
export interface Cell {
  count: string;
  share: string;
}

/** The evaluator's verdict for one tool: its Total row, and each document's row. */
export interface Scores {
  total: Cell[];
  /** Per document, its cells; an empty list where the evaluator gave an error for it. */
  docs: Map<string, Cell[]>;
  /** The evaluator's `# errors:` count (documents it could not score). */
  errors: number;
}

/**
 * The cells of one row. The evaluator right-aligns a count in 6 characters and `(share%)` in 8,
 * so a wide count or share runs into the previous cell (`127(103.9%)`): the pattern does not
 * rely on spaces.
 */
function cells(text: string): Cell[] {
  return [...text.matchAll(/(\d+(?:\.\d+)?)\s*\(\s*(\d+(?:\.\d+)?%)\)/g)].map((m) => ({ count: m[1]!, share: m[2]! }));
}

/**
 * Reads runeval.sh's output: a header, a row per document as it finishes (`3/15  NAME  cells`, in
 * the order the worker processes finish, with no cells when the document failed), then
 * `Total:  cells`, then `# errors:  N`. Returns null when there is no Total row with 8 cells.
 */
export function parseEvaluation(stdout: string): Scores | null {
  let total: Cell[] | null = null;
  const docs = new Map<string, Cell[]>();
  let errors = 0;
  for (const line of stdout.split('\n')) {
    const doc = /^\d+\/\d+\s+(\S+)(.*)$/.exec(line);
    if (doc) docs.set(doc[1]!, cells(doc[2]!));
    else if (line.startsWith('Total:')) total = cells(line);
    else if (line.startsWith('# errors:')) errors = Number(line.slice('# errors:'.length).trim()) || 0;
  }
  if (!total || total.length !== COLUMNS.length) return null;
  return { total, docs, errors };
}

/** A table row in the format of ../shared/eval/bk/README.md: `| name | 6.1 (8.8%) | … | extra |`. */
function row(name: string, scores: Cell[], extra: string[]): string {
  const shown = scores.length === COLUMNS.length ? scores.map((c) => `${c.count} (${c.share})`) : COLUMNS.map(() => 'error');
  return `| ${[name, ...shown, ...extra].join(' | ')} |\n`;
}

/** Writes an empty NAME.txt for each document without output, so setup.sh (set -e) can lay them out. */
async function fillMissing(out: string, names: readonly string[]): Promise<string[]> {
  const missing = names.filter((n) => !existsSync(join(out, `${n}.txt`)));
  for (const n of missing) await writeFile(join(out, `${n}.txt`), '');
  return missing;
}

/** Runs pdfpipe with the configuration's arguments over the PDFs into `out`. */
async function extractPdfpipe(config: Config, pdfs: readonly string[], out: string): Promise<Run> {
  await mkdir(out, { recursive: true });
  return run(process.execPath, [CLI, ...BASE_ARGS, '--out-dir', out, ...(config.args ?? []), ...pdfs]);
}

/** Runs pdftotext once per PDF (as people run it) into `out`; null when it is not installed. */
async function extractPdftotext(pdfs: readonly string[], out: string): Promise<{ seconds: number; failed: number } | null> {
  const probe = await run('pdftotext', ['-v']);
  if (probe.error) return null;
  await mkdir(out, { recursive: true });
  let seconds = 0;
  let failed = 0;
  for (const pdf of pdfs) {
    const result = await run('pdftotext', ['-nopgbrk', '-enc', 'UTF-8', pdf, join(out, `${basename(pdf, '.pdf')}.txt`)]);
    seconds += result.seconds;
    if (result.code !== 0) failed++;
  }
  return { seconds, failed };
}

/** Lays out one tool's outputs in the evaluator folder and scores them. */
async function evaluate(edir: string, corpus: string, tool: string, out: string): Promise<Scores> {
  const setup = await run('bash', [SETUP_SH, edir, corpus, tool, out]);
  if (setup.code !== 0) throw new Error(`setup.sh failed for ${tool} (exit ${setup.code}):\n${setup.stderr}`);
  // The evaluator opens its files with the locale's encoding: make that UTF-8 whatever the locale.
  const result = await run('bash', [RUNEVAL_SH, edir, tool], { ...process.env, PYTHONUTF8: '1' });
  const scores = parseEvaluation(result.stdout);
  if (result.code !== 0 || !scores) {
    const tail = (result.stderr || result.stdout).trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(`runeval.sh gave no Total row for ${tool} (exit ${result.code}):\n${tail}`);
  }
  return scores;
}

/** Why the benchmark cannot run here (a missing prerequisite), or null. */
function skipReason(evaluator: string | undefined, corpus: string): string | null {
  if (!evaluator) return `no evaluator given. To get it: ${HOW_TO_GET}.`;
  if (!existsSync(join(evaluator, EVALUATOR_PY))) return `${join(evaluator, EVALUATOR_PY)} is not there. To get it: ${HOW_TO_GET}.`;
  if (!existsSync(SETUP_SH) || !existsSync(RUNEVAL_SH)) return `${BK}/setup.sh and runeval.sh are not there (../shared beside the repository).`;
  if (!existsSync(corpus)) return `no corpus folder ${corpus} (pass --corpus DIR).`;
  return null;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        evaluator: { type: 'string' },
        corpus: { type: 'string' },
        run: { type: 'string', multiple: true },
        peers: { type: 'boolean', default: false },
        'per-doc': { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    process.stderr.write(`bench:arxiv: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let configs: Config[];
  try {
    configs = (values.run ?? ['pdfpipe=']).map(parseRun);
  } catch (err) {
    process.stderr.write(`bench:arxiv: ${(err as Error).message}\n`);
    return 2;
  }
  if (values.peers) configs.push({ name: 'pdftotext', args: null });
  const names = configs.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) {
    process.stderr.write(`bench:arxiv: the name ${twice} is used twice (pdftotext is the --peers row)\n`);
    return 2;
  }

  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  const base = process.env.INIT_CWD ?? process.cwd();
  const evaluatorArg = values.evaluator ?? process.env.BK_EVALUATOR;
  const evaluator = evaluatorArg ? resolve(base, evaluatorArg) : undefined;
  const corpus = values.corpus ? resolve(base, values.corpus) : DEFAULT_CORPUS;
  const reason = skipReason(evaluator, corpus);
  if (reason) {
    process.stdout.write(`bench:arxiv: skipped: ${reason}\n`);
    return 0;
  }
  const python = await run('python3', ['--version']);
  if (python.error) {
    process.stdout.write('bench:arxiv: skipped: the evaluator needs python3 (3.x, standard library only), which is not installed.\n');
    return 0;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`bench:arxiv: ${CLI} is missing; build first (npx tsc -p .)\n`);
    return 2;
  }
  const docs = (await readdir(corpus))
    .filter((n) => n.endsWith('.body.txt'))
    .map((n) => n.slice(0, -'.body.txt'.length))
    .sort();
  const pdfs = docs.map((d) => join(corpus, `${d}.pdf`));
  const noPdf = docs.filter((_, i) => !existsSync(pdfs[i]!));
  if (docs.length === 0 || noPdf.length > 0) {
    const why = docs.length === 0 ? 'no NAME.body.txt truth files' : `no PDF for ${noPdf.join(', ')}`;
    process.stdout.write(`bench:arxiv: skipped: ${corpus} has ${why}.\n`);
    return 0;
  }

  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-arxiv-'));
  try {
    // A private copy: setup.sh writes gt/, out/TOOL/ and evaluation/tools/data/TOOL/ into it.
    const edir = join(tmp, 'evaluator');
    await cp(join(evaluator!, 'evaluation/bin'), join(edir, 'evaluation/bin'), {
      recursive: true,
      filter: (src) => basename(src) !== '__pycache__',
    });
    process.stdout.write(`${docs.length} documents of ${corpus}; evaluator ${evaluator}\n`);

    const results: { config: Config; scores: Scores; time: string }[] = [];
    for (const config of configs) {
      const out = join(tmp, 'out', config.name);
      let time: string;
      if (config.args) {
        const extract = await extractPdfpipe(config, pdfs, out);
        const shown = [...BASE_ARGS, '--out-dir', 'TMP', ...config.args].join(' ');
        // serialize reports each failed document on stderr as "pdfpipe: ID: CODE: message".
        const failures = extract.stderr.split('\n').filter((l) => /^pdfpipe: .+: [a-z-]+: /.test(l));
        process.stdout.write(`${config.name}: pdfpipe ${shown}: exit ${extract.code}, ${extract.seconds.toFixed(1)} s`);
        process.stdout.write(extract.code > 1 ? '\n' : `, ${failures.length} documents failed\n`);
        if (extract.code > 1) {
          process.stdout.write(extract.stderr.replace(/^/gm, '  ').trimEnd() + '\n  (no row for this run)\n');
          continue;
        }
        for (const failure of failures) process.stdout.write(`  ${failure}\n`);
        time = extract.seconds.toFixed(1);
      } else {
        const peer = await extractPdftotext(pdfs, out);
        if (!peer) {
          process.stdout.write('pdftotext: not installed (Debian poppler-utils); no row for it\n');
          continue;
        }
        process.stdout.write(`pdftotext: pdftotext -nopgbrk -enc UTF-8 PDF OUT.txt per document: ${peer.seconds.toFixed(1)} s, ${peer.failed} failed\n`);
        time = peer.seconds.toFixed(1);
      }
      const missing = await fillMissing(out, docs);
      if (missing.length > 0) process.stdout.write(`  no output for ${missing.join(', ')}: scored as empty\n`);
      const scores = await evaluate(edir, corpus, config.name, out);
      if (scores.errors > 0) process.stdout.write(`  the evaluator could not score ${scores.errors} documents; they are left out of its means\n`);
      results.push({ config, scores, time });
    }

    process.stdout.write(`\n| tool | ${COLUMNS.join(' | ')} | s |\n|${' --- |'.repeat(COLUMNS.length + 2)}\n`);
    for (const { config, scores, time } of results) process.stdout.write(row(config.name, scores.total, [time]));
    process.stdout.write('(mean count per document and share of truth paragraphs (NL±) or words; s: wall seconds of the extraction, pdftotext summed over its processes)\n');

    if (values['per-doc']) {
      for (const { config, scores } of results) {
        process.stdout.write(`\n${config.name}, per document:\n\n| document | ${COLUMNS.join(' | ')} |\n|${' --- |'.repeat(COLUMNS.length + 1)}\n`);
        for (const doc of docs) process.stdout.write(row(doc, scores.docs.get(doc) ?? [], []));
      }
    }
    if (values.keep) process.stdout.write(`\nkept: ${tmp} (out/NAME: outputs; evaluator/out/NAME/g: what the evaluator scored, and its diffs)\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`bench:arxiv: ${(err as Error).message}\n`);
    return 1;
  } finally {
    if (!values.keep) await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
