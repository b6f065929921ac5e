/**
 * Java regular expressions (java.util.regex, the dialect of PDFExtract.json's rules) translated to
 * JavaScript's `u` mode, construct by construct, so that a configuration written for PDFExtract
 * means the same here. Java is lenient where `u` mode is strict: it allows any punctuation to be
 * escaped (`\,` `\;`), a lone `]` or `}`, and it has constructs JavaScript lacks. What has an exact
 * equivalent is rewritten; what has none (possessive quantifiers, atomic groups, class
 * intersection, embedded flags inside the pattern, Unicode blocks) is refused with a
 * `JavaRegexError` that says which construct, so the caller can drop that one rule and go on.
 *
 * Java's `\s` is ASCII whitespace, `[ \t\n\x0B\f\r]`, where JavaScript's also takes NBSP and the
 * other Unicode spaces: it is spelled out, so that a rule does not eat spaces PDFExtract kept.
 */

/** A construct with no JavaScript equivalent, or a pattern that does not compile. */
export class JavaRegexError extends Error {
  override name = 'JavaRegexError';
}

/** A translated pattern: its source for `new RegExp` and the flags its leading `(?i)` etc. asked for. */
export interface TranslatedRegex {
  source: string;
  flags: string;
}

const JAVA_SPACE = '\\t\\n\\x0B\\f\\r ';

/** Java's POSIX classes (ASCII, as Java has them without UNICODE_CHARACTER_CLASS), as class members. */
const POSIX: Record<string, string> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: JAVA_SPACE,
};

/** Java's `java.lang.Character` classes, as JavaScript properties. */
const JAVA_CHARACTER: Record<string, string> = {
  javaLowerCase: '\\p{Lowercase}',
  javaUpperCase: '\\p{Uppercase}',
  javaWhitespace: '\\p{White_Space}',
  javaMirrored: '\\p{Bidi_Mirrored}',
  javaLetter: '\\p{L}',
  javaDigit: '\\p{Nd}',
  javaLetterOrDigit: '\\p{L}\\p{Nd}',
  javaAlphabetic: '\\p{Alphabetic}',
};

/** Whether a `\p{…}` body compiles as a JavaScript property escape. */
function jsProperty(body: string): boolean {
  try {
    new RegExp(`\\p{${body}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * One `\p{name}` (or `\pL`) as class members (`inClass`) or a whole atom. Java spells general
 * categories `L`, `IsL` or `gc=L`, scripts `IsLatin` or `sc=Latin`, binary properties
 * `IsAlphabetic`, blocks `InGreek` (which JavaScript cannot express).
 */
function property(name: string, negated: boolean): { members: string; atom: string } {
  const wrap = (members: string): { members: string; atom: string } => ({ members, atom: `[${negated ? '^' : ''}${members}]` });
  const posix = POSIX[name];
  if (posix !== undefined) {
    if (negated) return { members: '', atom: `[^${posix}]` };
    return wrap(posix);
  }
  const javaChar = JAVA_CHARACTER[name];
  if (javaChar !== undefined) {
    if (negated && javaChar.includes('}\\p')) return { members: '', atom: `[^${javaChar}]` };
    return wrap(javaChar);
  }
  if (/^In[A-Z_]|^(block|blk)=/i.test(name)) throw new JavaRegexError(`Unicode block \\p{${name}} has no JavaScript equivalent`);
  const candidates: string[] = [];
  const [key, value] = name.split('=', 2) as [string, string | undefined];
  if (value !== undefined) {
    if (/^(sc|script)$/i.test(key)) candidates.push(`Script=${value}`);
    else if (/^(gc|general_category)$/i.test(key)) candidates.push(`General_Category=${value}`);
  } else {
    const bare = name.startsWith('Is') ? name.slice(2) : name;
    candidates.push(bare, `Script=${bare}`, `General_Category=${bare}`);
  }
  const found = candidates.find(jsProperty);
  if (found === undefined) throw new JavaRegexError(`Unknown property \\p{${name}}`);
  const escape = `\\${negated ? 'P' : 'p'}{${found}}`;
  return { members: escape, atom: escape };
}

/** A code point as an escape that `u` mode accepts anywhere, inside a class or out. */
function literal(char: string, inClass = false): string {
  if (/^[A-Za-z0-9 _]$/.test(char)) return char;
  if (char === '-') return inClass ? '\\-' : '-';
  if (/^[\^$\\.*+?()[\]{}|/]$/.test(char)) return `\\${char}`;
  const code = char.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0xa0)) return `\\u{${code.toString(16)}}`;
  return char;
}

/** Flags a leading `(?idmsux)` may set; `d`, `u` and `U` change nothing a rule needs here. */
const EMBEDDED_FLAGS: Record<string, string> = { i: 'i', m: 'm', s: 's', d: '', u: '', U: '' };

/** Translates a Java pattern; throws JavaRegexError naming the construct it cannot translate. */
export function translateJavaRegex(java: string): TranslatedRegex {
  const flags = new Set<string>();
  let i = 0;
  const leading = /^\(\?([a-zA-Z]+)\)/.exec(java);
  if (leading) {
    for (const f of leading[1]!) {
      const js = EMBEDDED_FLAGS[f];
      if (js === undefined) throw new JavaRegexError(`embedded flag (?${f}) has no JavaScript equivalent`);
      if (js) flags.add(js);
    }
    i = leading[0].length;
  }
  let out = '';
  let classDepth = 0;
  let classStart = false;
  const chars = [...java.slice(i)];
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k]!;
    const next = chars[k + 1];
    const inClass = classDepth > 0;
    const atClassStart = classStart;
    classStart = false;
    if (c === '\\') {
      if (next === undefined) throw new JavaRegexError('trailing backslash');
      k++;
      if (next === 'Q') {
        let stop = chars.length;
        for (let j = k + 1; j < chars.length - 1; j++) if (chars[j] === '\\' && chars[j + 1] === 'E') {
          stop = j;
          break;
        }
        out += chars.slice(k + 1, stop).map((q) => literal(q, inClass)).join('');
        k = stop + 1;
        continue;
      }
      if (next === 'p' || next === 'P') {
        let name: string;
        if (chars[k + 1] === '{') {
          const close = chars.indexOf('}', k + 2);
          if (close < 0) throw new JavaRegexError('unclosed \\p{');
          name = chars.slice(k + 2, close).join('');
          k = close;
        } else {
          name = chars[k + 1] ?? '';
          k++;
        }
        const p = property(name, next === 'P');
        if (inClass && !p.members) throw new JavaRegexError(`negated \\P{${name}} inside a character class`);
        out += inClass ? p.members : p.atom;
        continue;
      }
      if (next === 's') out += inClass ? JAVA_SPACE : `[${JAVA_SPACE}]`;
      else if (next === 'S') {
        if (inClass) throw new JavaRegexError('\\S inside a character class');
        out += `[^${JAVA_SPACE}]`;
      } else if (next === 'h') out += `${inClass ? '' : '['} \\t\\u00A0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000${inClass ? '' : ']'}`;
      else if (next === 'v') out += `${inClass ? '' : '['}\\n\\x0B\\f\\r\\u0085\\u2028\\u2029${inClass ? '' : ']'}`;
      else if (next === 'R' && !inClass) out += '(?:\\r\\n|[\\n\\x0B\\f\\r\\u0085\\u2028\\u2029])';
      else if (next === 'A' && !inClass) out += '(?<![\\s\\S])';
      else if (next === 'z' && !inClass) out += '(?![\\s\\S])';
      else if (next === 'Z' && !inClass) out += '(?=(?:\\r\\n|[\\n\\r\\u0085\\u2028\\u2029])?(?![\\s\\S]))';
      else if (next === 'e') out += '\\x1B';
      else if (next === 'a') out += '\\x07';
      else if (next === '0') {
        const digits = /^[0-7]{1,3}/.exec(chars.slice(k + 1, k + 4).join(''))?.[0];
        if (!digits) throw new JavaRegexError('\\0 without octal digits');
        out += `\\u{${parseInt(digits, 8).toString(16)}}`;
        k += digits.length;
      } else if (next === 'x' && chars[k + 1] === '{') {
        const close = chars.indexOf('}', k + 2);
        if (close < 0) throw new JavaRegexError('unclosed \\x{');
        out += `\\u{${chars.slice(k + 2, close).join('')}}`;
        k = close;
      } else if (/^[dDwWbBtnrfux1-9ck]$/.test(next)) {
        // Same meaning in both: classes, word boundaries, control escapes, \uXXXX, \xhh, \cX,
        // back references, \k<name>.
        out += `\\${next}`;
      } else if (/^[A-Za-z]$/.test(next)) {
        throw new JavaRegexError(`escape \\${next} has no JavaScript equivalent`);
      } else {
        // Java lets any other character be escaped to stand for itself.
        out += literal(next, inClass);
      }
      continue;
    }
    if (inClass) {
      if (c === '[') throw new JavaRegexError('nested character class [..[..]..] (a union)');
      if (c === '&' && next === '&') throw new JavaRegexError('character class intersection &&');
      if (c === ']' && !atClassStart) {
        classDepth--;
        out += ']';
      } else if (c === '^' && atClassStart) {
        out += '^';
        classStart = true;
      } else if (c === '-') out += '-';
      else out += c === ']' ? '\\]' : literal(c, true);
      continue;
    }
    if (c === '[') {
      classDepth++;
      classStart = true;
      out += '[';
      continue;
    }
    if (c === '(' && next === '?') {
      const rest = chars.slice(k + 2, k + 4).join('');
      if (rest.startsWith('>')) throw new JavaRegexError('atomic group (?>…)');
      if (/^[a-zA-Z-]/.test(rest) && !rest.startsWith('<')) throw new JavaRegexError('embedded flags inside the pattern (only a leading (?i) etc. translates)');
      out += '(?';
      k++;
      continue;
    }
    if ((c === '*' || c === '+' || c === '?' || c === '}') && next === '+') {
      throw new JavaRegexError(`possessive quantifier ${c}+`);
    }
    if (c === '{') {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(chars.slice(k, k + 24).join(''));
      if (quantifier) {
        out += quantifier[0];
        k += quantifier[0].length - 1;
        if (chars[k + 1] === '+') throw new JavaRegexError(`possessive quantifier ${quantifier[0]}+`);
        continue;
      }
      out += '\\{';
      continue;
    }
    if (c === '}' || c === ']') {
      out += `\\${c}`;
      continue;
    }
    out += c;
  }
  if (classDepth > 0) throw new JavaRegexError('unclosed character class');
  const result = { source: out, flags: [...flags].join('') };
  try {
    new RegExp(result.source, `${result.flags}u`);
  } catch (error) {
    throw new JavaRegexError((error as Error).message);
  }
  return result;
}
