import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createPdfSealer, SigningCertificateError } from '../domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../domain/documents/self-signed-p12.ts';
import type { PdfSealer } from '../model/document.ts';
import { StartupFailure } from './startup-failure.ts';

/** The sealer of signed PDFs an installation uses, the file it came from, and its certificate's subject and end. */
export interface SigningCertificate { sealer: PdfSealer; file: string; subject: string; notAfter: Date }

/** How long before its end a certificate's coming expiry is logged at each start. */
const EXPIRY_WARNING_MS = 30 * 86_400_000;

/**
 * Where `apas demo` puts its self-signed PKCS#12 file, and where a start looks for one when APAS_SIGNING_P12 is unset:
 * beside the SQLite database, else ./data (like the blob directory); null for an in-memory database.
 */
export function defaultSigningP12File(database: Config['database'], cwd = process.cwd()): string | null {
  if (database.kind === 'sqlite') return database.file === ':memory:' ? null : path.join(path.dirname(database.file), 'apas-signing.p12');
  return path.resolve(cwd, 'data', 'apas-signing.p12');
}

/**
 * Makes the demo's self-signed PKCS#12 file (RSA 2048, three years, in `agencyName`'s name, protected by
 * APAS_SIGNING_P12_PASSPHRASE) at the default place, unless a file is configured or already there. Returns the file
 * made, or null. Never replaces a file: documents sealed before keep the certificate they name.
 */
export function makeDemoSigningP12(config: Pick<Config, 'database' | 'signing'>, agencyName: string, now: number): string | null {
  const file = config.signing.p12File === null ? defaultSigningP12File(config.database) : null;
  if (file === null || fs.existsSync(file)) return null;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, makeSelfSignedP12(agencyName, config.signing.passphrase, now), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Another instance made it first: theirs is used.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  return file;
}

/**
 * The sealer of APAS_SIGNING_P12 (with APAS_SIGNING_P12_PASSPHRASE), else of the demo's file at the default place if
 * it exists; null when neither is there (documents can then not be sealed). A file that cannot be read or opened is a
 * StartupFailure naming the setting: better no start than envelopes that complete without their signed PDF.
 */
export function openSigningCertificate(config: Pick<Config, 'database' | 'signing'>, now: number, warn: (line: string) => void): SigningCertificate | null {
  const configured = config.signing.p12File;
  const file = configured ?? defaultSigningP12File(config.database);
  if (file === null || (configured === null && !fs.existsSync(file))) return null;
  const setting = configured === null ? 'APAS_SIGNING_P12 (unset: the demo certificate)' : 'APAS_SIGNING_P12';
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new StartupFailure(setting, file, `cannot start: cannot read the signing certificate file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const sealer = createPdfSealer(bytes, config.signing.passphrase);
    const { subject, notAfter } = sealer.certificate;
    if (notAfter.getTime() < now) warn(`The signing certificate ${file} (${subject}) expired on ${notAfter.toISOString()}: readers will flag new seals; replace it (docs/operations.md, "The signing certificate").`);
    else if (notAfter.getTime() < now + EXPIRY_WARNING_MS) warn(`The signing certificate ${file} (${subject}) expires on ${notAfter.toISOString()}: replace it before then (docs/operations.md, "The signing certificate").`);
    return { sealer, file, subject, notAfter };
  } catch (error) {
    if (!(error instanceof SigningCertificateError)) throw error;
    const passphrase = /passphrase/.test(error.message);
    throw new StartupFailure(passphrase ? 'APAS_SIGNING_P12_PASSPHRASE' : setting, file, `cannot start: the signing certificate file ${file} cannot be used: ${error.message}`);
  }
}
