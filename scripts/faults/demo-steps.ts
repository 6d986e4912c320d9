import { type ApiAnswer, type ApiClient, ConnectionLost, escapeXml, NS, xmlAttr } from './api-client.ts';
import type { WriteJournal, WriteKind, WriteOutcome, WriteRecord } from './write-journal.ts';

/** The demo program, by custom id, as a path under /services/v2. */
export const PROGRAM_PATH = 'Programs/RES-SOLAR';

/** The demo's application form and the status submitting it leads to. */
export const APPLICATION = { form: 'Application', leadsTo: 'ApplicationReview', initial: 'Unsubmitted' } as const;

/** The smallest PDF that readers open: what a required attachment is satisfied with. */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A ProjectDataRequest setting single values, keyed by field custom id. */
export function dataRequestXml(values: Record<string, string>): string {
  const fields = Object.entries(values).map(([id, v]) => `<DataField DataFieldId="${escapeXml(id)}" Value="${escapeXml(v)}"/>`).join('');
  return `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields}</DataFields></Project></ProjectDataRequest>`;
}

/**
 * The two draft writes of a complete Application, unique to `token`: the second completes the form and
 * overwrites CustomerName, so that a verifier can tell which write a stored value came from.
 */
export function applicationDrafts(token: string, modules: number): [Record<string, string>, Record<string, string>] {
  return [
    {
      CustomerName: `First ${token}`, CustomerEmail: `${token.toLowerCase()}@example.org`, ServiceAddress: `${modules} Fault Street, ${token}`,
      UtilityAccountNumber: `ACCT-${token}`, SystemSizeKwDc: '7.6', ModuleCount: String(modules),
    },
    {
      CustomerName: `Second ${token}`, ServiceType: '1P-120-240', SystemSizeKwAc: '6', InverterMake: 'ENPHASE', MountingType: 'Roof',
      HasBattery: 'false', InstallerName: `Installer ${token}`, PlannedInstallDate: '2026-03-15',
    },
  ];
}

/**
 * Which attachments the server has said a submission needs (ATTACHMENT_REQUIRED), shared by the clients of a
 * run so that only the first submission learns it the hard way. Empty while uploads do not exist.
 */
export class AttachmentNeeds {
  readonly required = new Set<string>();
}

/** One step's answer and its journal record (a step without an answer throws ConnectionLost, recorded as lost). */
export interface StepResult { answer: ApiAnswer; record: WriteRecord }

// A refused connection is a request that never reached a server; anything else without an answer may have happened.
// A 503 that says the change "may or may not have been saved" (its COMMIT got no answer) is a lost write, not a refusal.
function answeredOutcome(answer: ApiAnswer, ok: boolean): WriteOutcome {
  if (ok) return 'acked';
  return answer.status === 503 && answer.body.includes('may or may not have been saved') ? 'lost' : 'refused';
}

function lostOutcome(error: ConnectionLost): Pick<WriteRecord, 'outcome' | 'code'> {
  return error.neverSent ? { outcome: 'refused', code: 'ECONNREFUSED' } : { outcome: 'lost' };
}

async function step(
  client: ApiClient, journal: WriteJournal, kind: WriteKind, projectId: string, method: string, path: string,
  extra: Partial<WriteRecord> = {}, options: Parameters<ApiClient['send']>[2] = {},
): Promise<StepResult> {
  let answer: ApiAnswer;
  try {
    answer = await client.send(method, path, options);
  } catch (error) {
    if (error instanceof ConnectionLost) journal.add({ kind, projectId, via: client.origin, ...extra, ...lostOutcome(error) });
    throw error;
  }
  const ok = answer.status >= 200 && answer.status < 300;
  const code = ok ? undefined : xmlAttr(answer.body, 'ErrorResponse', 'Code') ?? `HTTP ${answer.status}`;
  const record = journal.add({ kind, projectId, outcome: answeredOutcome(answer, ok), status: answer.status, via: client.origin, ...extra, ...(code ? { code } : {}) });
  return { answer, record };
}

/** CreateNewProject; the new project's id, or null when refused. Throws ConnectionLost (recorded) without an answer. */
export async function createProject(client: ApiClient, journal: WriteJournal): Promise<{ projectId: string | null; result: StepResult }> {
  let answer: ApiAnswer;
  try {
    answer = await client.send('POST', `${PROGRAM_PATH}/NewProject`);
  } catch (error) {
    if (error instanceof ConnectionLost) journal.add({ kind: 'create', projectId: '', via: client.origin, ...lostOutcome(error) });
    throw error;
  }
  const projectId = answer.status === 200 ? xmlAttr(answer.body, 'Project', 'ProjectId') ?? null : null;
  const code = projectId ? undefined : xmlAttr(answer.body, 'ErrorResponse', 'Code') ?? `HTTP ${answer.status}`;
  const record = journal.add({ kind: 'create', projectId: projectId ?? '', outcome: answeredOutcome(answer, projectId !== null), status: answer.status, via: client.origin, ...(code ? { code } : {}) });
  return { projectId, result: { answer, record } };
}

/** SetProjectData on the Application draft. */
export function writeDraft(client: ApiClient, journal: WriteJournal, projectId: string, values: Record<string, string>): Promise<StepResult> {
  return step(client, journal, 'draft', projectId, 'POST', `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Draft/Data`, { values }, { body: dataRequestXml(values) });
}

/** Uploads a PDF (the tiny one unless `pdf` is given) as one attachment of the Application form. */
export function uploadPdf(client: ApiClient, journal: WriteJournal, projectId: string, attachment: string, pdf: Buffer = TINY_PDF): Promise<StepResult> {
  return step(client, journal, 'attach', projectId, 'POST', `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Attachments/${encodeURIComponent(attachment)}`, { target: attachment }, {
    body: pdf, contentType: 'application/pdf', headers: { 'content-disposition': `attachment; filename="${attachment.toLowerCase()}.pdf"` },
  });
}

/** The attachments a FORM_INCOMPLETE answer says are missing (their custom ids, else their ids). */
export function missingAttachments(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/<[\w:.-]+\s[^>]*Code="ATTACHMENT_REQUIRED"[^>]*>/g)) {
    const ref = /\sCustomId="([^"]+)"/.exec(m[0]) ?? /\s(?:AttachmentId|DataFieldId)="([^"]+)"/.exec(m[0]);
    if (ref) out.push(ref[1]!);
  }
  return out;
}

/**
 * SubmitProject of the Application. Uploads the attachments the server is known to require first; if it
 * answers FORM_INCOMPLETE with ATTACHMENT_REQUIRED, uploads those (the SitePlan when it names none) and
 * submits once more. The final submission's result; earlier attempts stay in the journal as refused.
 */
export async function submitApplication(client: ApiClient, journal: WriteJournal, projectId: string, needs: AttachmentNeeds): Promise<StepResult> {
  for (const attachment of needs.required) await uploadPdf(client, journal, projectId, attachment);
  const path = `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Draft/Submit`;
  const first = await submitStep(client, journal, projectId, path);
  if (first.answer.status !== 422 || !first.answer.body.includes('ATTACHMENT_REQUIRED')) return first;
  const missing = missingAttachments(first.answer.body);
  for (const attachment of missing.length > 0 ? missing : ['SitePlan']) {
    needs.required.add(attachment);
    await uploadPdf(client, journal, projectId, attachment);
  }
  return submitStep(client, journal, projectId, path);
}

async function submitStep(client: ApiClient, journal: WriteJournal, projectId: string, path: string): Promise<StepResult> {
  const result = await step(client, journal, 'submit', projectId, 'POST', path);
  const number = result.record.outcome === 'acked' ? xmlAttr(result.answer.body, 'Project', 'ProjectNumber') : undefined;
  if (number) result.record.number = number;
  return result;
}

/** SetProjectStatus (admins) to a status custom id; a numbering move's number is read back later. */
export function setStatus(client: ApiClient, journal: WriteJournal, projectId: string, target: string): Promise<StepResult> {
  return step(client, journal, 'status', projectId, 'POST', `${PROGRAM_PATH}/Projects/${projectId}/Status`, { target }, {
    body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="${escapeXml(target)}"/>`,
  });
}

/** GetProjects as the client, every page: project id → number (null when it has none). */
export async function listProjects(client: ApiClient): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (let offset = 0; ; offset += 1000) {
    const answer = await client.send('GET', `${PROGRAM_PATH}/Projects?limit=1000&offset=${offset}`);
    if (answer.status !== 200) throw new Error(`GetProjects answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    const projects = [...answer.body.matchAll(/<Project\s[^>]*>/g)].map((m) => m[0]);
    for (const p of projects) out.set(xmlAttr(p, 'Project', 'ProjectId')!, xmlAttr(p, 'Project', 'ProjectNumber') ?? null);
    if (projects.length < 1000) return out;
  }
}
