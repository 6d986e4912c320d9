import type { Generated } from './generate.ts';
import { staffScenarios } from './staff-scenarios.ts';
import { applicantScenarios } from './applicant-scenarios.ts';
import { demoHeaders, type Scenario, type Step } from './scenario-types.ts';

const NS = 'http://service.powerclerk.com/api/v1/';
const API = '/services/v2/Programs/RES-SOLAR';

function byNumber(numbers: string[], n: number): string {
  const list = numbers.slice(0, n);
  while (list.length < n) list.push(`SOLAR-${String(list.length + 900000).padStart(6, '0')}`);
  return `<ProjectByNumberRequest xmlns="${NS}">${list.map((x) => `<Project ProjectNumber="${x}"/>`).join('')}</ProjectByNumberRequest>`;
}

/** A complete Application draft of the demo program. */
export const DRAFT = `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${Object.entries({
  CustomerName: 'Jordan Rivera', CustomerEmail: 'jordan@example.org', ServiceAddress: '12 Sunny Lane', UtilityAccountNumber: '8832-1190-4471',
  ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6.0', ModuleCount: '19', InverterMake: 'ENPHASE', MountingType: 'Roof',
  HasBattery: 'false', InstallerName: 'Bright Roofs Solar LLC',
}).map(([k, v]) => `<DataField DataFieldId="${k}" Value="${v}"/>`).join('')}</DataFields></Project></ProjectDataRequest>`;

export const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

async function createProject(base: string): Promise<string> {
  const res = await fetch(`${base}${API}/NewProject`, { method: 'POST', headers: demoHeaders('applicant') });
  const id = /ProjectId="([^"]+)"/.exec(await res.text())?.[1];
  if (!id) throw new Error('NewProject gave no ProjectId');
  return id;
}

// The applicant cycle; an upload step is added when the program requires the site plan (once attachments exist).
async function cycleSteps(base: string): Promise<Step[]> {
  const xml = { 'content-type': 'application/xml', ...demoHeaders('applicant') };
  const steps: Step[] = [
    { method: 'POST', path: `${API}/NewProject`, headers: demoHeaders('applicant') },
    { method: 'POST', path: `${API}/Projects/{project}/Forms/Application/Draft/Data`, body: DRAFT, headers: xml, usesProject: true },
  ];
  const upload: Step = {
    method: 'POST', path: `${API}/Projects/{project}/Forms/Application/Attachments/SitePlan`, body: PDF, usesProject: true,
    headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="site-plan.pdf"', ...demoHeaders('applicant') },
  };
  const submit: Step = { method: 'POST', path: `${API}/Projects/{project}/Forms/Application/Draft/Submit`, headers: demoHeaders('applicant'), usesProject: true };
  const probe = await createProject(base);
  await fetch(`${base}${steps[1]!.path.replace('{project}', probe)}`, { method: 'POST', headers: xml, body: DRAFT });
  const tried = await fetch(`${base}${submit.path.replace('{project}', probe)}`, { method: 'POST', headers: demoHeaders('applicant') });
  const needsUpload = tried.status === 422 && (await tried.text()).includes('ATTACHMENT_REQUIRED');
  return [...steps, ...(needsUpload ? [upload] : []), submit];
}

/** Opens an inquiry thread on a project (as the demo admin) and returns its id. */
async function openThread(base: string, project: string): Promise<string> {
  const body = `<SetInquiryNoteRequest xmlns="${NS}" Subject="Meter access" VisibleToApplicant="true"><Text>Is the meter behind a locked gate?</Text></SetInquiryNoteRequest>`;
  const res = await fetch(`${base}${API}/Projects/${project}/InquiryNotes`, { method: 'POST', headers: { 'content-type': 'application/xml', ...demoHeaders('admin') }, body });
  const id = /ThreadId="([^"]+)"/.exec(await res.text())?.[1];
  if (!id) throw new Error(`SetInquiryNote gave no ThreadId (${res.status})`);
  return id;
}

/** The operations of the attachments, inquiry-thread and staff issues, on generated projects. */
async function laterScenarios(base: string, g: Generated, project: string, draftProject: string, cycle: Step[]): Promise<Scenario[]> {
  const admin = demoHeaders('admin');
  const xmlAdmin = { 'content-type': 'application/xml', ...admin };
  const get = (name: string, url: string): Scenario => ({ name, method: 'GET', url, headers: admin });
  const post = (name: string, url: string, body: string, headers: Record<string, string> = xmlAdmin): Scenario => ({ name, method: 'POST', url, headers, body });
  const thread = await openThread(base, project);
  const withFile = g.sampleAttachmentProjectIds[Math.floor(g.sampleAttachmentProjectIds.length / 2)];
  const files: Scenario[] = withFile === undefined ? [] : [
    get('GetActiveAttachment', `${API}/Projects/${withFile}/Attachments/SitePlan`),
    get('GetAttachmentAsAdmin', `${API}/Projects/${withFile}/Attachments/SitePlan/Versions/1`),
    get('GetAttachmentMetadata', `${API}/Projects/${withFile}/Attachments/SitePlan/Metadata`),
    post('SetAttachmentMetadata (Save)', `${API}/Projects/${withFile}/Attachments/SitePlan/Metadata`, `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Save" Note="Setbacks shown."/>`),
  ];
  const approve: Step = { method: 'POST', path: `${API}/Projects/{project}/Status`, body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>`, headers: xmlAdmin, usesProject: true };
  return [
    get('GetCustomListChoices', `${API}/CustomLists/InverterMakes/Choices`),
    ...files,
    post('SetProjectAttachment (2 KB PDF)', `${API}/Projects/${draftProject}/Forms/Application/Attachments/SitePlan`, PDF + '%'.repeat(2000), {
      'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="site-plan.pdf"', ...demoHeaders('applicant'),
    }),
    get('GetInquiryThreads', `${API}/Projects/${project}/InquiryThreads`),
    get('GetNotesInInquiryThread', `${API}/Projects/${project}/InquiryThreads/${thread}/Notes`),
    post('SetInquiryNote', `${API}/Projects/${project}/InquiryNotes`, `<SetInquiryNoteRequest xmlns="${NS}" ThreadId="${thread}"><Text>Noted, thank you.</Text></SetInquiryNoteRequest>`),
    post('SetAssignee', `${API}/Projects/${project}/Assignee`, `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>reviewer@demo.apas.local</AssigneeEmail></SetAssigneeRequest>`),
    post('SetProjectOwner', `${API}/Projects/${project}/Owner`, `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>applicant@demo.apas.local</OwnerEmail></SetProjectOwnerRequest>`),
    // SetProjectStatus needs a project in a status that allows the move, so it rides on a fresh submission.
    { name: `applicant cycle + SetProjectStatus (${cycle.length + 1} requests)`, method: 'POST', url: `${API}/NewProject`, headers: demoHeaders('applicant'), steps: [...cycle, approve] },
  ];
}

/**
 * The cursor (GetProjects' `after`) of the last page of 100: the next link of the page that ends just before it.
 * Found once with a deep offset; the scenario then reads the same page by cursor.
 */
async function lastPageCursor(base: string, g: Generated): Promise<string> {
  const res = await fetch(`${base}${API}/Projects?limit=1&offset=${Math.max(0, g.count - 101)}`, { headers: demoHeaders('admin') });
  const after = /[?&]after=([^&>]+)/.exec(res.headers.get('link') ?? '')?.[1];
  if (!after) throw new Error(`GetProjects gave no next link to start the last page at (${res.status})`);
  return after;
}

/**
 * The reads of the generated data that change nothing (so two servers on copies of one database keep equal data):
 * the catalogue, the project lists and searches, one project's data, history and export. `bench/against.ts` drives these.
 */
export async function readScenarios(base: string, g: Generated): Promise<Scenario[]> {
  const admin = demoHeaders('admin');
  const project = g.sampleProjectIds[Math.floor(g.sampleProjectIds.length / 2)]!;
  // Polling as integrations do it: the projects changed since the last poll, here the newest 1%.
  const recent = new Date(g.firstAt + Math.floor(g.spanMs * 0.99)).toISOString();
  const get = (name: string, url: string): Scenario => ({ name, method: 'GET', url, headers: admin });
  const post = (name: string, url: string, body: string): Scenario => ({ name, method: 'POST', url, headers: { 'content-type': 'application/xml', ...admin }, body });
  const byData = `<ProjectByDataRequest xmlns="${NS}"><FilterByCurrentStatuses Operation="Include"><Status Id="ApprovedForInstallation"/></FilterByCurrentStatuses><DataFields><Field Id="SystemSizeKwDc" Content="14" Operator="gt"/><Field Id="InverterMake" Content="SMA" Operator="eq"/></DataFields></ProjectByDataRequest>`;
  return [
    get('GetPrograms', '/services/v2/Programs?Agency=demo'),
    get('GetProjects limit=100', `${API}/Projects?limit=100`),
    get('GetProjects limit=1000', `${API}/Projects?limit=1000`),
    get('GetProjects limit=100 changed_since (1%)', `${API}/Projects?limit=100&changed_since=${encodeURIComponent(recent)}`),
    get('GetProjects limit=100 offset=end', `${API}/Projects?limit=100&offset=${Math.max(0, g.count - 100)}`),
    get('GetProjects limit=100 after=end', `${API}/Projects?limit=100&after=${await lastPageCursor(base, g)}`),
    post('GetProjectsByNumber 1', `${API}/Projects/ByNumber?version=2`, byNumber(g.sampleNumbers, 1)),
    post('GetProjectsByNumber 100', `${API}/Projects/ByNumber?version=2`, byNumber(g.sampleNumbers, 100)),
    post('GetProjectsByNumber 1000', `${API}/Projects/ByNumber?version=2`, byNumber(g.sampleNumbers, 1000)),
    get('GetProjectData', `${API}/Projects/${project}/Forms/Application/Data`),
    get('GetForms', `${API}/Forms`),
    get('GetFormSchema v2', `${API}/Forms/Application/Schema?version=2`),
    get('GetStatusList', `${API}/Statuses`),
    post('GetProjectsByData limit=100', `${API}/Projects/ByData?limit=100&version=2`, byData),
    get('GetAllProjectData', `${API}/Projects/${project}/Data`),
    get('GetProjectStatusHistory', `${API}/Projects/${project}/StatusHistory`),
    get('GetExportProject v2', `${API}/Projects/${project}/Export?version=2`),
  ];
}

/** Every scenario, with ids and numbers taken from the generated data. */
export async function scenarios(base: string, g: Generated): Promise<Scenario[]> {
  const project = g.sampleProjectIds[Math.floor(g.sampleProjectIds.length / 2)]!;
  const draftProject = await createProject(base);
  const cycle = await cycleSteps(base);
  const reads = await readScenarios(base, g);
  // The draft save sits after GetProjectData, where it always was in the results files.
  const afterData = reads.findIndex((s) => s.name === 'GetProjectData') + 1;
  const save: Scenario = {
    name: 'SetProjectData (draft)', method: 'POST', url: `${API}/Projects/${draftProject}/Forms/Application/Draft/Data`, body: DRAFT,
    headers: { 'content-type': 'application/xml', ...demoHeaders('applicant') },
  };
  return [
    ...reads.slice(0, afterData), save, ...reads.slice(afterData),
    { name: `applicant cycle (${cycle.length} requests)`, method: 'POST', url: `${API}/NewProject`, headers: demoHeaders('applicant'), steps: cycle },
    ...await laterScenarios(base, g, project, draftProject, cycle),
    // Another project than the one the write scenarios before it change: SetInquiryNote adds thousands of notes to
    // that one's thread in a run, and the review page shows every note.
    ...await staffScenarios(base, g, g.sampleProjectIds[Math.floor(g.sampleProjectIds.length / 3)] ?? project),
    ...await applicantScenarios(base, g),
  ];
}
