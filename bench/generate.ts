import { Readable } from 'node:stream';
import type { AttachmentRecord, FieldValue, HistoryEntry, Project } from '../src/model/model.ts';
import { formatProjectNumber } from '../src/domain/projects/submit-service.ts';
import { randomToken } from '../src/model/ids.ts';
import type { BulkBatch } from '../src/store/bulk-queries.ts';
import type { BlobStore } from '../src/store/blob-store.ts';
import type { ProjectDeadline } from '../src/store/deadline-queries.ts';
import type { Store } from '../src/store/store.ts';

/** What the generator loaded, for the scenarios that need real ids and numbers. */
export interface Generated {
  programId: string; sampleProjectIds: string[]; sampleNumbers: string[]; count: number; ms: number;
  /** When the first project was created and the span the projects' creation covers (ms): `firstAt + spanMs` is the last. */
  firstAt: number; spanMs: number;
  /** Projects that have a site plan on file (empty when no blob store was given). */
  sampleAttachmentProjectIds: string[];
}

/** One submitted project in this many gets a site plan (a small PDF of its own, written through the blob store). */
const ATTACHMENT_EVERY = 50;
const FILES_IN_FLIGHT = 32;
const DAY = 86_400_000;
/** The span over which the generated projects are created: two years. */
const SPAN = 730 * DAY;

/** The UTC calendar day of an instant, as a deadline's due date. */
function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The answer deadline of a project in review, or none: one in seven running (due within the next 30 days, so the
 * poller has nothing to fire while a benchmark runs), one in twenty passed (overdue in the queue), one in six met.
 */
function answerDeadline(rand: () => number, project: Project, now: number): ProjectDeadline | null {
  const r = rand();
  const state = r < 0.14 ? 'running' : r < 0.19 ? 'passed' : r < 0.36 ? 'satisfied' : null;
  if (!state) return null;
  // A deadline that ended did so before now, however recent the project.
  const dueAt = state === 'running' ? now + Math.ceil(rand() * 30) * DAY : Math.min(project.statusAt + Math.ceil(rand() * 20) * DAY, now - DAY);
  const endedAt = state === 'running' ? null : state === 'passed' ? dueAt : dueAt - Math.ceil(rand() * 9) * DAY;
  return {
    id: randomToken(12), projectId: project.id, programId: project.programId, deadlineId: 'AnswerDue', state,
    startedAt: dueAt - 14 * DAY, dueDate: dayOf(dueAt), dueAt, endedAt, startedBy: null, endedBy: null,
  };
}

/** A small PDF, different for every project, as the site plan of project `i`. */
function sitePlan(i: number): Buffer {
  return Buffer.from(`%PDF-1.4\n% site plan of generated project ${i}\n1 0 obj<<>>endobj\n${'0'.repeat(2000)}\ntrailer<<>>\n%%EOF\n`);
}

/** Writes the files of `pending` to the blob store, a few at a time, and returns their attachment rows. */
async function writeSitePlans(blobs: BlobStore, pending: { projectId: string; i: number; at: number; by: string }[], definitionId: string): Promise<AttachmentRecord[]> {
  const rows: AttachmentRecord[] = [];
  for (let k = 0; k < pending.length; k += FILES_IN_FLIGHT) {
    rows.push(...await Promise.all(pending.slice(k, k + FILES_IN_FLIGHT).map(async (p) => {
      const stored = await blobs.write(Readable.from([sitePlan(p.i)]), 1 << 20);
      return {
        id: randomToken(12), projectId: p.projectId, definitionId, version: 1, blobKey: stored.key, fileName: 'site-plan.pdf',
        contentType: 'application/pdf', sizeBytes: stored.size, sha256: stored.sha256, uploadedBy: p.by, uploadedAt: p.at,
        approvalStatus: 'Pending' as const, note: null, reviewedBy: null, reviewedAt: null,
      };
    })));
  }
  return rows;
}

const FIRST = ['Jordan', 'Alex', 'Sam', 'Riley', 'Casey', 'Morgan', 'Taylor', 'Jamie', 'Avery', 'Quinn'];
const LAST = ['Rivera', 'Nguyen', 'Smith', 'Garcia', 'Kim', 'Patel', 'Brown', 'Okafor', 'Silva', 'Novak'];
const MAKES = ['ENPHASE', 'SMA', 'SOLAREDGE', 'FRONIUS', 'TESLA', 'GENERAC'];

// A small deterministic PRNG (mulberry32): the same seed loads the same data, so runs compare.
function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Realistic Application values for one project, by the demo program's custom ids. */
function applicationValues(rand: () => number, i: number): Record<string, string | string[]> {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const kw = (3 + rand() * 12).toFixed(1);
  return {
    CustomerName: `${pick(FIRST)} ${pick(LAST)}`, CustomerEmail: `customer${i}@example.org`, CustomerPhone: `555-01${String(i % 100).padStart(2, '0')}`,
    ServiceAddress: `${1 + (i % 9999)} Sunny Lane, Springfield`, UtilityAccountNumber: `${8000 + (i % 1000)}-${String(i).padStart(8, '0')}`,
    MeterNumber: `M${String(i).padStart(9, '0')}`, ServiceType: '1P-120-240', SystemSizeKwDc: kw, SystemSizeKwAc: (Number(kw) * 0.8).toFixed(1),
    ModuleCount: String(8 + Math.floor(rand() * 30)), InverterMake: pick(MAKES), InverterModel: `IQ${Math.floor(rand() * 9)}+`,
    MountingType: pick(['Roof', 'Ground', 'Carport']), HasBattery: rand() < 0.3 ? 'true' : 'false', InstallerName: `${pick(LAST)} Solar LLC`,
    PlannedInstallDate: `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`,
  };
}

/**
 * Loads `count` projects into the demo program through the store's bulk path, created evenly over the two years
 * before now: 90% submitted (numbered, in Application Review or, a third of them, approved by a reviewer within 40
 * days, 16 submitted values, 2–3 history entries, one in 50 with a site plan when `blobs`
 * is given, half assigned to one of the demo's two reviewers, a third of those in review with an answer deadline),
 * 10% unsubmitted drafts without values.
 */
export async function generateProjects(store: Store, count: number, blobs?: BlobStore, seed = 1, batchSize = 5000): Promise<Generated> {
  const started = Date.now();
  const program = await store.programs.findProgram('RES-SOLAR');
  if (!program) throw new Error('seed the demo first: the RES-SOLAR program is missing');
  const model = await store.programs.loadProgramModel(program);
  const owner = await store.accounts.findUserByEmail('applicant@demo.apas.local');
  if (!owner) throw new Error('the demo applicant is missing');
  const reviewers = await Promise.all(['reviewer@demo.apas.local', 'planreviewer@demo.apas.local'].map((e) => store.accounts.findUserByEmail(e)));
  const reviewerIds = reviewers.filter((u) => u !== null).map((u) => u.id);
  const now = Date.now();
  const status = (customId: string) => model.statuses.find((s) => s.customId === customId)!.id;
  const form = model.forms.find((f) => f.customId === 'Application')!;
  const sitePlanId = form.attachments.find((a) => a.customId === 'SitePlan')!.id;
  const sampleAttachmentProjectIds: string[] = [];
  const fieldId = new Map(model.fields.map((f) => [f.customId!, f.id]));
  const rand = prng(seed);
  const sampleProjectIds: string[] = [];
  const sampleNumbers: string[] = [];
  // Whatever the count, the projects are created over the same two years up to two days ago, and a decision comes
  // days or weeks after submission: at 10,000 and at 1,000,000 the dashboards' windows hold the same shape of data.
  const t0 = now - SPAN - 2 * DAY;
  for (let start = 0; start < count; start += batchSize) {
    const n = Math.min(batchSize, count - start);
    const submitted = Array.from({ length: n }, (_, k) => (start + k) % 10 !== 9);
    let next = await store.bulk.reserveProjectNumbers(program.id, submitted.filter(Boolean).length);
    const batch: BulkBatch = { projects: [], values: [], history: [], deadlines: [] };
    const files: { projectId: string; i: number; at: number; by: string }[] = [];
    for (let k = 0; k < n; k++) {
      const i = start + k;
      const created = t0 + Math.floor((i * SPAN) / count);
      const id = randomToken(12);
      const number = submitted[k] ? formatProjectNumber(program, next++) : null;
      const decidedAt = created + 60_000 + Math.ceil(rand() * 40 * 24) * 3_600_000;
      const reviewer = reviewerIds.length > 0 ? reviewerIds[Math.floor(rand() * reviewerIds.length)]! : owner.id;
      const later = rand() < 0.3 && decidedAt < now ? status('ApprovedForInstallation') : status('ApplicationReview');
      const statusId = number ? later : status('Unsubmitted');
      const statusAt = !number ? created : statusId === status('ApplicationReview') ? created + 60_000 : decidedAt;
      const project: Project = {
        id, programId: program.id, number, statusId, statusAt, createdAt: created, createdBy: owner.id,
        updatedAt: statusAt, updatedBy: statusAt === decidedAt ? reviewer : owner.id, ownerId: owner.id, version: number ? 3 : 0,
        assigneeId: number && reviewerIds.length > 0 && rand() < 0.5 ? reviewerIds[Math.floor(rand() * reviewerIds.length)]! : null,
      };
      batch.projects.push(project);
      const deadline = statusId === status('ApplicationReview') ? answerDeadline(rand, project, now) : null;
      if (deadline) batch.deadlines!.push(deadline);
      const history: HistoryEntry[] = [{ id: randomToken(12), projectId: id, statusId: status('Unsubmitted'), changedAt: created, changedBy: owner.id, reportAs: 'normal' }];
      if (number) {
        history.push({ id: randomToken(12), projectId: id, statusId: status('ApplicationReview'), changedAt: created + 60_000, changedBy: owner.id, reportAs: 'normal' });
        if (statusId !== status('ApplicationReview')) history.push({ id: randomToken(12), projectId: id, statusId, changedAt: decidedAt, changedBy: reviewer, reportAs: 'normal' });
        const values: FieldValue[] = Object.entries(applicationValues(rand, i)).map(([customId, v]) => ({
          fieldId: fieldId.get(customId)!, value: Array.isArray(v) ? null : v, values: Array.isArray(v) ? v : null, updatedAt: created + 60_000, updatedBy: owner.id,
        }));
        batch.values.push({ projectId: id, formId: form.id, values });
        if (sampleNumbers.length < 1000 && i % Math.max(1, Math.floor(count / 1000)) === 0) sampleNumbers.push(number);
        if (blobs && i % ATTACHMENT_EVERY === 0) files.push({ projectId: id, i, at: created + 30_000, by: owner.id });
      }
      batch.history.push(...history);
      if (sampleProjectIds.length < 1000 && i % Math.max(1, Math.floor(count / 1000)) === 0 && number) sampleProjectIds.push(id);
    }
    if (blobs) batch.attachments = await writeSitePlans(blobs, files, sitePlanId);
    for (const f of files) if (sampleAttachmentProjectIds.length < 100) sampleAttachmentProjectIds.push(f.projectId);
    await store.bulk.bulkInsert(batch);
  }
  return { programId: program.id, sampleProjectIds, sampleNumbers, sampleAttachmentProjectIds, count, ms: Date.now() - started, firstAt: t0, spanMs: SPAN };
}
