#!/usr/bin/env node
/** The `pdfpipe` command: dispatches to a stage's main. */
// First, so that V8's settings hold for all the code after it and for the workers (see the module).
import '../lib/run/v8-flags.js';
import { readFileSync } from 'node:fs';
import { EXIT, reportCrash, runMain } from '../lib/run/filter.js';
import { startEarlyWorker } from '../lib/run/worker-start.js';

type Command = { main: (argv: string[]) => Promise<number>; SUMMARY: string };

const COMMANDS: Record<string, () => Promise<Command>> = {
  extract: () => import('../lib/run/extract.js'),
  pdfextract: () => import('../lib/run/pdfextract.js'),
  warc: () => import('../lib/run/warc.js'),
  parse: () => import('../stages/parse.js'),
  order: () => import('../stages/order.js'),
  lines: () => import('../stages/lines.js'),
  bidi: () => import('../stages/bidi.js'),
  paragraphs: () => import('../stages/paragraphs.js'),
  serialize: () => import('../stages/serialize.js'),
  repair: () => import('../stages/repair.js'),
  resegment: () => import('../stages/resegment.js'),
  lm: () => import('../lib/lm/build.js'),
  join: () => import('../stages/join.js'),
  roles: () => import('../stages/roles.js'),
  langid: () => import('../stages/langid.js'),
  inspect: () => import('../lib/run/inspect.js'),
};

/** The commands that read PDFs in parse workers: their first worker starts before their modules load (lib/run/worker-start.ts). */
const POOL_COMMANDS = new Set(['extract', 'pdfextract', 'warc', 'parse']);

async function help(): Promise<string> {
  const rows: string[] = [];
  for (const [name, load] of Object.entries(COMMANDS)) rows.push(`  ${name.padEnd(12)} ${(await load()).SUMMARY}`);
  return `usage: pdfpipe <command> [options]   (pdfpipe <command> --help for its options)\n\ncommands:\n${rows.join('\n')}\n`;
}

// Anything thrown outside a document's own handling is a crash of pdfpipe, not a failed document.
process.on('uncaughtException', (error) => {
  reportCrash(error);
  process.exit(EXIT.crashed);
});
process.on('unhandledRejection', (error) => {
  reportCrash(error);
  process.exit(EXIT.crashed);
});

const [command, ...rest] = process.argv.slice(2);
if (command !== undefined && POOL_COMMANDS.has(command) && !rest.some((arg) => arg === '--help' || arg === '-h')) startEarlyWorker({ withStages: command !== 'parse' });
if (command === '--version' || command === '-V') {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
} else if (command === undefined) {
  // No command is a usage error: usage on stderr, so that a script's output stays clean.
  process.stderr.write(await help());
  process.exitCode = EXIT.usage;
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(await help());
} else if (!(command in COMMANDS)) {
  process.stderr.write(`pdfpipe: unknown command "${command}"\n${await help()}`);
  process.exitCode = EXIT.usage;
} else {
  await runMain((await COMMANDS[command]!()).main, rest);
}
