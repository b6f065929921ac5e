/**
 * The option table every stage and command shares: it parses argv and writes `--help`, with the
 * defaults read from the stage's own DEFAULTS, so a stage declares its options once.
 */

/** One command-line option of a stage. */
export interface OptionSpec {
  /** The option's key in the stage's options object (camelCase); the flag is its kebab-case. */
  key: string;
  type: 'boolean' | 'number' | 'string';
  description: string;
  choices?: readonly string[];
  /** Lower bound for numbers. */
  min?: number;
  /** Upper bound for numbers. */
  max?: number;
  /** Single-dash forms (`q` for `-q`; `upw` for pdftotext's `-upw`). */
  short?: readonly string[];
}

/** A usage error: wrong option, wrong value. The CLI exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Options every command takes, whatever its stage: how the exit status reports failed documents.
 * The command runner (lib/run/filter.ts, `runMain`) reads them; every `--help` lists them.
 */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { key: 'failOn', type: 'string', choices: ['none', 'error'], description: 'exit status when the run completed but some documents failed: none → 0 (they are in the outcome records and the summary), error → 1' },
];

/** The defaults of `COMMON_OPTIONS`. */
export const COMMON_DEFAULTS = { failOn: 'none' as 'none' | 'error' };

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Parses argv against the option table; unknown options and bad values throw UsageError. */
export function parseArgs<T extends object>(
  argv: readonly string[],
  specs: readonly OptionSpec[],
  defaults: T,
): { options: T; positionals: string[]; help: boolean } {
  const options: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  const positionals: string[] = [];
  let help = false;
  const byFlag = new Map([...COMMON_OPTIONS, ...specs].map((s) => [kebab(s.key), s]));
  const byShort = new Map(specs.flatMap((s) => (s.short ?? []).map((short) => [short, s] as const)));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let flag: string;
    let inline: string | undefined;
    let spec: OptionSpec | undefined;
    if (!arg.startsWith('--')) {
      // A single dash: a short form (`-q`, `-j 2`, pdftotext's `-upw`), never an input file.
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new UsageError(`Unknown option ${arg} (a file whose name starts with - goes after --, or as ./${arg})`);
      flag = kebab(spec.key);
    } else {
      [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      spec = byFlag.get(flag);
    }
    let negated = false;
    if (!spec && flag.startsWith('no-')) {
      spec = byFlag.get(flag.slice(3));
      negated = spec?.type === 'boolean';
      if (!negated) spec = undefined;
    }
    if (!spec) throw new UsageError(`Unknown option --${flag}`);
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`Option --${flag} takes no value`);
      options[spec.key] = !negated;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`Option --${flag} needs a value`);
    if (spec.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`Option --${flag} expects a number, got "${value}"`);
      if (spec.min !== undefined && n < spec.min) throw new UsageError(`Option --${flag} must be at least ${spec.min}, got ${n}`);
      if (spec.max !== undefined && n > spec.max) throw new UsageError(`Option --${flag} must be at most ${spec.max}, got ${n}`);
      options[spec.key] = n;
    } else {
      if (spec.choices && !spec.choices.includes(value)) {
        throw new UsageError(`Option --${flag} expects one of ${spec.choices.join(', ')}, got "${value}"`);
      }
      options[spec.key] = value;
    }
  }
  return { options: options as T, positionals, help };
}

/** Writes the help text of a stage from its option table and defaults. */
export function helpText(usage: string, summary: string, specs: readonly OptionSpec[], defaults: object): string {
  const values = defaults as Record<string, unknown>;
  const rows = [...specs, ...COMMON_OPTIONS.filter((c) => !specs.some((s) => s.key === c.key))].map((s) => {
    const shorts = (s.short ?? []).map((short) => `-${short}, `).join('');
    const long = s.type === 'boolean' ? `--[no-]${kebab(s.key)}` : `--${kebab(s.key)}`;
    const flag = `${shorts}${long}${s.type === 'boolean' ? '' : s.type === 'number' ? ' N' : ' VALUE'}`;
    const choices = s.choices ? ` (${s.choices.join('|')})` : '';
    const value = values[s.key] ?? (COMMON_DEFAULTS as Record<string, unknown>)[s.key];
    const shown = value === undefined || value === null || value === '' ? '' : ` [default: ${String(value)}]`;
    return `  ${flag.padEnd(24)} ${s.description}${choices}${shown}`;
  });
  return `usage: ${usage}\n\n${summary}\n\noptions:\n${rows.join('\n')}\n  ${'-h, --help'.padEnd(24)} show this help\n`;
}
