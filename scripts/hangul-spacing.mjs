#!/usr/bin/env node
/**
 * Builds data/hangul-spacing.tsv: where Hangul syllables stand in Korean words, counted over
 * Korean prose that Debian packages (the Debian FAQ, LibreOffice's and GIMP's help) and over
 * the Korean word list of Tesseract's Korean model, for the line breaks of
 * lib/paragraphs/hangul.ts that a short document's own words cannot decide. Counts are kept, and
 * the word list's words of three syllables or more; no text.
 *
 *     apt-get download debian-faq-ko libreoffice-help-ko gimp-help-ko tesseract-ocr-kor
 *     for deb in *.deb; do dpkg-deb -x "$deb" "${deb%%_*}"; done
 *     combine_tessdata -u tesseract-ocr-kor/usr/share/tesseract-ocr/5/tessdata/kor.traineddata kor.
 *     dawg2wordlist kor.lstm-unicharset kor.lstm-word-dawg kor-words.txt
 *     node scripts/hangul-spacing.mjs --words kor-words.txt debian-faq-ko libreoffice-help-ko gimp-help-ko > data/hangul-spacing.tsv
 *
 * (combine_tessdata and dawg2wordlist are in Debian's tesseract-ocr.) The help texts are
 * technical; the word list (common words of the web, without their counts) adds everyday stems
 * ("행사", "부모", "우체국"): each of its words counts as one word of the text, written once,
 * alone. The table shipped was made from Debian 12's debian-faq-ko 11.1, libreoffice-help-ko
 * 7.4.7, gimp-help-ko 2.10.34 and tesseract-ocr-kor 4.1.0 (Apache-2.0).
 *
 * Words are the runs between spaces, punctuation at their edges taken off, made of Hangul
 * syllables only. Lines of the file:
 *
 *     #	comments
 *     L	length	words           words of this many syllables
 *     S	syllable	starts	inside-not-start	ends	inside-not-end
 *     P	two syllables	written together	written with a space between
 *     W	word            a word of the word list of LISTED_MIN_SYLLABLES syllables or more
 *
 * A syllable counts at a word's start or end, or inside; a pair counts inside a word, or across a
 * space between two words (the first one's last syllable, the next one's first, nothing else
 * between). Pairs seen fewer than MIN_PAIR times are left out: they say little and they are most
 * of the table.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const MIN_PAIR = 3;
/** The word list's words kept whole: those long enough that a line break inside one is told by it (lib/paragraphs/hangul.ts). */
const LISTED_MIN_SYLLABLES = 3;
const HANGUL_WORD = /^[\uac00-\ud7a3]+$/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

function* htmlFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // Links are not followed: a package's links point into the system it was made for.
    const stat = lstatSync(path);
    if (stat.isDirectory()) yield* htmlFiles(path);
    else if (stat.isFile() && /\.html?$/u.test(name)) yield path;
  }
}

/** The text of an HTML page, a line per line of the source, tags and scripts taken out. */
function textOf(html) {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/giu, ' ')
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/giu, (_entity, body) => {
      if (body[0] !== '#') return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[body.toLowerCase()] ?? ' ';
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
    });
}

const bump = (map, key, column, columns) => {
  let row = map.get(key);
  if (!row) map.set(key, (row = new Array(columns).fill(0)));
  row[column] += 1;
};

const args = process.argv.slice(2);
const wordsAt = args.indexOf('--words');
const wordList = wordsAt >= 0 ? args.splice(wordsAt, 2)[1] : null;
const dirs = args;
if (dirs.length === 0 || (wordsAt >= 0 && !wordList)) {
  process.stderr.write('usage: node scripts/hangul-spacing.mjs [--words FILE] DIR... > data/hangul-spacing.tsv\n');
  process.exit(2);
}
const lengths = new Map();
const syllables = new Map();
const pairs = new Map();
let words = 0;
/** Counts one word of Hangul syllables: its length, where each syllable stands, its pairs. */
const countWord = (word) => {
  words += 1;
  bump(lengths, word.length, 0, 1);
  [...word].forEach((s, i) => {
    bump(syllables, s, i === 0 ? 0 : 1, 4);
    bump(syllables, s, i === word.length - 1 ? 2 : 3, 4);
    if (i > 0) bump(pairs, word[i - 1] + s, 0, 2);
  });
};
for (const dir of dirs) {
  for (const file of htmlFiles(dir)) {
    for (const line of textOf(readFileSync(file, 'utf8')).split('\n')) {
      if (!/[\uac00-\ud7a3]/u.test(line)) continue;
      const tokens = line.trim().split(/\s+/u);
      tokens.forEach((token, t) => {
        const word = token.replace(EDGE_PUNCTUATION, '');
        if (HANGUL_WORD.test(word)) countWord(word);
        const next = tokens[t + 1];
        if (next && /[\uac00-\ud7a3]$/u.test(token) && /^[\uac00-\ud7a3]/u.test(next)) bump(pairs, token.at(-1) + next[0], 1, 2);
      });
    }
  }
}
let listed = 0;
const kept = [];
if (wordList) {
  for (const line of readFileSync(wordList, 'utf8').split('\n')) {
    const word = line.trim();
    if (!HANGUL_WORD.test(word)) continue;
    countWord(word);
    listed += 1;
    if (word.length >= LISTED_MIN_SYLLABLES) kept.push(word);
  }
}
const out = [
  `#\tHangul syllables in Korean words: ${words} words, ${words - listed} of the Korean HTML in ${dirs.map((dir) => basename(dir)).join(', ')}${wordList ? `, ${listed} of the word list ${basename(wordList)}` : ''} (scripts/hangul-spacing.mjs)`,
  ...[...lengths].sort((a, b) => a[0] - b[0]).map(([n, [count]]) => `L\t${n}\t${count}`),
  ...[...syllables].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([s, row]) => `S\t${s}\t${row.join('\t')}`),
  ...[...pairs].filter(([, [inside, across]]) => inside + across >= MIN_PAIR).sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([p, row]) => `P\t${p}\t${row.join('\t')}`),
  ...[...new Set(kept)].sort().map((word) => `W\t${word}`),
];
process.stdout.write(`${out.join('\n')}\n`);
