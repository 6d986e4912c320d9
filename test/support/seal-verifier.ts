import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * An independent check of a sealed PDF, sharing no code with the library that signs (@signpdf and node-forge): the
 * last signature's /ByteRange must cover the whole file but its /Contents hole, the CMS SignedData in the hole must
 * carry the SHA-256 of the covered bytes as its messageDigest, and its signature over the signed attributes must
 * verify with the public key of the signer's certificate in it, whose own signature must verify by its issuer's key (or
 * its own). Whether the issuer is trusted is not judged: that is the reader's choice of trust anchors.
 */
export interface SealCheck { valid: boolean; problem: string | null; signer: string | null; subFilter: string | null }

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';

function fail(problem: string, subFilter: string | null = null): SealCheck {
  return { valid: false, problem, signer: null, subFilter };
}

/** Checks a sealed PDF; `valid` false with the first problem found when anything does not hold. */
export function verifySealedPdf(pdf: Uint8Array): SealCheck {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return fail('no /ByteRange');
  const subFilter = /\/SubFilter\s*\/([A-Za-z0-9.]+)/.exec(text.slice(Math.max(0, last.index - 2000), last.index + 2000))?.[1] ?? null;
  const [a, b, c, d] = last.slice(1, 5).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || c + d !== bytes.length) return fail(`the byte range [${a} ${b} ${c} ${d}] does not cover the whole file of ${bytes.length} bytes`, subFilter);
  const hole = text.slice(b, c);
  if (!/^<[0-9A-Fa-f]*>$/.test(hole)) return fail('the byte range\'s hole is not exactly the /Contents hex string', subFilter);
  if (!/\/Contents\s*$/.test(text.slice(Math.max(0, b - 20), b))) return fail('the hole is not the value of /Contents', subFilter);
  const covered = Buffer.concat([bytes.subarray(0, b), bytes.subarray(c, c + d)]);
  let signedData: pkijs.SignedData;
  try {
    const der = Buffer.from(hole.slice(1, -1), 'hex');
    const parsed = asn1js.fromBER(new Uint8Array(der).buffer);
    if (parsed.offset === -1) return fail('the /Contents is not BER', subFilter);
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== OID_SIGNED_DATA) return fail(`the /Contents is ${info.contentType}, not SignedData`, subFilter);
    signedData = new pkijs.SignedData({ schema: info.content });
  } catch (error) {
    return fail(`the /Contents is not a CMS SignedData (${(error as Error).message})`, subFilter);
  }
  if (signedData.encapContentInfo.eContent) return fail('the signature is not detached', subFilter);
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo || signedData.signerInfos.length !== 1) return fail('not exactly one signer', subFilter);
  if (signerInfo.digestAlgorithm.algorithmId !== OID_SHA256) return fail(`digest ${signerInfo.digestAlgorithm.algorithmId} is not SHA-256`, subFilter);
  const attrs = signerInfo.signedAttrs?.attributes ?? [];
  const attribute = (oid: string) => attrs.find((x) => x.type === oid)?.values[0];
  const contentType = attribute(OID_CONTENT_TYPE) as asn1js.ObjectIdentifier | undefined;
  if (contentType?.valueBlock.toString() !== OID_DATA) return fail('the contentType signed attribute is not id-data', subFilter);
  const digest = attribute(OID_MESSAGE_DIGEST) as asn1js.OctetString | undefined;
  if (!digest) return fail('no messageDigest signed attribute', subFilter);
  const expected = crypto.createHash('sha256').update(covered).digest();
  if (!expected.equals(Buffer.from(digest.valueBlock.valueHexView))) return fail('the messageDigest is not the SHA-256 of the covered bytes: the file was changed', subFilter);
  const sid = signerInfo.sid as pkijs.IssuerAndSerialNumber;
  const cert = (signedData.certificates ?? []).find((x): x is pkijs.Certificate => x instanceof pkijs.Certificate
    && x.serialNumber.isEqual(sid.serialNumber) && Buffer.from(x.issuer.toSchema().toBER()).equals(Buffer.from(sid.issuer.toSchema().toBER())));
  if (!cert) return fail('the signer\'s certificate is not in the signature', subFilter);
  // The signature covers the DER of the signed attributes as a SET (tag 0x31), not as the [0] they are stored under.
  const signedBytes = Buffer.from(signerInfo.signedAttrs!.encodedValue);
  signedBytes[0] = 0x31;
  const key = crypto.createPublicKey({ key: Buffer.from(cert.subjectPublicKeyInfo.toSchema().toBER()), format: 'der', type: 'spki' });
  const signature = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
  if (!crypto.verify('sha256', signedBytes, key, signature)) return fail('the signature over the signed attributes does not verify', subFilter);
  // The signer's certificate must be signed by its issuer's among those in the signature, else by its own key (a
  // self-signed one, like the demo's), so that a changed certificate is caught. Trust in the issuer is not judged here.
  const x509s = (signedData.certificates ?? []).filter((x) => x instanceof pkijs.Certificate).map((x) => new crypto.X509Certificate(Buffer.from(x.toSchema().toBER())));
  const x509 = new crypto.X509Certificate(Buffer.from(cert.toSchema().toBER()));
  const issuer = x509s.find((x) => x.subject === x509.issuer && !x.raw.equals(x509.raw)) ?? x509;
  if (!x509.verify(issuer.publicKey)) return fail('the signer\'s certificate is not signed by its issuer (or, self-signed, by its own key)', subFilter);
  const signer = cert.subject.typesAndValues.map((tv) => String(tv.value.valueBlock.value)).join(', ');
  return { valid: true, problem: null, signer, subFilter };
}
