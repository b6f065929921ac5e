/**
 * What the repair stage loads before its first document: the rules and the word lists. Apart from
 * the core (./document.ts) so that the stage can check them when it is built while the core, with
 * its script tables, is imported only where documents are repaired.
 */
import { existsSync } from 'node:fs';
import { DEBIAN_THAI_TRIE, DEBIAN_WORDS, loadLexicon } from './lexicon.js';
import { loadConfig, type RepairConfig } from './rules.js';

/** What `loadContext` reads of the repair stage's options: where the rules and word lists are. */
export interface ContextOptions {
  /** A rules file in PDFExtract.json's format; '' for the built-in defaults. */
  config: string;
  /** The Thai word list (libdatrie .tri or one word a line); '' for Debian's libthai one when installed. */
  thaiLexicon: string;
  /** A word list for the ligature checks; '' for Debian's /usr/share/dict/words when installed. */
  words: string;
}

/** What a repair run needs besides its options: rules, word lists. */
export interface RepairContext {
  rules: RepairConfig;
  disabled: ReadonlySet<string>;
  /** The config's rules that were left out, each reported on every document as a warning. */
  rejected: readonly string[];
  thai: ReadonlySet<string> | null;
  words: ReadonlySet<string> | null;
}

/** Loads the rules and word lists; throws an Error naming the file that is missing or bad. */
export function loadContext(options: ContextOptions): RepairContext {
  const { rules, disabled, rejected } = loadConfig(options.config);
  const wordsPath = options.words || (existsSync(DEBIAN_WORDS) ? DEBIAN_WORDS : '');
  const words = wordsPath ? loadLexicon(wordsPath, { lowercase: true }) : null;
  if (options.thaiLexicon) return { rules, disabled, rejected, thai: loadLexicon(options.thaiLexicon), words };
  // Debian's Thai trie is read on the first document with Thai text (repairDocument asks for it
  // only then): most runs have none, and walking the trie is a good part of a worker's start.
  // A file the user names is read at once, so that a bad one stops the run before any document.
  const thaiPath = existsSync(DEBIAN_THAI_TRIE) ? DEBIAN_THAI_TRIE : '';
  return {
    rules,
    disabled,
    rejected,
    get thai() {
      return thaiPath ? loadLexicon(thaiPath) : null;
    },
    words,
  };
}
