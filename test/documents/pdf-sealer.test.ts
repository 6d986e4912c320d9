import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { createPdfSealer, readSigningCertificate, SEAL_SUB_FILTER, sealText, SigningCertificateError } from '../../src/domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../../src/domain/documents/self-signed-p12.ts';
import { verifySealedPdf } from '../support/seal-verifier.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const P12 = makeSelfSignedP12('Demo Agency', 'a passphrase', NOW);
const sealer = createPdfSealer(P12, 'a passphrase', { clock: { now: () => NOW } });

async function letter(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(text);
  doc.addPage().drawText(text, { x: 72, y: 700 });
  return doc.save({ useObjectStreams: false });
}

function flipped(pdf: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(pdf);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

/** A copy with the hex digit at `at` replaced by another hex digit (flipping a bit could make 'f' a 'g'). */
function otherHexDigit(pdf: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(pdf);
  copy[at] = copy[at] === 0x30 ? 0x31 : 0x30;
  return copy;
}

function byteRange(pdf: Uint8Array): number[] {
  return /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/.exec(Buffer.from(pdf).toString('latin1'))!.slice(1).map(Number);
}

test('a sealed PDF verifies with the independent verifier: byte range, digest and signature, by the certificate it names', async () => {
  const sealed = await sealer.seal(await letter('Approval letter'), 'Approval letter of project 1001');
  const check = verifySealedPdf(sealed);
  assert.deepEqual(check, { valid: true, problem: null, signer: 'Demo Agency document seal, Demo Agency', subFilter: SEAL_SUB_FILTER });
  const text = Buffer.from(sealed).toString('latin1');
  assert.match(text, /\/Reason \(Approval letter of project 1001\)/);
  assert.match(text, /\/M \(D:20261129120000Z\)/);
  // Still a PDF that a reader opens: one page, the title kept.
  const reopened = await PDFDocument.load(sealed, { updateMetadata: false });
  assert.equal(reopened.getPageCount(), 1);
  assert.equal(reopened.getTitle(), 'Approval letter');
});

test('one byte changed after sealing, in the document text or after the signature, fails verification', async () => {
  const sealed = await sealer.seal(await letter('Interconnection agreement'), 'test');
  const text = Buffer.from(sealed).toString('latin1');
  // The title (UTF-16 in hex), in the covered range before the signature: "Interconnection" becomes "Hnterconnection".
  const inTitle = text.indexOf('/Title <FEFF0049') + '/Title <FEFF004'.length;
  assert.ok(inTitle > 1 && inTitle < byteRange(sealed)[1]!);
  const changed = verifySealedPdf(flipped(sealed, inTitle));
  assert.equal(changed.valid, false);
  assert.match(changed.problem!, /messageDigest is not the SHA-256/);
  // A byte of the range after the hole (the cross-reference table and trailer).
  const [, , c, d] = byteRange(sealed);
  assert.equal(verifySealedPdf(flipped(sealed, c! + Math.floor(d! / 2))).valid, false);
  // And one in the signature value (the CMS's last bytes; its length is in its DER header, 30 82 hh ll), or in the certificate's name.
  const hole = byteRange(sealed)[1]! + 1;
  const cmsLength = 4 + Number.parseInt(text.slice(hole + 4, hole + 8), 16);
  assert.match(verifySealedPdf(otherHexDigit(sealed, hole + 2 * (cmsLength - 10))).problem ?? '', /signature over the signed attributes does not verify/);
  // The name is in the certificate as its issuer, then as its subject, then in the signer's reference to it: the subject's.
  const name = Buffer.from('document seal').toString('hex');
  const inCertificate = text.indexOf(name, text.indexOf(name, hole) + 1);
  assert.ok(inCertificate > hole);
  assert.match(verifySealedPdf(otherHexDigit(sealed, inCertificate + 1)).problem ?? '', /certificate is not signed by its issuer/);
});

test('bytes appended after sealing (an incremental update, with or without a byte range of its own) fail verification', async () => {
  const sealed = Buffer.from(await sealer.seal(await letter('Permission to operate'), 'test'));
  const update = '\n1 0 obj\n<< /Title (Changed) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';
  const appended = verifySealedPdf(Buffer.concat([sealed, Buffer.from(update)]));
  assert.equal(appended.valid, false);
  assert.match(appended.problem!, /does not cover the whole file/);
  // A second signature dictionary whose byte range covers the longer file around the first signature's hole: the
  // covered bytes are no longer the ones signed.
  const [, b, c] = byteRange(sealed);
  const withRange = (end: number) => Buffer.from(`\n9 0 obj\n<< /Type /Sig /ByteRange [0 ${b} ${c} ${String(end - c!).padStart(10, '0')}] >>\nendobj\n%%EOF\n`);
  const length = sealed.length + withRange(0).length;
  const forged = Buffer.concat([sealed, withRange(length)]);
  assert.equal(forged.length, length);
  const forgedCheck = verifySealedPdf(forged);
  assert.match(forgedCheck.problem ?? '', /messageDigest is not the SHA-256/);
  assert.equal(forgedCheck.valid, false);
});

test('the seal fits its placeholder: a second seal of the same input differs only inside the signature hole', async () => {
  const pdf = await letter('Same');
  const [one, two] = [await sealer.seal(pdf, 'r'), await sealer.seal(pdf, 'r')];
  assert.equal(one.length, two.length);
  const [, b, c] = byteRange(one);
  assert.deepEqual(byteRange(one), byteRange(two));
  assert.ok(Buffer.from(one.subarray(0, b)).equals(Buffer.from(two.subarray(0, b))));
  assert.ok(Buffer.from(one.subarray(c)).equals(Buffer.from(two.subarray(c))));
});

test('a wrong passphrase or a file that is not PKCS#12 is refused when the sealer is made, with a clear message', () => {
  assert.throws(() => createPdfSealer(P12, 'wrong'), (e: unknown) => e instanceof SigningCertificateError && /passphrase does not open/.test(e.message));
  assert.throws(() => createPdfSealer(Buffer.from('not a certificate at all'), ''), (e: unknown) => e instanceof SigningCertificateError && /not a PKCS#12/.test(e.message));
  const certificate = readSigningCertificate(P12, 'a passphrase');
  assert.equal(certificate.subject, 'CN=Demo Agency document seal, O=Demo Agency');
  assert.equal(certificate.notAfter.toISOString(), '2029-11-29T12:00:00.000Z');
});

test('what signers and agencies are named cannot break the seal: parentheses, backslashes and any script', async () => {
  assert.equal(sealText('O\'Brien (Jr. \\ Łukasz 王 Gerő Zoë\n'), 'O\'Brien \\(Jr. \\\\ ?ukasz ? Gero Zoë?');
  const p12 = makeSelfSignedP12('Tokyo 東京 (Łódź)', '', NOW);
  assert.equal(readSigningCertificate(p12, '').subject, 'CN=Tokyo 東京 (Łódź) document seal, O=Tokyo 東京 (Łódź)');
  const sealed = await createPdfSealer(p12, '', { location: 'Łódź' }).seal(await letter('Agreement'), 'Signed by O\'Brien (Jr. \\');
  assert.deepEqual(verifySealedPdf(sealed), { valid: true, problem: null, signer: 'Tokyo 東京 (Łódź) document seal, Tokyo 東京 (Łódź)', subFilter: SEAL_SUB_FILTER });
  const text = Buffer.from(sealed).toString('latin1');
  assert.ok(text.includes('/Reason (Signed by O\'Brien \\(Jr. \\\\)'), text.slice(text.indexOf('/Reason'), text.indexOf('/Reason') + 60));
  assert.ok(text.includes('/Name (CN=Tokyo ?? \\(?ódz\\) document seal, O=Tokyo ?? \\(?ódz\\))'), text.slice(text.indexOf('/Name'), text.indexOf('/Name') + 80));
  assert.ok(text.includes('/Location (?ódz)'));
  assert.equal((await PDFDocument.load(sealed)).getPageCount(), 1);
});
