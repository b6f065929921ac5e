/**
 * `pdfpipe pdfextract`: PDFExtract's command line on pdfpipe's chain, for Bitextor and ParaCrawl
 * scripts that call `java -jar PDFExtract.jar`. The same flags (`-I in.pdf -O out.html`, or
 * `-B batch.tsv` of `input<TAB>output` lines), the same configuration file (`-C PDFExtract.json`:
 * its `normalize` and `repair` rules go to the repair stage, its `join_words` and `absolute_eof` to
 * join, its Java regexes translated by lib/repair/java-regex.ts), the same alignment HTML in each
 * output file, PDFExtract's error HTML in the output file of a document that fails, and
 * PDFExtract's log lines ("File: X, Start extract", "… Extract success. -> Y", "… Error: …"):
 * with `-L FILE` appended to that file as `date<TAB>INFO|ERROR<TAB>message`, otherwise on stdout.
 *
 * `-K` (KenLM's folder) and `-S` (PDFExtract's sentence-join script) name PDFExtract's own helpers:
 * they are accepted and logged as unused; pdfpipe's join stage decides joins itself. Any
 * `--option` other than PDFExtract's two is one of `pdfpipe extract`'s and passes through
 * (`--engine pdfjs`, `--join-lm FILE`).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../protocol/options.js';
import type { ErrorRecord, PdfRecord } from '../protocol/records.js';
import { documentHtml } from '../formats/html.js';
import { loadConfig } from '../repair/rules.js';
import { loadJoinRules, rejectedJoinRules } from '../paragraphs/join-rules.js';
import { DEFAULTS as EXTRACT_DEFAULTS, OPTIONS as EXTRACT_OPTIONS, extract, type ExtractOptions } from './extract.js';

/** PDFExtract's flags: those that take a value, by letter. */
const VALUE_FLAGS: Record<string, string> = {
  I: 'input',
  O: 'output',
  B: 'batch',
  L: 'log',
  T: 'threads',
  t: 'timeout',
  C: 'config',
  K: 'kenlm',
  S: 'sentenceJoin',
};

/** A PDFExtract command line, read. */
export interface PdfExtractArgs {
  input: string;
  output: string;
  batch: string;
  log: string;
  /** Documents at once; 0 when not given (one, as PDFExtract, unless `--jobs` says otherwise). */
  threads: number;
  /** Seconds per document; 0 for pdfpipe's default. */
  timeout: number;
  config: string;
  kenlm: string;
  sentenceJoin: string;
  keepbrtags: boolean;
  getperms: boolean;
  verbose: boolean;
  help: boolean;
  /** pdfpipe extract's own options, as given. */
  passThrough: string[];
}

/** The configuration PDFExtract's rules ship in, used when `-C` is not given. */
export const DEFAULT_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), '../../../config/pdfextract.json');

/** Reads PDFExtract's flags; throws UsageError on an unknown flag or a flag without its value. */
export function parsePdfExtractArgs(argv: readonly string[]): PdfExtractArgs {
  const args: PdfExtractArgs = {
    input: '', output: '', batch: '', log: '', threads: 0, timeout: 0, config: '', kenlm: '', sentenceJoin: '',
    keepbrtags: false, getperms: false, verbose: false, help: argv.length === 0, passThrough: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--keepbrtags') args.keepbrtags = true;
    else if (arg === '--getperms') args.getperms = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '-v') args.verbose = true;
    else if (arg.startsWith('--')) {
      // One of extract's options, with its value when it takes one.
      args.passThrough.push(arg);
      const spec = EXTRACT_OPTIONS.find((o) => `--${o.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` === arg);
      if (spec && spec.type !== 'boolean' && argv[i + 1] !== undefined) args.passThrough.push(argv[++i]!);
    } else if (/^-[A-Za-z]$/.test(arg) && VALUE_FLAGS[arg[1]!]) {
      const value = argv[++i];
      if (value === undefined || (value.startsWith('-') && value !== '-')) throw new UsageError(`Option ${arg} needs a value`);
      const key = VALUE_FLAGS[arg[1]!]!;
      if (key === 'threads' || key === 'timeout') {
        const n = Number(value);
        if (!(n >= 0) || (key === 'threads' && !Number.isInteger(n))) throw new UsageError(`Option ${arg} expects a number, got "${value}"`);
        args[key] = n;
      } else (args as unknown as Record<string, string>)[key] = value;
    } else {
      throw new UsageError(`Unknown argument "${arg}", expected PDFExtract's -I -O -B -L -T -t -C -K -S -v --keepbrtags --getperms`);
    }
  }
  if (!args.help && !(args.input && args.output) && !args.batch) {
    throw new UsageError('Cannot start extract: Invalid parameters. Give -I input.pdf -O output.html, or -B batch.tsv');
  }
  return args;
}

/** The (input, output) pairs of a batch file: a line each, tab-separated; blank lines skipped; a line without a tab is a problem. */
export function readBatch(text: string): { pairs: { input: string; output: string }[]; invalid: string[] } {
  const pairs: { input: string; output: string }[] = [];
  const invalid: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const cols = line.split('\t');
    if (cols.length < 2 || !cols[0] || !cols[1]) invalid.push(line);
    else pairs.push({ input: cols[0], output: cols[1] });
  }
  return { pairs, invalid };
}

/** PDFExtract's log: `-L FILE` gets `date<TAB>LEVEL<TAB>message` lines (".log" added to a name without extension), stdout otherwise. */
export class PdfExtractLog {
  readonly path: string;
  constructor(path: string, private readonly echo: boolean) {
    this.path = path && !extname(path) ? `${path}.log` : path;
    if (this.path) mkdirSync(dirname(resolve(this.path)), { recursive: true });
  }

  write(level: 'INFO' | 'WARN' | 'ERROR', message: string, file = ''): void {
    const text = file ? `File: ${file}, ${message}` : message;
    if (!this.path || this.echo) process.stdout.write(`${text}\n`);
    if (this.path) appendFileSync(this.path, `${timestamp(new Date())}\t${level}\t${text}\n`);
  }
}

/** Java's `yyyy-MM-dd HH:mm:ss.S` in local time. */
function timestamp(d: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${d.getMilliseconds()}`;
}

/** Writes a file, making its folder. */
/**
 * Writes a document's HTML to its output path, making its folder. Returns why it could not (a
 * name too long, a folder where the file should be, no permission), or null: one output that
 * cannot be written is that document's error, never the end of the batch.
 */
function writeOutput(path: string, body: string): string | null {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(path, body);
    return null;
  } catch (error) {
    return `write-failed: Output file cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

export const USAGE = 'pdfpipe pdfextract -I input.pdf -O output.html | -B batch.tsv  [-L log] [-T threads] [-t timeout] [-C PDFExtract.json] [--keepbrtags] [--getperms]';
export const SUMMARY = "PDFExtract's command line: its flags, PDFExtract.json, alignment HTML per output file, its log lines.";

const HELP = `usage: ${USAGE}

${SUMMARY}

  -I FILE        input PDF
  -O FILE        output HTML
  -B FILE        batch file: input<TAB>output a line
  -L FILE        append log lines to FILE (".log" added without an extension); default stdout
  -T N           documents at once (default 1)
  -t SECONDS     time limit per document (default ${EXTRACT_DEFAULTS.timeout})
  -C FILE        PDFExtract.json: normalize/repair rules and join_words/absolute_eof (Java regexes)
                 (default: config/pdfextract.json, PDFExtract's own rules)
  -K DIR, -S FILE  PDFExtract's KenLM folder and sentence-join script: accepted, not used
  -v             log lines also on stdout when -L is given
  --keepbrtags   <br /> after each line
  --getperms     the PDF's permissions in the head
  --OPTION ...   any option of pdfpipe extract (pdfpipe extract --help)
`;

/** The command line. Returns 0 when the run completed (documents that failed have their error HTML and log line). */
export async function main(argv: string[]): Promise<number> {
  const args = parsePdfExtractArgs(argv);
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = args.config || DEFAULT_CONFIG;
  if (!existsSync(config)) throw new UsageError(`cannot read config ${config}`);
  const { options: extra } = parseArgs(args.passThrough, EXTRACT_OPTIONS, {} as Partial<ExtractOptions>);
  const options: Partial<ExtractOptions> = {
    ...extra,
    format: 'html',
    keepbrtags: args.keepbrtags,
    getperms: args.getperms,
    config,
    jobs: args.threads || extra.jobs || 1,
    ...(args.timeout > 0 ? { timeout: args.timeout } : {}),
  };
  // PDFExtract.json holds the join rules too; pdfpipe's own config file has none.
  if (args.config) options.joinRules = args.config;
  const log = new PdfExtractLog(args.log, args.verbose);
  if (log.path) process.stdout.write(`Log File: ${log.path}\n`);
  for (const message of [...loadConfig(config).rejected, ...(args.config ? rejectedJoinRules(loadJoinRules(args.config)) : [])]) {
    log.write('WARN', message);
  }
  if (args.kenlm) log.write('INFO', `-K ${args.kenlm}: not used (pdfpipe's join stage decides joins itself)`);
  if (args.sentenceJoin) log.write('INFO', `-S ${args.sentenceJoin}: not used (pdfpipe's join stage decides joins itself)`);

  let pairs: { input: string; output: string }[];
  if (args.input && args.output) pairs = [{ input: args.input, output: args.output }];
  else {
    log.write('INFO', `Start extract batch file: ${args.batch}`);
    if (!existsSync(args.batch)) {
      log.write('ERROR', 'Input batch file does not exist.');
      log.write('INFO', `Finish extract batch file: ${args.batch}`);
      return 0;
    }
    const batch = readBatch(readFileSync(args.batch, 'utf8'));
    for (const line of batch.invalid) log.write('ERROR', `Batch line: ${line}, Error: Invalid batch line: ${line}`);
    pairs = batch.pairs;
  }

  const htmlOptions = { ...EXTRACT_DEFAULTS, ...options };
  const fail = (index: number, code: ErrorRecord['code'], message: string): void => {
    const { input, output } = pairs[index]!;
    const unwritten = writeOutput(output, documentHtml(null, [], { type: 'error', doc: String(index), code, message, stage: 'pdfextract' }, htmlOptions));
    log.write('ERROR', `Error: ${message}${unwritten ? `; ${unwritten} (${output})` : ''}`, input);
  };
  const records: PdfRecord[] = [];
  pairs.forEach(({ input }, index) => {
    log.write('INFO', 'Start extract', input);
    if (!existsSync(input)) fail(index, 'not-found', 'Input file does not exist.');
    else if (extname(input).toLowerCase() !== '.pdf') fail(index, 'not-a-pdf', 'Input file extension is not pdf.');
    else records.push({ type: 'pdf', id: String(index), path: input });
  });
  if (records.length > 0) {
    for await (const document of extract(records, options)) {
      const { input, output } = pairs[Number(document.id)]!;
      const unwritten = writeOutput(output, document.output);
      if (unwritten) log.write('ERROR', `Error: ${unwritten} (${output})`, input);
      else if (document.outcome.type === 'end') log.write('INFO', `Extract success. -> ${output}`, input);
      else log.write('ERROR', `Error: ${document.outcome.code}: ${document.outcome.message}`, input);
    }
  }
  if (args.batch && !args.input) log.write('INFO', `Finish extract batch file: ${args.batch}`);
  return 0;
}
