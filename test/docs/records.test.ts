/**
 * docs/records.md's shell examples run as written after the README's set-up: every command is
 * `npx pdfpipe …` (a bare `pdfpipe` is not on PATH after `npm ci`), and each one succeeds and
 * writes something. `npx pdfpipe` is run as the built CLI it resolves to, without npm's start-up.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, cli, repoRoot, untapped } from '../helpers.js';

const doc = readFileSync(join(repoRoot, 'docs/records.md'), 'utf8');
/** The command lines of the ```sh blocks (indented ones too), comments left out. */
const commands = [...doc.matchAll(/^( *)```sh\n([\s\S]*?)^\1```/gm)]
  .flatMap((m) => m[2]!.split('\n'))
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

t.test('every command calls the CLI as the README set-up provides it', async (t) => {
  t.ok(commands.length >= 8, `${commands.length} commands`);
  for (const command of commands) {
    t.notMatch(command.replace(/npx pdfpipe/g, ''), /(^|[|;(]\s*)pdfpipe\b/, `no bare pdfpipe: ${command}`);
  }
});

t.test('every command runs', async (t) => {
  for (const command of commands) {
    const script = command.replace(/npx pdfpipe/g, `node ${cli}`);
    const result = spawnSync(...untapped('bash', ['-c', script]), { cwd: repoRoot, env: childEnv, encoding: 'utf8', timeout: 120_000 });
    t.equal(result.status, 0, `${command}: ${result.stderr.slice(0, 300)}`);
    t.ok(result.stdout.length > 0, `${command} writes output`);
  }
});
