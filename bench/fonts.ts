/**
 * Font sweep benchmark: builds (or reuses) the sweep of bench/fontsweep/ — one short text per
 * script set in every suitable font by Chromium, LibreOffice Writer, XeLaTeX, Pango and pdfLaTeX —,
 * extracts it with `pdfpipe extract --blank-lines` as one process, scores it with
 * ../shared/eval/score.py and pdftotext's output on the same PDFs the same way, and prints one
 * table per script: a row per font, a column per generator.
 *
 *     npm run bench:fonts -- [OUT] [--texts a|b] [--no-build] [--keep]
 *
 * A cell reads "pdfpipe char / tokF1 (pdftotext char)"; `!` marks a cell below CHAR_FLOOR or
 * TOKF1_FLOOR or below pdftotext, `Ln` the characters of the truth found nowhere in pdfpipe's
 * output (lost text), `skip` a document its generator could not set in the font (OUT/NAME.skip
 * says why).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, PEERS_SH, ROOT, SCORE_PY, run } from './quality.js';

/** The targets of a cell: character accuracy and token F1 at or above these. */
export const CHAR_FLOOR = 0.98;
export const TOKF1_FLOOR = 0.97;
/** The column order of the generators. */
const GENERATORS = ['chromium', 'lo', 'xelatex', 'pango', 'pdflatex'] as const;
const BUILD_SH = join(ROOT, 'bench/fontsweep/build.sh');
const DEFAULT_OUT = join(ROOT, 'bench/fontsweep/out');

const USAGE = `usage: npm run bench:fonts -- [OUT] [--texts a|b] [--no-build] [--keep]

  OUT         the sweep's folder [default: bench/fontsweep/out, or out-b for --texts b]
  --texts S   the sweep's texts: a, plain prose, or b, with digits, quotation marks, brackets,
              Latin words in other scripts, ligatures, diacritics and conjuncts [default: a]
  --no-build  score the PDFs already in OUT without running bench/fontsweep/build.sh
  --keep      keep the temporary output folder and print its path
`;

interface DocScore {
  char_acc: number;
  tok_f1: number;
  missing?: boolean;
}

interface SweepDoc {
  name: string;
  sweep: string;
  font: string;
  generator: string;
}

/**
 * The truth's characters found nowhere in the output: the multiset difference of their
 * non-space characters, both NFC with format characters removed (as score.py compares them) but
 * the joiners U+200C and U+200D, which are part of a word's spelling (Persian "خانه‌ی").
 */
export function lostCharacters(truth: string, output: string): Map<string, number> {
  const counts = (text: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const ch of text.normalize('NFC').replace(/[^\P{Cf}\u200c\u200d]|\s/gu, '')) m.set(ch, (m.get(ch) ?? 0) + 1);
    return m;
  };
  const have = counts(output);
  const lost = new Map<string, number>();
  for (const [ch, n] of counts(truth)) {
    const missing = n - (have.get(ch) ?? 0);
    if (missing > 0) lost.set(ch, missing);
  }
  return lost;
}

const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

/** Per-document scores from score.py --json over the given documents. */
async function scores(truth: string, out: string, docs: readonly string[]): Promise<Record<string, DocScore>> {
  const result = await run('python3', [SCORE_PY, truth, out, '--json', '--docs', docs.join(',')]);
  if (result.code !== 0) throw new Error(`score.py failed (exit ${result.code}):\n${result.stderr}`);
  return (JSON.parse(result.stdout) as { docs: Record<string, DocScore> }).docs;
}

/** A cell of the table and whether it misses a target. */
export function cell(ours: DocScore | undefined, peer: DocScore | undefined, lost: number): { text: string; failing: boolean } {
  if (!ours) return { text: '', failing: false };
  const failing = ours.char_acc < CHAR_FLOOR || ours.tok_f1 < TOKF1_FLOOR || (peer !== undefined && ours.char_acc < peer.char_acc - 1e-9);
  const peerText = peer ? peer.char_acc.toFixed(3) : '  -  ';
  const text = `${ours.char_acc.toFixed(3)}/${ours.tok_f1.toFixed(3)} (${peerText})${failing ? '!' : ' '}${lost > 0 ? `L${lost}` : ''}`;
  return { text, failing };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      'no-build': { type: 'boolean', default: false },
      texts: { type: 'string', default: 'a' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.texts !== 'a' && values.texts !== 'b') {
    process.stderr.write(`bench:fonts: --texts is a or b, not ${values.texts}\n${USAGE}`);
    return 2;
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const sweep = positionals[0] ? resolve(base, positionals[0]) : values.texts === 'a' ? DEFAULT_OUT : `${DEFAULT_OUT}-${values.texts}`;
  if (!existsSync(SCORE_PY)) {
    process.stdout.write(`bench:fonts: ${SCORE_PY} is not there (../shared beside the repository); nothing to score.\n`);
    return 0;
  }
  if (!existsSync(CLI)) {
    process.stderr.write(`bench:fonts: ${CLI} is missing; build first (npx tsc -p .)\n`);
    return 2;
  }
  if (!values['no-build']) {
    // make.py reads the set of texts from the environment, which build.sh passes on.
    process.env.SWEEP_TEXTS = values.texts;
    const build = await run('bash', [BUILD_SH, sweep], true);
    process.stdout.write(build.stderr);
    if (build.code !== 0) return 1;
  }

  const files = await readdir(sweep);
  const docs: SweepDoc[] = [];
  const skipped = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.json')).sort()) {
    const name = file.slice(0, -'.json'.length);
    const meta = JSON.parse(await readFile(join(sweep, file), 'utf8')) as { generator: string; features: string[] };
    const feature = (prefix: string): string => meta.features.find((f) => f.startsWith(prefix))?.slice(prefix.length) ?? '?';
    docs.push({ name, sweep: feature('sweep:'), font: feature('font:'), generator: meta.generator });
    if (files.includes(`${name}.skip`)) skipped.set(name, (await readFile(join(sweep, `${name}.skip`), 'utf8')).trim());
  }
  const scored = docs.filter((d) => files.includes(`${d.name}.pdf`));

  const tmp = await mkdtemp(join(tmpdir(), 'pdfpipe-fonts-'));
  try {
    const ours = join(tmp, 'pdfpipe');
    const extract = await run(process.execPath, [CLI, 'extract', '--quiet', '--blank-lines', '--out-dir', ours, ...scored.map((d) => join(sweep, `${d.name}.pdf`))]);
    process.stdout.write(`pdfpipe extract: exit ${extract.code}, ${extract.seconds.toFixed(1)} s, ${scored.length} documents\n`);
    if (extract.code > 1) {
      process.stderr.write(extract.stderr);
      return 1;
    }
    // peers.sh reads PDF_DIR/*.pdf: the sweep folder holds exactly the scored PDFs.
    const peers = join(tmp, 'peers');
    await run('bash', [PEERS_SH, sweep, peers, 'pdftotext']);
    const names = scored.map((d) => d.name);
    const oursScores = await scores(sweep, ours, names);
    const peerScores = existsSync(join(peers, 'pdftotext')) ? await scores(sweep, join(peers, 'pdftotext'), names) : {};

    const lost = new Map<string, Map<string, number>>();
    for (const d of scored) {
      const truth = await readFile(join(sweep, `${d.name}.txt`), 'utf8');
      const output = await readFile(join(ours, `${d.name}.txt`), 'utf8').catch(() => '');
      lost.set(d.name, lostCharacters(truth, output));
    }

    const failing: string[] = [];
    for (const key of [...new Set(docs.map((d) => d.sweep))]) {
      const rows = docs.filter((d) => d.sweep === key);
      const generators = GENERATORS.filter((g) => rows.some((d) => d.generator === g));
      const fonts = [...new Set(rows.map((d) => d.font))];
      const width = Math.max(4, ...fonts.map((f) => f.length));
      process.stdout.write(`\n[${key}]\n${'font'.padEnd(width)}  ${generators.map((g) => g.padEnd(26)).join(' ')}\n`);
      for (const font of fonts) {
        const cells = generators.map((g) => {
          const d = rows.find((r) => r.font === font && r.generator === g);
          if (!d) return ''.padEnd(26);
          if (skipped.has(d.name)) return `skip: ${skipped.get(d.name)}`.slice(0, 26).padEnd(26);
          const c = cell(oursScores[d.name], peerScores[d.name], total(lost.get(d.name) ?? new Map()));
          if (c.failing) failing.push(d.name);
          return c.text.padEnd(26);
        });
        process.stdout.write(`${font.padEnd(width)}  ${cells.join(' ')}\n`);
      }
    }

    const lossy = scored.filter((d) => total(lost.get(d.name)!) > 0);
    process.stdout.write(`\nlost characters (truth characters found nowhere in the output): ${lossy.reduce((a, d) => a + total(lost.get(d.name)!), 0)} in ${lossy.length} of ${scored.length} documents\n`);
    for (const d of lossy) {
      const chars = [...lost.get(d.name)!].map(([ch, n]) => (n > 1 ? `${ch}×${n}` : ch)).join(' ');
      process.stdout.write(`  ${d.name.padEnd(44)} ${String(total(lost.get(d.name)!)).padStart(4)}  ${chars.slice(0, 80)}\n`);
    }
    process.stdout.write(`\nfailing cells (below ${CHAR_FLOOR} char or ${TOKF1_FLOOR} tokF1, or below pdftotext): ${failing.length} of ${scored.length}\n`);
    for (const [name, why] of skipped) process.stdout.write(`  skipped ${name}: ${why}\n`);
    if (values.keep) process.stdout.write(`\noutputs kept in ${tmp}\n`);
    return 0;
  } finally {
    if (!values.keep) await rm(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
