/**
 * The permissions of encrypted PDFs, as both engines report them, against poppler's `pdfinfo` on
 * every wild file it calls encrypted: print, copy, change and add-notes, flag by flag. A PDF that
 * forbids copying must not read `cancopy=true` under any engine.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pdfium from '../../../../lib/engines/pdfium/index.js';
import * as pdfjs from '../../../../lib/engines/pdfjs.js';
import { documentHtml } from '../../../../lib/formats/html.js';
import type { DocRecord } from '../../../../lib/protocol/records.js';
import { DEFAULTS } from '../../../../stages/serialize.js';
import { samplePdf, wildCorpus } from '../../../helpers.js';

/** pdfinfo's names for the permission bits of `P`. */
const POPPLER_FLAGS: Record<string, number> = { print: 4, change: 8, copy: 16, addNotes: 32 };

const pdfinfo = spawnSync('pdfinfo', ['-v'], { encoding: 'utf8' });
const skip = !existsSync(wildCorpus)
  ? `${wildCorpus} is not available (no ../shared corpus)`
  : pdfinfo.error
    ? 'pdfinfo is not installed (Debian package poppler-utils)'
    : false;

/** pdfinfo's verdict per flag for an encrypted file, or null when it does not call the file encrypted. */
function popplerPermissions(path: string): Record<string, boolean> | null {
  const out = spawnSync('pdfinfo', [path], { encoding: 'utf8', timeout: 20_000 }).stdout ?? '';
  const line = /^Encrypted:\s+yes \(([^)]*)\)/m.exec(out);
  if (!line) return null;
  return Object.fromEntries([...line[1]!.matchAll(/(\w+):(yes|no)/g)].filter(([, k]) => k! in POPPLER_FLAGS).map(([, k, v]) => [k, v === 'yes']));
}

async function docRecord(engine: 'pdfium' | 'pdfjs', path: string): Promise<DocRecord> {
  const bytes = new Uint8Array(readFileSync(path));
  const records = engine === 'pdfium'
    ? pdfium.extractRecords(bytes, 'd', path, { normalize: true, memory: 2048 })
    : pdfjs.extractRecords(bytes, 'd', path, { normalize: true, memory: 2048 });
  for await (const record of records) {
    if (record.type === 'doc') {
      await records.return(undefined);
      return record;
    }
  }
  throw new Error(`${path}: no doc record`);
}

t.test('permissions match pdfinfo on the encrypted wild files, under both engines', { skip }, async (t) => {
  const files = readdirSync(wildCorpus).filter((f) => f.endsWith('.pdf')).sort();
  let compared = 0;
  let copyForbidden = 0;
  for (const file of files) {
    const path = join(wildCorpus, file);
    const expected = popplerPermissions(path);
    if (!expected) continue;
    if (expected.copy === false) copyForbidden++;
    for (const engine of ['pdfium', 'pdfjs'] as const) {
      let doc: DocRecord;
      try {
        doc = await docRecord(engine, path);
      } catch {
        continue; // an engine that cannot open the file reports nothing to compare
      }
      const granted = doc.meta.permissions ?? null;
      const actual = Object.fromEntries(Object.entries(POPPLER_FLAGS).map(([name, flag]) => [name, granted === null || granted.includes(flag)]));
      t.same(actual, expected, `${engine}: ${file}`);
      if (expected.copy === false) {
        const html = documentHtml(doc, [], { type: 'end', doc: 'd', stats: { pages: 0, items: 0, chars: 0, ms: 0 } }, { ...DEFAULTS, getperms: true });
        t.match(html, /<cancopy>false<\/cancopy>/, `${engine}: ${file} reads cancopy=false`);
      }
      if (engine === 'pdfium') compared++;
    }
  }
  t.ok(compared >= 10, `PDFium compared on ${compared} encrypted files`);
  t.ok(copyForbidden >= 5, `${copyForbidden} of them forbid copying`);
});

t.test('an unencrypted PDF restricts nothing', async (t) => {
  const doc = await docRecord('pdfium', samplePdf('one-column'));
  t.equal(doc.meta.permissions, null);
  t.equal(doc.meta.encrypted, false);
});
