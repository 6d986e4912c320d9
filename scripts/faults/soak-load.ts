import { type ApiAnswer, type ApiClient, ConnectionLost, escapeXml, NS } from './api-client.ts';
import { APPLICATION, type AttachmentNeeds, applicationDrafts, createProject, PROGRAM_PATH, setStatus, submitApplication, writeDraft } from './demo-steps.ts';
import type { WriteJournal } from './write-journal.ts';

/** How a soak load runs. */
export interface SoakLoadOptions {
  applicant: ApiClient;
  admin: ApiClient;
  reviewer: ApiClient;
  workers: number;
  /** Nothing new starts after this time (epoch ms). */
  until: number;
  /** And at most this many requests in all, so the loop ends even if the clock misbehaves. */
  maxRequests: number;
  journal: WriteJournal;
  needs: AttachmentNeeds;
  random: () => number;
  /** Called every 1,000 requests with the counts so far. */
  tick?: (requests: number, failed: number) => void;
}

/** What a soak load did: requests by operation, failures, and latencies. */
export interface SoakLoadResult {
  requests: number;
  failed: number;
  /** The first failures, for the report. */
  failures: string[];
  byOperation: Record<string, number>;
  /** Latency percentiles in ms over all requests. */
  p50: number;
  p99: number;
}

type Op = (w: WorkerState) => Promise<void>;
interface WorkerState { n: number; token: string }

/**
 * Runs `workers` clients doing a mix of reads (about three quarters: programs, project lists and pages, form
 * data, schemas, statuses, searches by number and data, history, exports) and writes (new projects filled and
 * submitted, staff approvals) until `until`. Every request is a valid one, so every answer must be a 2xx.
 */
export async function runSoakLoad(o: SoakLoadOptions): Promise<SoakLoadResult> {
  const result: SoakLoadResult = { requests: 0, failed: 0, failures: [], byOperation: {}, p50: 0, p99: 0 };
  const latencies: number[] = [];
  // Recent projects, bounded, so that reads hit real data without the harness growing with the run.
  const drafts: string[] = [];
  const submitted: { id: string; number: string }[] = [];
  const remember = <T>(list: T[], item: T) => {
    list.push(item);
    if (list.length > 500) list.splice(0, list.length - 500);
  };
  const pick = <T>(list: T[]): T | undefined => list[Math.floor(o.random() * list.length)];
  const count = (name: string, answer: ApiAnswer | null, started: number) => {
    result.requests++;
    result.byOperation[name] = (result.byOperation[name] ?? 0) + 1;
    if (result.requests % 1000 === 0) o.tick?.(result.requests, result.failed);
    if (latencies.length < 2_000_000) latencies.push(performance.now() - started);
    if (answer && answer.status >= 200 && answer.status < 300) return;
    result.failed++;
    if (result.failures.length < 20) result.failures.push(`${name}: ${answer ? `${answer.status} ${answer.body.slice(0, 300)}` : 'no answer'}`);
  };
  const call = async (name: string, client: ApiClient, method: string, path: string, body?: string) => {
    const started = performance.now();
    try {
      const answer = await client.send(method, path, body === undefined ? {} : { body });
      count(name, answer, started);
      return answer;
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      count(name, null, started);
      return null;
    }
  };
  const timed = async <T extends { answer: ApiAnswer }>(name: string, run: () => Promise<T>): Promise<T | null> => {
    const started = performance.now();
    try {
      const r = await run();
      count(name, r.answer, started);
      return r;
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      count(name, null, started);
      return null;
    }
  };

  const newApplication: Op = async (w) => {
    const started = performance.now();
    let created: Awaited<ReturnType<typeof createProject>>;
    try {
      created = await createProject(o.applicant, o.journal);
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      count('CreateNewProject', null, started);
      return;
    }
    count('CreateNewProject', created.result.answer, started);
    const id = created.projectId;
    if (!id) return;
    const [first, second] = applicationDrafts(`${w.token}x${w.n++}`, 1 + Math.floor(o.random() * 500));
    if ((await timed('SetProjectData', () => writeDraft(o.applicant, o.journal, id, first)))?.record.outcome !== 'acked') return;
    if ((await timed('SetProjectData', () => writeDraft(o.applicant, o.journal, id, second)))?.record.outcome !== 'acked') return;
    if (o.random() < 0.3) {
      remember(drafts, id);
      return;
    }
    const r = await timed('SubmitProject', () => submitApplication(o.applicant, o.journal, id, o.needs));
    if (r?.record.outcome === 'acked' && r.record.number) remember(submitted, { id, number: r.record.number });
  };
  const approve: Op = async () => {
    const p = submitted.shift();
    if (!p) return;
    await timed('SetProjectStatus', () => setStatus(o.admin, o.journal, p.id, 'ApprovedForInstallation'));
  };
  const reads: [string, Op][] = [
    ['GetPrograms', async () => void (await call('GetPrograms', o.applicant, 'GET', 'Programs?Agency=demo'))],
    ['GetProjects', async () => void (await call('GetProjects', o.reviewer, 'GET', `${PROGRAM_PATH}/Projects?limit=50&offset=${Math.floor(o.random() * 200)}&version=2`))],
    ['GetForms', async () => void (await call('GetForms', o.applicant, 'GET', `${PROGRAM_PATH}/Forms`))],
    ['GetFormSchema', async () => void (await call('GetFormSchema', o.applicant, 'GET', `${PROGRAM_PATH}/Forms/${APPLICATION.form}/Schema?version=2`))],
    ['GetStatusList', async () => void (await call('GetStatusList', o.admin, 'GET', `${PROGRAM_PATH}/Statuses`))],
    ['GetProjectData', async () => {
      const id = pick(drafts) ?? pick(submitted)?.id;
      if (id) await call('GetProjectData', o.applicant, 'GET', `${PROGRAM_PATH}/Projects/${id}/Forms/${APPLICATION.form}/Draft/Data`);
    }],
    ['GetProjectsByNumber', async () => {
      const numbers = Array.from({ length: 5 }, () => pick(submitted)?.number).filter(Boolean);
      const body = `<ProjectByNumberRequest xmlns="${NS}">${numbers.map((n) => `<Project ProjectNumber="${n}"/>`).join('')}</ProjectByNumberRequest>`;
      await call('GetProjectsByNumber', o.reviewer, 'POST', `${PROGRAM_PATH}/Projects/ByNumber?version=2`, body);
    }],
    ['GetProjectsByData', async () => {
      const body = `<ProjectByDataRequest xmlns="${NS}"><FilterByCurrentStatuses Operation="Include"><Status Id="${APPLICATION.leadsTo}"/></FilterByCurrentStatuses>`
        + `<DataFields><Field Id="ModuleCount" Content="${Math.floor(o.random() * 500)}" Operator="gt"/><Field Id="CustomerName" Content="${escapeXml('second')}" Operator="contains"/></DataFields></ProjectByDataRequest>`;
      await call('GetProjectsByData', o.reviewer, 'POST', `${PROGRAM_PATH}/Projects/ByData?limit=20`, body);
    }],
    ['GetAllProjectData', async () => {
      const p = pick(submitted);
      if (p) await call('GetAllProjectData', o.admin, 'GET', `${PROGRAM_PATH}/Projects/${p.id}/Data`);
    }],
    ['GetProjectStatusHistory', async () => {
      const p = pick(submitted);
      if (p) await call('GetProjectStatusHistory', o.admin, 'GET', `${PROGRAM_PATH}/Projects/${p.id}/StatusHistory`);
    }],
    ['GetExportProject', async () => {
      const p = pick(submitted);
      if (p) await call('GetExportProject', o.admin, 'GET', `${PROGRAM_PATH}/Projects/${p.id}/Export?version=2`);
    }],
  ];
  const worker = async (index: number) => {
    const state: WorkerState = { n: 0, token: `S${index}w` };
    while (Date.now() < o.until && result.requests < o.maxRequests) {
      const roll = o.random();
      if (roll < 0.06) await newApplication(state);
      else if (roll < 0.08) await approve(state);
      else await reads[Math.floor(o.random() * reads.length)]![1](state);
    }
  };
  await Promise.all(Array.from({ length: o.workers }, (_, i) => worker(i)));
  latencies.sort((a, b) => a - b);
  result.p50 = latencies[Math.floor(latencies.length * 0.5)] ?? 0;
  result.p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
  return result;
}
