/**
 * The stages run as separate processes joined by pipes give byte for byte the output of
 * `extract`, which runs them in one process without the JSON round trip.
 */
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, cli, repoRoot, run, sampleNames, samplePdf, untapped } from '../helpers.js';

interface ChainResult {
  codes: (number | null)[];
  stdout: string;
  stderr: string;
}

/**
 * Runs `pdfpipe A | pdfpipe B | …` as separate processes, each one's stdout piped into the next
 * one's stdin (through this process, which is what a shell's pipe does with fewer copies).
 */
function pipeChain(commands: readonly (readonly string[])[]): Promise<ChainResult> {
  return new Promise((resolvePromise, reject) => {
    const children: ChildProcess[] = commands.map((args) =>
      spawn(...untapped(process.execPath, [cli, ...args]), { cwd: repoRoot, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    children[0]!.stdin!.end();
    children.forEach((child, i) => {
      const next = children[i + 1];
      if (next) {
        // A reader that goes away early must not crash the test with EPIPE.
        next.stdin!.on('error', () => undefined);
        child.stdout!.pipe(next.stdin!);
      }
    });
    const out: Buffer[] = [];
    let stderr = '';
    for (const child of children) child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    children.at(-1)!.stdout!.on('data', (c: Buffer) => out.push(c));
    const codes = children.map(
      (child) =>
        new Promise<number | null>((res) => {
          child.on('error', reject);
          child.on('close', (code) => res(code));
        }),
    );
    void Promise.all(codes).then((all) => resolvePromise({ codes: all, stdout: Buffer.concat(out).toString('utf8'), stderr }));
  });
}

t.test('parse | order | lines | bidi | repair | resegment | paragraphs | join | roles | langid | serialize equals extract, for all samples together and a failed document', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfpipe-pipe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A file with a PDF header and nothing else, among the samples: it fails in parse, and its
  // (empty) place in the output must be the same both ways.
  const bad = join(dir, 'bad.pdf');
  writeFileSync(bad, '%PDF-1.4\nthis is where the objects should be\n');
  const names = sampleNames.map(samplePdf);
  const files = [...names.slice(0, 2), bad, ...names.slice(2)];
  const [piped, direct] = await Promise.all([
    pipeChain([['parse', ...files], ['order'], ['lines'], ['bidi'], ['repair'], ['resegment'], ['paragraphs'], ['join'], ['roles'], ['langid'], ['serialize', '--blank-lines']]),
    run(['extract', '--blank-lines', ...files]),
  ]);
  t.same(piped.codes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'every stage of the pipe: completed, exit 0, one document failed');
  t.equal(direct.code, 0, 'extract: completed, exit 0, one document failed');
  t.match(piped.stderr, /bad: corrupt/);
  t.match(direct.stderr, /bad: corrupt/);
  t.ok(direct.stdout.length > 5000, 'there is text to compare');
  t.ok(piped.stdout === direct.stdout, 'byte-identical output');
  if (piped.stdout !== direct.stdout) t.equal(piped.stdout, direct.stdout);
});
