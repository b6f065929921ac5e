/**
 * Join rules in the format of PDFExtract's configuration file: per language (`name`, with `common`
 * applying to all), `join_words` as [left regex, right regex, joiner] and `absolute_eof` as
 * [left regex, right regex]. Regexes are Java's, translated (lib/repair/java-regex.ts). A regex must match the whole left or right text (as Java's
 * `String.matches` does); an empty regex matches anything, and a rule with both sides empty never
 * fires. Unlike PDFExtract, which parses the per-language sets but applies only `common`, the set
 * of the pair's language is applied first, then `common`.
 */
import { readFileSync } from 'node:fs';
import { JavaRegexError, translateJavaRegex } from '../repair/java-regex.js';

/** Never join when both sides match. */
export interface EofRule {
  name: string;
  left: RegExp | null;
  right: RegExp | null;
}

/** Join with `joiner` when both sides match. */
export interface JoinWordRule extends EofRule {
  joiner: string;
}

export interface LanguageRules {
  joinWords: JoinWordRule[];
  absoluteEof: EofRule[];
}

/** Rules by language code; `common` applies to every language. */
export type JoinRules = Map<string, LanguageRules>;

/** A configuration that cannot be used: not JSON, wrong shape, or a regex that does not compile. */
export class JoinConfigError extends Error {
  override name = 'JoinConfigError';
}

type RawRule = unknown[];
interface RawLanguage {
  name?: unknown;
  config?: { join_words?: unknown; join_word?: unknown; absolute_eof?: unknown };
}

/** The rules a configuration held that could not be translated from Java's dialect, by configuration. */
const REJECTED = new WeakMap<JoinRules, string[]>();

/** Messages naming each rule of the configuration that was left out (its regex has no JavaScript form). */
export function rejectedJoinRules(rules: JoinRules): readonly string[] {
  return REJECTED.get(rules) ?? [];
}

/** A Java regex (lib/repair/java-regex.ts) made to match a whole side; '' is null (matches anything). */
function compile(source: unknown, where: string): RegExp | null {
  if (typeof source !== 'string') throw new JoinConfigError(`Unexpected ${typeof source} in ${where}, expected a regex string`);
  if (source === '') return null;
  const { source: js, flags } = translateJavaRegex(source);
  return new RegExp(`^(?:${js})$`, `${flags.includes('s') ? flags : `${flags}s`}u`);
}

function rulesOf(list: unknown, key: string, language: string, withJoiner: boolean, rejected: string[]): (EofRule | JoinWordRule)[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new JoinConfigError(`Unexpected ${key} of language "${language}" that is not an array`);
  const rules: (EofRule | JoinWordRule)[] = [];
  list.forEach((raw: RawRule, index) => {
    const where = `${key}[${index}] of language "${language}"`;
    if (!Array.isArray(raw) || raw.length < (withJoiner ? 3 : 2)) {
      throw new JoinConfigError(`Unexpected rule ${where}, expected [left, right${withJoiner ? ', joiner' : ''}]`);
    }
    let rule: EofRule;
    try {
      rule = { name: `${language}:${key}[${index}]`, left: compile(raw[0], where), right: compile(raw[1], where) };
    } catch (error) {
      if (!(error instanceof JavaRegexError)) throw error;
      rejected.push(`rule ${where} left out: ${error.message}`);
      return;
    }
    if (!withJoiner) return void rules.push(rule);
    if (typeof raw[2] !== 'string') throw new JoinConfigError(`Unexpected joiner in ${where}, expected a string`);
    rules.push({ ...rule, joiner: raw[2] });
  });
  return rules;
}

/**
 * Parses a configuration object (PDFExtract.json's shape: `{language: [{name, config}]}`). A rule
 * whose regex has no JavaScript form is left out and named in `rejectedJoinRules`.
 */
export function parseJoinRules(value: unknown): JoinRules {
  const languages = (value as { language?: unknown } | null)?.language;
  if (!Array.isArray(languages)) throw new JoinConfigError('Unexpected configuration without a `language` array');
  const rules: JoinRules = new Map();
  const rejected: string[] = [];
  for (const entry of languages as RawLanguage[]) {
    if (typeof entry?.name !== 'string') throw new JoinConfigError('Unexpected language entry without a string `name`');
    const config = entry.config ?? {};
    const joinWords = rulesOf(config.join_words ?? config.join_word, 'join_words', entry.name, true, rejected) as JoinWordRule[];
    const absoluteEof = rulesOf(config.absolute_eof, 'absolute_eof', entry.name, false, rejected);
    const previous = rules.get(entry.name);
    rules.set(entry.name, {
      joinWords: [...(previous?.joinWords ?? []), ...joinWords],
      absoluteEof: [...(previous?.absoluteEof ?? []), ...absoluteEof],
    });
  }
  if (rejected.length > 0) REJECTED.set(rules, rejected);
  return rules;
}

/** Reads and parses a configuration file; every failure names the file and the rule. */
export function loadJoinRules(path: string): JoinRules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new JoinConfigError(`Cannot read join rules ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JoinConfigError(`Join rules ${path} are not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseJoinRules(value);
  } catch (error) {
    throw new JoinConfigError(`${path}: ${(error as Error).message}`);
  }
}

function fires(rule: EofRule, left: string, right: string): boolean {
  if (rule.left === null && rule.right === null) return false;
  return (rule.left === null || rule.left.test(left)) && (rule.right === null || rule.right.test(right));
}

/** What the rules say about joining `left` and `right`: a join, a forbidden join, or nothing. */
export type RuleVerdict = { join: true; joiner: string; rule: string } | { join: false; rule: string } | null;

/**
 * Applies the rules of `lang` then `common`: the first `absolute_eof` that fires forbids the join;
 * otherwise the first `join_words` rule that fires joins.
 */
export function applyJoinRules(rules: JoinRules, lang: string, left: string, right: string): RuleVerdict {
  const sets = [rules.get(lang), rules.get('common')].filter((s): s is LanguageRules => s !== undefined && lang !== 'common');
  if (lang === 'common' && rules.get('common')) sets.push(rules.get('common')!);
  for (const set of sets) for (const rule of set.absoluteEof) if (fires(rule, left, right)) return { join: false, rule: rule.name };
  for (const set of sets) for (const rule of set.joinWords) if (fires(rule, left, right)) return { join: true, joiner: rule.joiner, rule: rule.name };
  return null;
}

/**
 * pdfpipe's own default rules, in the configuration format. `common`: a break after `?`/`!` or
 * before a bullet is a sentence end; a trailing comma, semicolon, colon or ampersand continues.
 * Per language: the sentence-final marks of scripts that do not use `.`/`?`/`!`, German nouns
 * (capitalised words) after an article or preposition, the Greek question mark.
 */
export const DEFAULT_RULES_CONFIG = {
  language: [
    {
      name: 'common',
      config: {
        join_words: [
          ['.*[,;&]', '', ' '],
          ['.*[a-z\\u00df-\\u00ff]-', '[a-z\\u00df-\\u00ff].*', ''],
        ],
        absolute_eof: [
          ['.*[?!][\'"\\u201d\\u00bb]?', ''],
          ['', '[\\u2022\\u25cf\\u25aa\\u2013\\u2014*].*'],
        ],
      },
    },
    { name: 'ar', config: { absolute_eof: [['.*[\\u061f\\u06d4]', '']] } },
    { name: 'fa', config: { absolute_eof: [['.*[\\u061f\\u06d4]', '']] } },
    { name: 'hi', config: { absolute_eof: [['.*[\\u0964\\u0965]', '']] } },
    { name: 'zh', config: { absolute_eof: [['.*[\\u3002\\uff01\\uff1f]', '']] } },
    { name: 'ja', config: { absolute_eof: [['.*[\\u3002\\uff01\\uff1f]', '']] } },
    { name: 'el', config: { absolute_eof: [['.*[;\\u037e]', '']] } },
    {
      name: 'de',
      config: {
        join_words: [
          [
            '.*\\s(der|die|das|des|dem|den|ein|eine|einer|eines|einem|einen|und|oder|von|vom|zu|zum|zur|mit|f\u00fcr|auf|im|am|bei|nach|\u00fcber|unter|durch|gegen|ohne|um|aus|vor|seiner|ihrer|jeder|jede|jedes|aller|keine)',
            '[A-Z\\u00c4\\u00d6\\u00dc][a-z\\u00df-\\u00ff]+(\\s.*)?',
            ' ',
          ],
        ],
      },
    },
  ],
};

/** The default rules, compiled. */
export function defaultJoinRules(): JoinRules {
  return parseJoinRules(DEFAULT_RULES_CONFIG);
}
