/**
 * `npx tsx bench/seal-cost.ts [ROUNDS]` — what making a signed PDF costs (issue 32): a three-page agreement (made here
 * with pdfkit, standing in for the template renderer), its signature page and certificate of completion rendered and
 * merged, then sealed with an RSA-2048 certificate, ROUNDS times one after another after three warm-up rounds, in a
 * process of its own. Prints the p50 and slowest time, and the peak RSS and heap of the process while it ran.
 */
import PDFKit from 'pdfkit';
import { createPdfSealer } from '../src/domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../src/domain/documents/self-signed-p12.ts';
import { createSignedPdfMaker } from '../src/domain/documents/signed-pdf-maker.ts';
import type { EnvelopeStep, SignedBy } from '../src/model/document.ts';

const rounds = Number(process.argv[2] ?? 30);
const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);

async function threePages(): Promise<Uint8Array> {
  const doc = new PDFKit({ size: 'LETTER', autoFirstPage: false, info: { CreationDate: new Date(T0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  for (let page = 1; page <= 3; page++) {
    doc.addPage().fontSize(16).text(`Interconnection agreement, page ${page}`).moveDown().fontSize(11);
    for (let p = 0; p < 12; p++) doc.text('The customer and the utility agree to the terms of interconnection set out here. '.repeat(5)).moveDown(0.5);
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

const signers: SignedBy[] = [
  { signerId: 'S1', signerName: 'Alex Applicant', role: 'Project owner', email: 'applicant@example.org', typedName: 'Alex Applicant', signedAt: T0 + 3_600_000, ip: '203.0.113.7' },
  { signerId: 'S2', signerName: 'Parker Plan-Reviewer', role: 'Reviewer', email: 'reviewer@example.org', typedName: 'Parker Plan-Reviewer', signedAt: T0 + 7_200_000, ip: '198.51.100.2' },
];
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36';
const actions: [EnvelopeStep['action'], string | null][] = [
  ['created', null], ['notified', 'S1'], ['viewed', 'S1'], ['consented', 'S1'], ['signed', 'S1'], ['notified', 'S2'], ['viewed', 'S2'], ['consented', 'S2'], ['signed', 'S2'], ['completed', null],
];
const steps: EnvelopeStep[] = actions.map(([action, signerId], i) => ({ at: T0 + i * 600_000, signerId, action, userId: null, ip: signerId ? '203.0.113.7' : null, userAgent: signerId ? UA : null, detail: {} }));

const maker = createSignedPdfMaker(createPdfSealer(makeSelfSignedP12('Bench Agency', 'bench', T0), 'bench'), { agencyName: 'Bench Agency' });
const document = await threePages();
let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 5);
const times: number[] = [];
let bytes = 0;
for (let i = 0; i < rounds + 3; i++) {
  const started = performance.now();
  const signed = await maker.make({ document, title: 'Interconnection agreement', envelopeId: 'ENVELOPE0001', projectNumber: '1001', signers, steps, timeZone: 'America/Denver' });
  if (i >= 3) times.push(performance.now() - started);
  bytes = signed.length;
  sample();
}
clearInterval(sampler);
times.sort((a, b) => a - b);
const mb = (n: number) => (n / 2 ** 20).toFixed(0);
process.stdout.write(`${'signed PDF of a three-page agreement'.padEnd(44)} p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms of ${rounds}  (${(bytes / 1024).toFixed(0)} KB, 5 pages)  peak rss ${mb(peakRss)} MB  heap ${mb(peakHeap)} MB\n`);
