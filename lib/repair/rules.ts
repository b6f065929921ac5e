/**
 * The configurable search/replace rules of the repair stage, in the format of PDFExtract.json:
 * `{"language": [{"name": "common", "config": {"normalize": [[regex, replace]], "repair": [...]}}]}`,
 * plus `"rules": {name: false}` to switch off a built-in rule. Reading a config, and applying a
 * list of rules to a line.
 */
import { readFileSync } from 'node:fs';
import type { Rewriter } from './rewrite.js';
import { JavaRegexError, translateJavaRegex } from './java-regex.js';

/** One search/replace rule; `$1` in the replacement is a capture group. */
export interface Rule {
  name: string;
  search: RegExp;
  replace: string;
}

/** The rules of one language: `normalize` runs before the built-in rules, `repair` after them. */
export interface RuleSet {
  normalize: Rule[];
  repair: Rule[];
}

/** Rules by language name ('common' applies to every document). */
export type RepairConfig = Map<string, RuleSet>;

/** Built-in rules that a config may switch off by name (`"rules": {"ligature-space": false}`). */
export const BUILTIN_RULES = [
  'mojibake', 'shifted-encoding', 'ligature-space', 'ligature-swallowed', 'lost-soft-hyphen', 'arabic-presentation', 'arabic-allah',
  'tatweel', 'hebrew-presentation', 'thai-pua', 'thai-space-before-aa', 'thai-nikhahit-aa', 'thai-sara-e-e',
  'thai-am-aa', 'thai-mark-order', 'thai-missing-mark', 'thai-wrong-mark', 'nul', 'thai-sara-am-lexicon', 'thai-split-word', 'thai-reattach-mark',
  'devanagari-short-i', 'devanagari-reph', 'devanagari-two-part-vowel', 'bengali-pre-base-vowel', 'bengali-reph', 'bengali-ya-phala',
  'bengali-two-part-vowel', 'indic-nasal-order', 'indic-sign-after-danda', 'persian-yeh-kaf', 'cjk-radical', 'greek-capital-accent',
] as const;

/** The default rules, as a config file would give them. */
export const DEFAULT_CONFIG_SOURCE = {
  language: [
    {
      name: 'common',
      config: {
        normalize: [
          ['[\\uFB00-\\uFB06\\uFB13-\\uFB17\\u0132\\u0133\\u013F\\u0140\\u0149\\u01C4-\\u01CC\\u01F1-\\u01F3]', '$nfkc', 'ligature'],
          ['[\\u00A0\\u2000-\\u200A\\u202F\\u205F]', ' ', 'space'],
          ['(?<=\\p{L})\\u00AD(?=\\p{L})', '', 'soft-hyphen'],
        ],
        repair: [],
      },
    },
  ],
};

/** A config as read: its rules, the built-in rules it switches off, and the rules it had to leave out. */
export interface LoadedConfig {
  rules: RepairConfig;
  disabled: Set<string>;
  /** One message per rule whose Java regex has no JavaScript form; the other rules still apply. */
  rejected: string[];
}

/**
 * Reads a config in PDFExtract.json's format. Rules are `[search, replace]` or `[search, replace,
 * name]`, the search a Java regex (translated by ./java-regex.ts); the replacement `$nfkc` applies
 * NFKC to the match. A rule that cannot be translated is left out and named in `rejected`; a config
 * of the wrong shape throws an Error naming the rule or key.
 */
export function parseConfig(source: unknown, file = 'config'): LoadedConfig {
  const rules: RepairConfig = new Map();
  const rejected: string[] = [];
  const disabled = new Set<string>();
  if (typeof source !== 'object' || source === null) throw new Error(`${file}: expected a JSON object`);
  const root = source as { language?: unknown; rules?: unknown };
  if (root.rules !== undefined) {
    if (typeof root.rules !== 'object' || root.rules === null) throw new Error(`${file}: "rules" must be an object of rule names`);
    for (const [name, on] of Object.entries(root.rules)) {
      if (!(BUILTIN_RULES as readonly string[]).includes(name)) {
        throw new Error(`${file}: unknown rule "${name}", expected one of ${BUILTIN_RULES.join(', ')}`);
      }
      if (on === false) disabled.add(name);
    }
  }
  const languages = root.language ?? [];
  if (!Array.isArray(languages)) throw new Error(`${file}: "language" must be a list`);
  for (const entry of languages as { name?: unknown; config?: Record<string, unknown> }[]) {
    if (typeof entry?.name !== 'string') throw new Error(`${file}: a language entry without "name"`);
    const set: RuleSet = rules.get(entry.name) ?? { normalize: [], repair: [] };
    for (const kind of ['normalize', 'repair'] as const) {
      const list = entry.config?.[kind] ?? [];
      if (!Array.isArray(list)) throw new Error(`${file}: ${entry.name}.${kind} must be a list`);
      list.forEach((rule: unknown, i: number) => {
        const name = Array.isArray(rule) && typeof rule[2] === 'string' ? rule[2] : `${entry.name}.${kind}[${i}]`;
        if (!Array.isArray(rule) || typeof rule[0] !== 'string' || typeof rule[1] !== 'string') {
          throw new Error(`${file}: rule ${name} must be [search, replace]`);
        }
        let search: RegExp;
        try {
          const { source: js, flags } = translateJavaRegex(rule[0]);
          search = new RegExp(js, `${flags}gu`);
        } catch (error) {
          if (!(error instanceof JavaRegexError)) throw error;
          rejected.push(`${file}: rule ${name} /${rule[0]}/ left out: ${error.message}`);
          return;
        }
        set[kind].push({ name, search, replace: rule[1] });
      });
    }
    rules.set(entry.name, set);
  }
  return { rules, disabled, rejected };
}

/** Loads a config file (or the defaults for ''), throwing an Error that names the file. */
export function loadConfig(path: string): LoadedConfig {
  if (path === '') return parseConfig(DEFAULT_CONFIG_SOURCE, 'default rules');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(json, path);
}

/** A replacement with `$1`…`$9` and `$&` filled in from the match, as PDFExtract (Java) writes them. */
function expand(replacement: string, m: RegExpExecArray): string {
  return replacement.replace(/\$(\d|&)/g, (_all, g: string) => (g === '&' ? m[0] : m[Number(g)] ?? ''));
}

/** Applies rules in order to a line, each change counted under the rule's name. */
export function applyRules(line: Rewriter, rules: readonly Rule[]): void {
  for (const rule of rules) {
    line.replace(rule.search, (m) => (rule.replace === '$nfkc' ? m[0].normalize('NFKC') : expand(rule.replace, m)), rule.name);
  }
}
