/**
 * `pdfpipe pdfextract`: PDFExtract's command line (single file, batch file, log file, its
 * configuration file) giving alignment HTML per output, error HTML and log lines where PDFExtract
 * writes them.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePdfExtractArgs, readBatch } from '../../../lib/run/pdfextract.js';
import { repoRoot, run, samplePdf } from '../../helpers.js';

const fixture = join(repoRoot, 'test/fixtures/pdfextract/PDFExtract.json');

t.test("PDFExtract's flags are read as PDFExtract reads them", async (t) => {
  const args = parsePdfExtractArgs(['-B', 'b.tsv', '-L', 'run', '-T', '3', '-t', '30', '-C', 'P.json', '-K', '/k', '-S', '/s', '--keepbrtags', '--getperms', '--engine', 'pdfjs']);
  t.match(args, { batch: 'b.tsv', log: 'run', threads: 3, timeout: 30, config: 'P.json', kenlm: '/k', sentenceJoin: '/s', keepbrtags: true, getperms: true });
  t.same(args.passThrough, ['--engine', 'pdfjs'], "extract's own options pass through");
  t.throws(() => parsePdfExtractArgs(['-I', 'a.pdf']), /Invalid parameters/);
  t.throws(() => parsePdfExtractArgs(['-X', 'a']), /Unknown argument "-X"/);
  t.throws(() => parsePdfExtractArgs(['-I', '-O', 'x']), /-I needs a value/);
  t.same(readBatch('a.pdf\ta.html\n\nb.pdf\tb.html\r\nno-tab\n'), {
    pairs: [{ input: 'a.pdf', output: 'a.html' }, { input: 'b.pdf', output: 'b.html' }],
    invalid: ['no-tab'],
  });
});

t.test('a batch with a PDFExtract.json: HTML per output, error HTML for a failure, log lines in the log file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pdfextract-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const batch = join(dir, 'batch.tsv');
  const out = (name: string): string => join(dir, 'html', name);
  writeFileSync(batch, [
    `${samplePdf('one-column')}\t${out('one.html')}`,
    `${join(dir, 'missing.pdf')}\t${out('missing.html')}`,
    `${batch}\t${out('not-pdf.html')}`,
    'a line without a tab',
    `${samplePdf('hyphenated')}\t${out('hyphenated.html')}`,
    `${join(dir, 'broken.pdf')}\t${out('broken.html')}`,
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'broken.pdf'), 'this is not a PDF at all');
  const result = await run(['pdfextract', '-B', batch, '-C', fixture, '-L', join(dir, 'run'), '-T', '2', '--getperms']);
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, `Log File: ${join(dir, 'run.log')}\n`, 'with -L the log goes to the file');
  const one = readFileSync(out('one.html'), 'utf8');
  t.match(one, /^<html>\n<head>\n<defaultLang abbr="en" \/>/);
  t.match(one, /<permission isencrypted="false">/);
  t.match(one, /<p id="page1p1" lang="en"/);
  t.ok(existsSync(out('hyphenated.html')));
  t.match(readFileSync(out('missing.html'), 'utf8'), /<error>[\s\S]*Input file does not exist\./);
  t.match(readFileSync(out('not-pdf.html'), 'utf8'), /<error>[\s\S]*Input file extension is not pdf\./);
  t.match(readFileSync(out('broken.html'), 'utf8'), /^<html>\n<error>\n<code>not-a-pdf<\/code>/, 'a document the chain fails gets the error HTML');
  const log = readFileSync(join(dir, 'run.log'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  for (const row of log) t.match(row, [/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$/, /^(INFO|WARN|ERROR)$/, /./], 'date, level, message');
  const messages = log.map((row) => `${row[1]} ${row[2]}`);
  t.equal(messages[0], `WARN ${fixture}: rule common.repair[3] /\\p{Lu}*+\\s\\$/ left out: possessive quantifier *+`);
  t.ok(messages.some((m) => /^WARN rule join_words\[3\] of language "common" left out/.test(m)));
  t.ok(messages.includes(`INFO Start extract batch file: ${batch}`));
  t.ok(messages.includes(`ERROR Batch line: a line without a tab, Error: Invalid batch line: a line without a tab`));
  t.ok(messages.includes(`INFO File: ${samplePdf('one-column')}, Extract success. -> ${out('one.html')}`));
  t.ok(messages.includes(`ERROR File: ${join(dir, 'missing.pdf')}, Error: Input file does not exist.`));
  t.ok(messages.some((m) => m.startsWith(`ERROR File: ${join(dir, 'broken.pdf')}, Error: not-a-pdf: `)));
  t.equal(messages.at(-1), `INFO Finish extract batch file: ${batch}`);
});

t.test('one file with -I/-O: log lines on stdout, <br /> with --keepbrtags, the same HTML as extract', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pdfextract-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const output = join(dir, 'one.html');
  const [result, reference] = await Promise.all([
    run(['pdfextract', '-I', samplePdf('one-column'), '-O', output, '--keepbrtags']),
    run(['extract', '--quiet', '--format', 'html', '--keepbrtags', '--config', join(repoRoot, 'config/pdfextract.json'), samplePdf('one-column')]),
  ]);
  t.equal(result.code, 0, result.stderr);
  t.equal(result.stdout, `File: ${samplePdf('one-column')}, Start extract\nFile: ${samplePdf('one-column')}, Extract success. -> ${output}\n`);
  const html = readFileSync(output, 'utf8');
  t.match(html, /<br \/>/);
  t.equal(html, reference.stdout, "PDFExtract's default rules: the same as extract with config/pdfextract.json");
});

t.test('an output that cannot be written is that document\'s error: the batch goes on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pdfextract-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const batch = join(dir, 'batch.tsv');
  const log = join(dir, 'run.log');
  const tooLong = join(dir, `${'x'.repeat(300)}.html`);
  writeFileSync(batch, [
    `${samplePdf('one-column')}\t${tooLong}`,
    `${samplePdf('one-column')}\t${dir}`,
    `${join(dir, 'missing.pdf')}\t${tooLong}`,
    `${samplePdf('hyphenated')}\t${join(dir, 'hyphenated.html')}`,
  ].join('\n'));
  const result = await run(['pdfextract', '-B', batch, '-L', log]);
  t.equal(result.code, 0, `the run completes: ${result.stderr}`);
  t.ok(existsSync(join(dir, 'hyphenated.html')), 'the document after the bad outputs is written');
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  t.equal(lines.filter((l) => /\tERROR\t.*write-failed: .*ENAMETOOLONG/.test(l)).length, 2, 'a name too long: an ERROR line for the document and for the missing input\'s error HTML');
  t.equal(lines.filter((l) => /\tERROR\t.*write-failed: .*EISDIR/.test(l)).length, 1, 'a folder as the output: an ERROR line');
  t.match(lines.at(-1), /Finish extract batch file/);
});
