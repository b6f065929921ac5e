/**
 * Encrypted PDFs for the opening tests, built in memory by the standard security handler's
 * algorithms (ISO 32000-2, 7.6.4): one page of text whose content stream is encrypted under the
 * owner and user passwords given, at revision 4 (AES-128, the owner password over RC4) or 6
 * (AES-256). Either password may be empty. An empty owner password with a user password is what
 * some writers make of a document meant to need only the user password (Bluebeam's PDF library
 * among them); the standard's password check tries the password given, the empty one when none
 * is, as owner password too, and so poppler and qpdf open such a document without a password.
 * Salts, keys and IVs are hashes of the document's passwords and text, so a file is the same on
 * every run.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { pdfFromObjects, streamObject } from './hostile-pdfs.js';

/** The two passwords of an encrypted document ('' for an empty one). */
export interface Passwords {
  owner: string;
  user: string;
}

/** The permissions granted to the user: every one (the bits a writer must set, set). */
const PERMISSIONS = -4;

/** `length` bytes that depend on `label` alone (salts, keys and IVs of a reproducible file). */
function fixedBytes(label: string, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let i = 0; blocks.length * 32 < length; i++) blocks.push(createHash('sha256').update(`${label}:${i}`).digest());
  return Buffer.concat(blocks).subarray(0, length);
}

/** AES in `mode` ('aes-128-cbc', 'aes-256-ecb'…) over `data`, padded as streams are or not at all. */
function aes(mode: string, key: Buffer, iv: Buffer | null, data: Buffer, pad = false): Buffer {
  const cipher = createCipheriv(mode, key, iv);
  cipher.setAutoPadding(pad);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

const md5 = (...parts: Buffer[]): Buffer => createHash('md5').update(Buffer.concat(parts)).digest();

/** RC4 (the runtime's OpenSSL leaves it out of its default ciphers). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** An encryption dictionary and how it encrypts the stream of object `num`. */
interface Handler {
  dict: string;
  encryptStream(num: number, data: Buffer): Buffer;
}

const hex = (bytes: Buffer): string => `<${bytes.toString('hex')}>`;

/** The 32 bytes passwords of revision 4 and below are padded with (7.6.4.3.2, Algorithm 2, step a). */
const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padded = (password: string): Buffer => Buffer.concat([Buffer.from(password, 'latin1'), PADDING]).subarray(0, 32);

/** RC4 under `key`, then 19 times more under `key` with each byte XORed with the round's number (Algorithms 3 and 5). */
function twentyRounds(key: Buffer, data: Buffer): Buffer {
  let out = rc4(key, data);
  for (let round = 1; round <= 19; round++) out = rc4(Buffer.from(key.map((b) => b ^ round)), out);
  return out;
}

/** Revision 4, AES-128 (AESV2): /O by Algorithm 3, the file key by Algorithm 2, /U by Algorithm 5. */
function revision4(passwords: Passwords, fileId: Buffer, label: string): Handler {
  let ownerKey = md5(padded(passwords.owner));
  for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
  const owner = twentyRounds(ownerKey, padded(passwords.user));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  let fileKey = md5(padded(passwords.user), owner, permissions, fileId);
  for (let i = 0; i < 50; i++) fileKey = md5(fileKey);
  const user = Buffer.concat([twentyRounds(fileKey, md5(PADDING, fileId)), fixedBytes(`${label}:U`, 16)]);
  return {
    dict: `<< /Filter /Standard /V 4 /R 4 /Length 128 /P ${PERMISSIONS} /O ${hex(owner)} /U ${hex(user)} /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF >>`,
    encryptStream(num, data) {
      // Algorithm 1: the object's key is the file key, its number and generation, and "sAlT", hashed.
      const objectKey = md5(fileKey, Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0]), Buffer.from('sAlT'));
      const iv = fixedBytes(`${label}:iv:${num}`, 16);
      return Buffer.concat([iv, aes('aes-128-cbc', objectKey, iv, data, true)]);
    },
  };
}

/** Algorithm 2.B: the hash of a revision 6 password with its salt, and for the owner password the 48 bytes of /U. */
function hash2B(password: Buffer, salt: Buffer, userKey: Buffer): Buffer {
  let k = createHash('sha256').update(Buffer.concat([password, salt, userKey])).digest();
  for (let round = 0; ; round++) {
    const e = aes('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32), Buffer.concat(Array<Buffer>(64).fill(Buffer.concat([password, k, userKey]))));
    const sum = e.subarray(0, 16).reduce((a, b) => a + b, 0);
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3]!).update(e).digest();
    // At least 64 rounds, then on until E's last byte is at most the rounds done less 32.
    if (round >= 63 && e[e.length - 1]! <= round + 1 - 32) return k.subarray(0, 32);
  }
}

/** Revision 6, AES-256 (AESV3): /U and /UE by Algorithm 8, /O and /OE by Algorithm 9, /Perms by Algorithm 10. */
function revision6(passwords: Passwords, label: string): Handler {
  const fileKey = fixedBytes(`${label}:file key`, 32);
  const [userCheck, userSalt, ownerCheck, ownerSalt] = ['U check', 'U key', 'O check', 'O key'].map((name) => fixedBytes(`${label}:${name}`, 8)) as [Buffer, Buffer, Buffer, Buffer];
  const none = Buffer.alloc(0);
  const zeroIv = Buffer.alloc(16);
  const user = Buffer.from(passwords.user, 'utf8');
  const owner = Buffer.from(passwords.owner, 'utf8');
  const u = Buffer.concat([hash2B(user, userCheck, none), userCheck, userSalt]);
  const ue = aes('aes-256-cbc', hash2B(user, userSalt, none), zeroIv, fileKey);
  const o = Buffer.concat([hash2B(owner, ownerCheck, u), ownerCheck, ownerSalt]);
  const oe = aes('aes-256-cbc', hash2B(owner, ownerSalt, u), zeroIv, fileKey);
  const perms = Buffer.concat([Buffer.alloc(8, 0xff), Buffer.from('Tadb'), fixedBytes(`${label}:Perms`, 4)]);
  perms.writeInt32LE(PERMISSIONS);
  return {
    dict: `<< /Filter /Standard /V 5 /R 6 /Length 256 /P ${PERMISSIONS} /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /Perms ${hex(aes('aes-256-ecb', fileKey, null, perms))} /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF >>`,
    encryptStream(num, data) {
      const iv = fixedBytes(`${label}:iv:${num}`, 16);
      return Buffer.concat([iv, aes('aes-256-cbc', fileKey, iv, data, true)]);
    },
  };
}

/** A one-page PDF that says `text` (plain ASCII), encrypted at `revision` under `passwords`. */
export function encryptedTextPage(text: string, passwords: Passwords, revision: 4 | 6): Buffer {
  const label = JSON.stringify([text, passwords, revision]);
  const fileId = fixedBytes(`${label}:ID`, 16);
  const handler = revision === 6 ? revision6(passwords, label) : revision4(passwords, fileId, label);
  const content = Buffer.from(`BT /F1 12 Tf 20 250 Td (${text}) Tj ET`);
  return pdfFromObjects(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      streamObject('', handler.encryptStream(4, content)),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      handler.dict,
    ],
    `/Encrypt 6 0 R /ID [${hex(fileId)} ${hex(fileId)}]`,
  );
}
