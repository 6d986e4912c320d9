/**
 * `npx tsx bench/seal-cost.ts [ROUNDS]` — what making a document and its signed PDF costs (issue 32): the three-page
 * interconnection agreement of bench/agreement-program.ts rendered over a submitted demo project by the renderer
 * generation uses (createDocumentRenderer: the project read, Liquid, the Markdown laid out, pdfkit), then its
 * signature page and certificate of completion rendered and merged and the whole sealed with an RSA-2048 certificate
 * (createSignedPdfMaker), ROUNDS times each one after another after three warm-up rounds, in a process of its own.
 * Prints the p50, p95 and slowest time of each, the mean CPU time of the process per round, and the peak RSS and heap
 * of the process while each ran.
 */
import { PDFDocument } from 'pdf-lib';
import { createDocumentRenderer } from '../src/domain/documents/document-renderer.ts';
import { createPdfSealer } from '../src/domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../src/domain/documents/self-signed-p12.ts';
import { createSignedPdfMaker } from '../src/domain/documents/signed-pdf-maker.ts';
import type { EnvelopeStep, SignedBy } from '../src/model/document.ts';
import { DOCS_PROGRAM, openBenchDatabase } from './agreement-program.ts';

const rounds = Number(process.argv[2] ?? 30);
const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);

const signers: SignedBy[] = [
  { signerId: 'S1', signerName: 'Alex Applicant', role: 'Project owner', email: 'applicant@example.org', typedName: 'Alex Applicant', signedAt: T0 + 3_600_000, ip: '203.0.113.7' },
  { signerId: 'S2', signerName: 'Parker Plan-Reviewer', role: 'Reviewer', email: 'reviewer@example.org', typedName: 'Parker Plan-Reviewer', signedAt: T0 + 7_200_000, ip: '198.51.100.2' },
];
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36';
const actions: [EnvelopeStep['action'], string | null][] = [
  ['created', null], ['notified', 'S1'], ['viewed', 'S1'], ['consented', 'S1'], ['signed', 'S1'], ['notified', 'S2'], ['viewed', 'S2'], ['consented', 'S2'], ['signed', 'S2'], ['completed', null],
];
const steps: EnvelopeStep[] = actions.map(([action, signerId], i) => ({ at: T0 + i * 600_000, signerId, action, userId: null, ip: signerId ? '203.0.113.7' : null, userAgent: signerId ? UA : null, detail: {} }));

const db = await openBenchDatabase({ [DOCS_PROGRAM]: 'agreement' });
const [projectId] = await db.submitted(DOCS_PROGRAM, 1);
const programId = (await db.store.programs.findProgram(DOCS_PROGRAM))!.id;
const renderer = createDocumentRenderer({ store: db.store });
const maker = createSignedPdfMaker(createPdfSealer(makeSelfSignedP12('Bench Agency', 'bench', T0), 'bench'), { agencyName: 'Bench Agency' });

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};

/** Runs `work` rounds + 3 times (the first three not counted); its sorted times and the peak memory meanwhile. */
async function timed<T>(work: () => Promise<T>): Promise<{ times: number[]; cpu: number; last: T; rss: number; heap: number }> {
  peakRss = 0;
  peakHeap = 0;
  const sampler = setInterval(sample, 5);
  const times: number[] = [];
  let last: T | undefined;
  let cpu = 0;
  for (let i = 0; i < rounds + 3; i++) {
    const started = performance.now();
    const cpuFrom = process.cpuUsage();
    last = await work();
    if (i >= 3) {
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpuFrom);
      cpu += (used.user + used.system) / 1000;
    }
    sample();
  }
  clearInterval(sampler);
  return { times: times.sort((a, b) => a - b), cpu: cpu / rounds, last: last!, rss: peakRss, heap: peakHeap };
}

const mb = (n: number) => (n / 2 ** 20).toFixed(0);
const at = (times: number[], q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
// CPU time besides the clock's: on a shared machine the process's own CPU per round moves far less than its wall time.
const line = (name: string, r: { times: number[]; cpu: number; rss: number; heap: number }, what: string) => process.stdout.write(`${name.padEnd(44)} p50 ${at(r.times, 0.5).toFixed(1)} ms  p95 ${at(r.times, 0.95).toFixed(1)} ms  max ${r.times.at(-1)!.toFixed(1)} ms of ${rounds}  cpu ${r.cpu.toFixed(1)} ms  (${what})  peak rss ${mb(r.rss)} MB  heap ${mb(r.heap)} MB\n`);

const settled = process.memoryUsage();
process.stdout.write(`${'before (demo database open, app built)'.padEnd(44)} rss ${mb(settled.rss)} MB  heap ${mb(settled.heapUsed)} MB\n`);
const render = await timed(() => renderer.renderForProject({ programId, templateId: 'Agreement', projectId: projectId!, now: T0 }));
const document = render.last.pdf;
const pages = (await PDFDocument.load(document)).getPageCount();
line('render the agreement (template renderer)', render, `${(document.length / 1024).toFixed(0)} KB, ${pages} pages`);
const signed = await timed(() => maker.make({ document, title: 'Interconnection agreement', envelopeId: 'ENVELOPE0001', projectNumber: '1001', signers, steps, timeZone: 'America/Denver' }));
const signedPages = (await PDFDocument.load(signed.last)).getPageCount();
line('make and seal its signed PDF', signed, `${(signed.last.length / 1024).toFixed(0)} KB, ${signedPages} pages`);
await db.close();
