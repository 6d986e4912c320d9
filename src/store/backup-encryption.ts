import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { BackupError } from './backup-error.ts';

/**
 * Backups encrypted with age (age-encryption.org/v1): the backup host needs only the recipients' public keys
 * (`age1…`); a restore needs one matching identity (`AGE-SECRET-KEY-1…`). Standard age tools read the files too.
 */

/** The first bytes of every age file (its header's version line). */
export const AGE_MAGIC = 'age-encryption.org/v1\n';

/** Reads the recipients (one `age1…` public key a line; blank lines and # comments ignored) of a recipients file. */
export function readRecipients(file: string): string[] {
  const lines = readLines(file, 'recipients file');
  const bad = lines.find((line) => !/^age1[0-9a-z]+$/.test(line));
  if (bad !== undefined) throw new BackupError('setup', `the recipients file ${file} holds "${bad.slice(0, 20)}…", which is not an age public key (age1…)`);
  if (lines.length === 0) throw new BackupError('setup', `the recipients file ${file} names no recipient (age1…)`);
  return lines;
}

/** Reads the identities (`AGE-SECRET-KEY-1…` lines, as age-keygen writes them) of an identity file. */
export function readIdentities(file: string): string[] {
  const lines = readLines(file, 'identity file').filter((line) => line.startsWith('AGE-SECRET-KEY-'));
  if (lines.length === 0) throw new BackupError('setup', `the identity file ${file} holds no age identity (AGE-SECRET-KEY-1…)`);
  return lines;
}

function readLines(file: string, what: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new BackupError('setup', `cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

// Loaded when a backup is encrypted or opened: with its curves and post-quantum ciphers it took a third of a second of
// CPU at the start of every `apas` command (on Node 20), and most commands never encrypt anything.
function ageEncryption(): Promise<typeof import('age-encryption')> {
  return import('age-encryption');
}

/** A new identity and its recipient, as age-keygen makes them: the identity decrypts, the recipient encrypts. */
export async function newAgeIdentity(): Promise<{ identity: string; recipient: string }> {
  const { generateX25519Identity, identityToRecipient } = await ageEncryption();
  const identity = await generateX25519Identity();
  return { identity, recipient: await identityToRecipient(identity) };
}

/** `plain` encrypted for `recipients`, as a stream. */
export async function encryptStream(plain: Readable, recipients: string[]): Promise<Readable> {
  const { Encrypter } = await ageEncryption();
  const encrypter = new Encrypter();
  for (const recipient of recipients) encrypter.addRecipient(recipient);
  const encrypted = await encrypter.encrypt(Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>);
}

/** `sealed` decrypted with `identities`; a wrong identity or a damaged header is a BackupError about the archive. */
export async function decryptStream(sealed: Readable, identities: string[]): Promise<Readable> {
  const { Decrypter } = await ageEncryption();
  const decrypter = new Decrypter();
  for (const identity of identities) decrypter.addIdentity(identity);
  try {
    const plain = await decrypter.decrypt(Readable.toWeb(sealed) as unknown as ReadableStream<Uint8Array>);
    return Readable.fromWeb(plain as unknown as WebReadableStream<Uint8Array>);
  } catch (error) {
    throw new BackupError('archive', `the encrypted backup does not open with the given identity file: ${(error as Error).message}`);
  }
}
