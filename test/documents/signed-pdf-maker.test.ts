import assert from 'node:assert/strict';
import { test } from 'node:test';
import PDFKit from 'pdfkit';
import { PDFDocument } from 'pdf-lib';
import type { EnvelopeStep, SignedBy } from '../../src/model/document.ts';
import { createPdfSealer } from '../../src/domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../../src/domain/documents/self-signed-p12.ts';
import { createSignedPdfMaker } from '../../src/domain/documents/signed-pdf-maker.ts';
import { verifySealedPdf } from '../support/seal-verifier.ts';

const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);
const P12 = makeSelfSignedP12('Demo Agency', 'pw', T0);

/** A document of `pages` pages made with pdfkit (the template renderer's library), its dates fixed. */
async function document(pages: number): Promise<Uint8Array> {
  const doc = new PDFKit({ size: 'LETTER', autoFirstPage: false, info: { CreationDate: new Date(T0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  for (let i = 1; i <= pages; i++) doc.addPage().fontSize(14).text(`Interconnection agreement, page ${i}`);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const SIGNERS: SignedBy[] = [
  { signerId: 'SIGNER000001', signerName: 'Alex Applicant', role: 'Project owner', email: 'applicant@demo.apas.local', typedName: 'Alex Applicant', signedAt: T0 + 3_600_000, ip: '203.0.113.7' },
  { signerId: 'SIGNER000002', signerName: 'Parker Plan-Reviewer', role: 'Reviewer', email: 'planreviewer@demo.apas.local', typedName: 'Parker Plan-Reviewer', signedAt: T0 + 7_200_000, ip: null },
];
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36';
const step = (minutes: number, action: EnvelopeStep['action'], signerId: string | null, ip: string | null = null): EnvelopeStep => ({
  at: T0 + minutes * 60_000, signerId, action, userId: null, ip, userAgent: ip === null ? null : UA, detail: {},
});
const STEPS: EnvelopeStep[] = [
  step(0, 'created', null), step(1, 'notified', 'SIGNER000001'), step(50, 'viewed', 'SIGNER000001', '203.0.113.7'),
  step(55, 'consented', 'SIGNER000001', '203.0.113.7'), step(60, 'signed', 'SIGNER000001', '203.0.113.7'), step(61, 'notified', 'SIGNER000002'),
  step(100, 'viewed', 'SIGNER000002', '198.51.100.2'), step(110, 'consented', 'SIGNER000002', '198.51.100.2'), step(120, 'signed', 'SIGNER000002', '198.51.100.2'),
  step(120, 'completed', null),
];

function input(pdf: Uint8Array) {
  return { document: pdf, title: 'Interconnection agreement', envelopeId: 'ENVELOPE0001', projectNumber: '1001', signers: SIGNERS, steps: STEPS, timeZone: 'America/Denver' };
}

test('the signed PDF is the document, a signature page and the certificate of completion, sealed and verifiable', async () => {
  const maker = createSignedPdfMaker(createPdfSealer(P12, 'pw', { clock: { now: () => T0 + 7_300_000 } }), { agencyName: 'Demo Agency' });
  const signed = await maker.make(input(await document(3)));
  assert.deepEqual(verifySealedPdf(signed), { valid: true, problem: null, signer: 'Demo Agency document seal, Demo Agency', subFilter: 'adbe.pkcs7.detached' });
  const pdf = await PDFDocument.load(signed, { updateMetadata: false });
  assert.equal(pdf.getPageCount(), 5);
  // Added pages take the document's page size (US Letter here).
  assert.deepEqual(pdf.getPages().map((p) => [p.getWidth(), p.getHeight()]), Array(5).fill([612, 792]));
  assert.equal(pdf.getModificationDate()?.getTime(), T0 + 7_200_000);
  // The fonts are DejaVu, embedded.
  assert.match(Buffer.from(signed).toString('latin1'), /\/FontFile2/);
  assert.match(Buffer.from(signed).toString('latin1'), /\/BaseFont \/[A-Z]{6}\+DejaVuSans-Oblique/);
});

test('the signed PDF is the same bytes for the same input but for the seal, and grows a page when the trail is long', async () => {
  const sealer = createPdfSealer(P12, 'pw', { clock: { now: () => T0 + 7_300_000 } });
  const maker = createSignedPdfMaker(sealer, { agencyName: 'Demo Agency' });
  const doc = await document(1);
  const [one, two] = [await maker.make(input(doc)), await maker.make(input(doc))];
  const range = (b: Uint8Array) => /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/.exec(Buffer.from(b).toString('latin1'))!.slice(1).map(Number);
  assert.deepEqual(range(one), range(two));
  const [, start, end] = range(one);
  assert.ok(Buffer.from(one.subarray(0, start)).equals(Buffer.from(two.subarray(0, start))));
  assert.ok(Buffer.from(one.subarray(end)).equals(Buffer.from(two.subarray(end))));
  const long = await maker.make({ ...input(doc), steps: Array.from({ length: 80 }, (_, i) => step(i, 'reminded', 'SIGNER000002', '198.51.100.2')) });
  assert.ok((await PDFDocument.load(long)).getPageCount() >= 4);
  assert.equal(verifySealedPdf(long).valid, true);
});

test('names in any script, with markup and parentheses, and a decline reason make a signed PDF that verifies', async () => {
  const maker = createSignedPdfMaker(createPdfSealer(P12, 'pw'), { agencyName: 'Ville de Montréal (Québec)' });
  const odd = 'Łukasz 王 <b>(O\'Brien\\ 😀';
  const signed = await maker.make({
    ...input(await document(1)), title: `Accord ${odd}`,
    signers: [{ ...SIGNERS[0]!, signerName: odd, typedName: odd, role: odd, email: 'łukasz@example.org' }],
    steps: [...STEPS, { ...step(130, 'declined', 'SIGNER000001', '2001:db8::1'), detail: { reason: `Nein ${odd}` } }],
  });
  assert.equal(verifySealedPdf(signed).valid, true);
  assert.equal((await PDFDocument.load(signed)).getPageCount(), 3);
});
