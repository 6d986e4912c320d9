import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import type { PdfSealer } from '../../model/document.ts';
import { type Clock, systemClock } from '../../model/clock.ts';
import { type SealKey, SealSigner, UTF8_STRING } from './seal-signer.ts';

/**
 * The bytes reserved for the CMS signature: an RSA-4096 signature with a chain of three certificates fits with room
 * to spare (an RSA-2048 self-signed one takes about 1.6 KB). The /Contents hole is twice this, in hex.
 */
export const SEAL_SIGNATURE_BYTES = 16_384;

/**
 * The seal's /SubFilter. `adbe.pkcs7.detached` (ISO 32000-1, PAdES part 2): the signer (seal-signer.ts, as
 * @signpdf/signer-p12) writes a detached CMS whose signed attributes are content type, signing time and message
 * digest, without the ESS signing-certificate-v2 attribute that `ETSI.CAdES.detached` (PAdES baseline B) requires,
 * which node-forge cannot write; claiming the latter would make a signature that strict validators refuse.
 */
export const SEAL_SUB_FILTER = 'adbe.pkcs7.detached';

/** Thrown when the PKCS#12 file cannot be used: not PKCS#12, wrong passphrase, or no key with its certificate. */
export class SigningCertificateError extends Error {}

/** What the seal says of who sealed it, where and how to reach them; `clock` dates the seal. */
export interface SealerOptions { name?: string; location?: string; contactInfo?: string; clock?: Clock }

// Opens a PKCS#12 file: its private key, the certificate of that key, and every certificate (the chain) it holds.
function openP12(p12: Uint8Array, passphrase: string): SealKey {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary'))), false, passphrase);
  } catch (error) {
    const message = (error as Error).message;
    // forge says "PKCS#12 MAC could not be verified. Invalid password?" for a wrong passphrase.
    if (/password|MAC/i.test(message)) throw new SigningCertificateError('the passphrase does not open the PKCS#12 file');
    throw new SigningCertificateError(`the file is not a PKCS#12 (.p12/.pfx) file (${message})`);
  }
  const [keyBag, certBag] = [forge.pki.oids.pkcs8ShroudedKeyBag as string, forge.pki.oids.certBag as string];
  const keys: forge.pkcs12.Bag[] = parsed.getBags({ bagType: keyBag })[keyBag] ?? [];
  const certs = (parsed.getBags({ bagType: certBag })[certBag] ?? []).map((b) => b.cert).filter((c): c is forge.pki.Certificate => c !== undefined);
  const key = keys[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  // node-forge reads RSA keys only and passes over any other (an elliptic-curve key) in silence.
  if (!key) throw new SigningCertificateError('the PKCS#12 file holds no RSA private key (seals need one; an elliptic-curve key cannot be used)');
  const cert = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n !== undefined && pub.n.compareTo(key.n) === 0 && pub.e.compareTo(key.e) === 0;
  });
  if (!cert) throw new SigningCertificateError('the PKCS#12 file holds no certificate of its private key');
  return { key, cert, certs };
}

/** The subject (`CN=…, O=…`) and validity of a sealer's certificate. */
export interface SigningCertificateInfo { subject: string; notBefore: Date; notAfter: Date }

/** The private key's certificate of a PKCS#12 file: its subject and validity; throws SigningCertificateError otherwise. */
export function readSigningCertificate(p12: Uint8Array, passphrase: string): SigningCertificateInfo {
  const { cert } = openP12(p12, passphrase);
  return { subject: subjectOf(cert), notBefore: cert.validity.notBefore, notAfter: cert.validity.notAfter };
}

function subjectOf(cert: forge.pki.Certificate): string {
  // forge hands a UTF8String's value over as its UTF-8 bytes, one character each.
  const text = (a: forge.pki.CertificateField) => (a.valueTagClass === UTF8_STRING ? forge.util.decodeUtf8(String(a.value)) : String(a.value));
  return cert.subject.attributes.map((a: forge.pki.CertificateField) => `${a.shortName ?? a.name}=${text(a)}`).join(', ');
}

/**
 * Text for the seal's dictionary (reason, name, location), which the placeholder library writes as a literal string
 * as it is: backslashes and parentheses escaped (a name with one unbalanced parenthesis would end the string early),
 * accents beyond Latin-1 dropped from their letters, and what is still not Latin-1 (or a control character) made `?`.
 * The signature page shows every name as written.
 */
export function sealText(text: string): string {
  let out = '';
  for (const ch of text) {
    const plain = ch.codePointAt(0)! > 0xff ? ch.normalize('NFKD').replace(/\p{M}/gu, '') : ch;
    for (const c of plain) {
      const code = c.codePointAt(0)!;
      if (c === '\\' || c === '(' || c === ')') out += `\\${c}`;
      else out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? c : '?';
    }
  }
  return out;
}

/**
 * A PdfSealer over a PKCS#12 file (key and certificate): each seal adds a signature field
 * (@signpdf/placeholder-pdf-lib), a SEAL_SIGNATURE_BYTES hole, and a detached CMS SignedData (SHA-256, RSA) over
 * every byte outside the hole (@signpdf/signpdf with SealSigner).
 * Checks the file and passphrase at once, so a bad one fails at start rather than at the first signed envelope.
 */
export function createPdfSealer(p12: Uint8Array, passphrase: string, options: SealerOptions = {}): PdfSealer & { certificate: SigningCertificateInfo } {
  const sealKey = openP12(p12, passphrase);
  const { cert } = sealKey;
  const subject = subjectOf(cert);
  const signer = new SealSigner(sealKey);
  const clock = options.clock ?? systemClock;
  const signpdf = new SignPdf();
  return {
    certificate: { subject, notBefore: cert.validity.notBefore, notAfter: cert.validity.notAfter },
    async seal(pdf, reason) {
      const at = new Date(clock.now());
      // updateMetadata false: the document's own dates and producer stay as made, so equal input seals equally but for the seal.
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      pdflibAddPlaceholder({
        pdfDoc: doc, reason: sealText(reason), name: sealText(options.name ?? subject), location: sealText(options.location ?? ''), contactInfo: sealText(options.contactInfo ?? ''),
        signingTime: at, signatureLength: SEAL_SIGNATURE_BYTES, subFilter: SEAL_SUB_FILTER, appName: 'apas',
      });
      // No object streams: the placeholder's dictionary must stay readable where signpdf looks for it.
      const prepared = await doc.save({ useObjectStreams: false });
      return new Uint8Array(await signpdf.sign(Buffer.from(prepared), signer, at));
    },
  };
}
