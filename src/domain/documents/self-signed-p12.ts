import crypto from 'node:crypto';
import forge from 'node-forge';
import { UTF8_STRING } from './seal-signer.ts';

/** How long a self-signed seal certificate is valid. */
const VALID_YEARS = 3;

/**
 * A new PKCS#12 file holding an RSA-2048 key and a self-signed certificate for `organization` (its common name and
 * organization), valid for three years from `now`, protected by `passphrase`. For the demo and tests: a reader's PDF
 * viewer shows such a seal as intact but its signer as unknown, since no certificate authority vouches for it.
 */
export function makeSelfSignedP12(organization: string, passphrase: string, now: number): Uint8Array {
  // node:crypto makes the key (forge's pure-JavaScript generation takes seconds); forge writes the certificate and file.
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial of 16 random bytes (the first bit cleared), as RFC 5280 asks.
  cert.serialNumber = `0${crypto.randomBytes(16).toString('hex').slice(1)}`;
  cert.validity.notBefore = new Date(now);
  cert.validity.notAfter = new Date(now);
  cert.validity.notAfter.setUTCFullYear(cert.validity.notAfter.getUTCFullYear() + VALID_YEARS);
  // UTF8String values (forge writes a PrintableString otherwise, which cannot hold most names).
  const name = [
    { shortName: 'CN', value: `${organization} document seal`, valueTagClass: UTF8_STRING },
    { shortName: 'O', value: organization, valueTagClass: UTF8_STRING },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  // No friendly name: forge writes it as a BMPString unencoded, which breaks the file for a name beyond Latin-1.
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
