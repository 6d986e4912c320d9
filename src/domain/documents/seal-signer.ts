import { Signer } from '@signpdf/signpdf';
import forge from 'node-forge';

/** ASN.1's UTF8String tag, as @types/node-forge types a name attribute's tag (as a class, wrongly). */
export const UTF8_STRING = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;

/** A key and its certificate chain, opened once from the operator's PKCS#12 file. */
export interface SealKey { key: forge.pki.rsa.PrivateKey; cert: forge.pki.Certificate; certs: forge.pki.Certificate[] }

/**
 * The seal's CMS signer for @signpdf/signpdf: a detached SignedData (SHA-256, RSA PKCS#1 v1.5) with the signed
 * attributes content type, signing time and message digest, and every certificate of the file, as
 * @signpdf/signer-p12's P12Signer makes it, with two differences. It keeps the key opened (P12Signer opens its file
 * again, key derivation rounds in JavaScript and all, for every signature), and it names the certificate's issuer
 * by the certificate's own bytes: P12Signer lets node-forge write the issuer again from its parsed form, which
 * encodes a UTF8String twice, so for an issuer named beyond ASCII ("Ville de Montréal") the signature pointed at no
 * certificate and validators refused it.
 */
export class SealSigner extends Signer {
  readonly #sealKey: SealKey;

  constructor(sealKey: SealKey) {
    super();
    this.#sealKey = sealKey;
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const { key, cert, certs } = this.#sealKey;
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
    for (const c of certs) p7.addCertificate(c);
    // forge reads a UTF8String value as its UTF-8 bytes and encodes it again when writing: given decoded, it writes the original bytes.
    const issuer = cert.issuer.attributes.map((a) => (a.valueTagClass === UTF8_STRING ? { ...a, value: forge.util.decodeUtf8(String(a.value)) } : a));
    // The issuer and serial number instead of the certificate: P12Signer's way, with the issuer as it is stored.
    p7.addSigner({
      key, issuer, serialNumber: cert.serialNumber, digestAlgorithm: forge.pki.oids.sha256 as string,
      // The order P12Signer uses, which the EU's DSS validator expects.
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType as string, value: forge.pki.oids.data as string },
        { type: forge.pki.oids.signingTime as string, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest as string },
      ],
    } as unknown as Parameters<typeof p7.addSigner>[0]);
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}
