import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createApasClient } from '../../src/client/apas-client.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The shell blocks of one README section, in order. */
function shellBlocks(section: string): string[] {
  const body = README.split(`## ${section}`)[1]?.split('\n## ')[0] ?? '';
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

let server: ChildProcess;
let port: number;
let dir: string;
let log = '';

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-readme-'));
  port = await freePort();
  // The quick start's server, as `npm start` runs it, on a port of its own.
  server = spawn(process.execPath, ['bin/apas.js', 'serve', '--demo'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: path.join(dir, 'apas.db'), APAS_PORT: String(port), APAS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (log += d));
  server.stderr?.on('data', (d) => (log += d));
  // Up to a minute: the demo's argon2 hashes are slow on a loaded CI machine.
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not start:\n${log}`);
});

after(async () => {
  // The server may still be writing files (the demo renders its documents after an approval): let it end first.
  const exited = server && server.exitCode === null ? new Promise((resolve) => server.once('exit', resolve)) : Promise.resolve();
  server?.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the demo credentials printed at start are the ones in the README', () => {
  for (const key of log.match(/apas_[0-9A-Z]{12}_[0-9A-Za-z]+/g) ?? []) assert.ok(README.includes(key), `README lacks ${key}`);
  assert.match(log, /applicant@demo\.apas\.local/);
});

test('the README walk-through works verbatim: create, fill, submit, find', () => {
  const script = ['set -euo pipefail', ...shellBlocks('Walk-through with curl')].join('\n').replaceAll('localhost:8080', `localhost:${port}`);
  const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `the walk-through failed:\n${run.stderr}\n${run.stdout}`);
  const out = run.stdout;
  // The applicant's programs: the interconnection and the demo's incentive claims.
  assert.match(out, /<ProgramsResponse[^>]*>(<Program [^>]*\/>)*<Program ProgramId="[0-9A-Z]{12}" ProgramName="Residential Solar Interconnection"\/>/);
  assert.match(out, /<ProgramsResponse[^>]*>(<Program [^>]*\/>)*<Program ProgramId="[0-9A-Z]{12}" ProgramName="Solar Incentive Claim"\/>/);
  assert.match(out, /<ProjectDataSetResponse[\s\S]*?CanSubmit="true"/);
  // The demo's five sample applications (programs/demo-projects.csv) have the first numbers.
  assert.match(out, /<ProjectSubmitResponse[\s\S]*?ProjectNumber="SOLAR-00006"[\s\S]*?Name="Application Review"/);
  const found = out.match(/<ProjectsResponse[^>]*SchemaVersion="2.0"[\s\S]*?<\/ProjectsResponse>/g) ?? [];
  assert.equal(found.length, 2, 'GetProjects and GetProjectsByNumber each find the project');
  for (const f of found) assert.match(f, /ProjectNumber="SOLAR-00006"/);
  assert.doesNotMatch(found[1]!, /ProjectNumber="SOLAR-0000[1-5]"/, 'GetProjectsByNumber finds that project only');
  assert.match(out, /<ProjectDataGetResponse[\s\S]*?DataView="Submitted"[\s\S]*?Value="Jordan Rivera"/);
  assert.match(out, /<StatusListResponse[\s\S]*?Name="Permission to Operate"/);
  assert.match(out, /<StatusSetResponse[^>]*><Status [^>]*CustomId="ApprovedForInstallation"/);
  // The site plan the walk-through makes with printf, uploaded, approved and downloaded.
  const sitePlan = createHash('sha256').update('%PDF-1.4\n% site plan\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').digest('hex');
  assert.match(out, new RegExp(`<AttachmentMetadataResponse[^>]*><AttachmentMetadata [^>]*FileName="site-plan.pdf"[^>]*Sha256="${sitePlan}" Version="1"[^>]*ApprovalStatus="Pending"`));
  assert.match(out, /<AttachmentMetadata [^>]*Version="1"[^>]*ApprovalStatus="Approved" Note="Setbacks shown."/);
  assert.match(out, /HTTP\/1.1 200 OK\r\n[\s\S]*?content-type: application\/pdf/i);
  assert.match(out, new RegExp(`etag: "${sitePlan}"`, 'i'));
  assert.match(out, /content-disposition: attachment; filename="site-plan.pdf"/i);
  assert.match(out, /<ProjectStatusHistoryResponse[\s\S]*?Name="Approved for Installation"[\s\S]*?Name="Application Review"[\s\S]*?Name="Unsubmitted"/);
});

test('the OAuth curl example of docs/interface.md works verbatim against the demo: a token, a bearer request, revocation', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'interface.md'), 'utf8');
  const section = doc.split('### Example with curl')[1]?.split('\n## ')[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'docs/interface.md has the OAuth curl example');
  // After the example: the revoked token is refused.
  const check = 'curl -s -o /dev/null -w "after revocation: %{http_code}\\n" -H "Authorization: Bearer $TOKEN" -H "$KEY" "$API/Programs/RES-SOLAR/Projects?limit=10"';
  const script = ['set -euo pipefail', block, check].join('\n').replaceAll('localhost:8080', `localhost:${port}`);
  const run = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, DATABASE_URL: path.join(dir, 'apas.db') } });
  assert.equal(run.status, 0, `the example failed:\n${run.stderr}\n${run.stdout}`);
  assert.match(run.stdout, /<ProjectsResponse [^>]*SchemaVersion="1.0"/, 'the bearer request is answered');
  assert.match(run.stdout, /after revocation: 401\n$/);
});

test('the README walk-through in JSON works verbatim with bearer tokens', () => {
  const script = ['set -euo pipefail', ...shellBlocks('Walk-through in JSON with a bearer token')].join('\n').replaceAll('localhost:8080', `localhost:${port}`);
  const run = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, DATABASE_URL: path.join(dir, 'apas.db') } });
  assert.equal(run.status, 0, `the JSON walk-through failed:\n${run.stderr}\n${run.stdout}`);
  const out = run.stdout;
  assert.match(out, /"Program":\[(\{[^}]*\},)*\{"ProgramId":"[0-9A-Z]{12}","ProgramName":"Residential Solar Interconnection"\}/);
  assert.match(out, /\{"AttachmentMetadata":\{[^}]*"FileName":"site-plan.pdf"[^}]*"ApprovalStatus":"Pending"/);
  assert.match(out, /\{"Project":\{[^{]*"CanSubmit":true[^{]*"DataView":"Draft"/);
  const number = /(SOLAR-\d{5})\n/.exec(out)?.[1];
  assert.ok(number, `the submission printed its number:\n${out}`);
  const found = out.match(/\{"SchemaVersion":2,"RequestTimestamp":"[^"]+","Projects":\{"Project":\[[^\]]*\]\}\}/g) ?? [];
  assert.equal(found.length, 2, 'GetProjects and GetProjectsByNumber answer in JSON');
  for (const f of found) assert.ok(f.includes(`"ProjectNumber":"${number}"`), f);
  assert.match(out, /"DataView":"Submitted"[^\n]*"Value":"Jordan Rivera"|"Value":"Jordan Rivera"[^\n]*"DataView":"Submitted"/);
  assert.match(out, /"CustomId":"ApprovedForInstallation"/);
  assert.match(out, /"ApprovalStatus":"Approved","Note":"Setbacks shown."/);
  assert.match(out, /"StatusHistory":\{"Status":\[\{[^\]]*"Name":"Approved for Installation"[^\]]*"Name":"Application Review"[^\]]*"Name":"Unsubmitted"/);
  assert.doesNotMatch(out, /<\?xml|ErrorResponse|"Code":"/, 'every answer is JSON and none is an error');
});

/** A bearer token of the demo's OAuth client, as the README's JSON walk-through gets one (the token endpoint). */
async function bearerToken(id: string, secret: string, apiKey: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/services/v2/oauth/token`, {
    method: 'POST', body: 'grant_type=client_credentials',
    headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`, 'x-apikey': apiKey, 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { access_token: string }).access_token;
}

test('the typed client (apas/client) drives the README walk-through in JSON with bearer tokens', async () => {
  const baseUrl = `http://127.0.0.1:${port}`;
  const applicantKey = 'apas_DEMOAPPLCNT0_demoApplicantKeyDemoApplicantKey1';
  const adminKey = 'apas_DEMOADMIN000_demoAdminKeyDemoAdminKeyDemoAdmin1';
  const applicant = createApasClient({ baseUrl, apiKey: applicantKey, credentials: { bearerToken: await bearerToken('DEMAPPCNTCL0', 'demoApplicantClientSecretDemoApplicant12', applicantKey) } });
  const admin = createApasClient({ baseUrl, apiKey: adminKey, credentials: { bearerToken: await bearerToken('DEMADMNCL000', 'demoAdminClientSecretDemoAdminClientSec1', adminKey) } });

  const programs = await applicant.GET('/services/v2/Programs', { params: { query: { Agency: 'demo' } } });
  assert.deepEqual(programs.data?.Program.map((p) => p.ProgramName).sort(), ['Residential Solar Interconnection', 'Solar Incentive Claim'], JSON.stringify(programs.error));
  const created = await applicant.POST('/services/v2/Programs/{ProgramId}/NewProject', { params: { path: { ProgramId: 'RES-SOLAR' } } });
  const projectId = created.data?.Project.ProjectId;
  assert.ok(projectId, JSON.stringify(created.error));
  const form = { ProgramId: 'RES-SOLAR', ProjectId: projectId, FormId: 'Application' };
  const sitePlan = '%PDF-1.4\n% site plan\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';
  const upload = await applicant.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Attachments/{AttachmentId}', {
    params: { path: { ...form, AttachmentId: 'SitePlan' } }, body: sitePlan, bodySerializer: (body: string) => body,
    headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="site-plan.pdf"' },
  });
  assert.equal(upload.data?.AttachmentMetadata.ApprovalStatus, 'Pending', JSON.stringify(upload.error));
  const values: Record<string, string> = {
    CustomerName: 'Jordan Rivera', CustomerEmail: 'jordan@example.org', ServiceAddress: '12 Sunny Lane, Springfield',
    UtilityAccountNumber: '8832-1190-4471', ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6.0', ModuleCount: '19',
    InverterMake: 'ENPHASE', MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Roofs Solar LLC',
  };
  const draft = await applicant.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data', {
    params: { path: form }, body: { Project: { DataFields: { DataField: Object.entries(values).map(([DataFieldId, Value]) => ({ DataFieldId, Value })) } } },
  });
  assert.equal(draft.data?.Project.CanSubmit, true, JSON.stringify(draft.error));
  const submitted = await applicant.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Submit', { params: { path: form } });
  const number = submitted.data?.Project.ProjectNumber;
  assert.match(number ?? '', /^SOLAR-\d{5}$/, JSON.stringify(submitted.error));
  assert.equal(submitted.data?.Project.CurrentStatus.Name, 'Application Review');

  const listed = await applicant.GET('/services/v2/Programs/{ProgramId}/Projects', { params: { path: { ProgramId: 'RES-SOLAR' }, query: { limit: 10, version: 2 } } });
  assert.ok(listed.data && 'Projects' in listed.data && listed.data.Projects.Project.some((p) => p.ProjectNumber === number), JSON.stringify(listed.data ?? listed.error));
  const byNumber = await applicant.POST('/services/v2/Programs/{ProgramId}/Projects/ByNumber', {
    params: { path: { ProgramId: 'RES-SOLAR' }, query: { version: 2 } }, body: { Project: [{ ProjectNumber: number! }] },
  });
  assert.deepEqual(byNumber.data?.Projects.Project.map((p) => p.ProjectId), [projectId], JSON.stringify(byNumber.error));
  const data = await applicant.GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Data', { params: { path: form } });
  assert.equal(data.data?.Project.DataView, 'Submitted');
  assert.equal(data.data?.Project.DataFields.DataField.find((f) => f.CustomId === 'CustomerName')?.Value, 'Jordan Rivera');

  const project = { ProgramId: 'RES-SOLAR', ProjectId: projectId };
  const status = await admin.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Status', { params: { path: project }, body: { StatusId: 'ApprovedForInstallation' } });
  assert.equal(status.data?.Status.CustomId, 'ApprovedForInstallation', JSON.stringify(status.error));
  const review = await admin.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Attachments/{AttachmentId}/Metadata', {
    params: { path: { ...project, AttachmentId: 'SitePlan' } }, body: { AttachmentStatus: 'Approve', Note: 'Setbacks shown.' },
  });
  assert.equal(review.data?.AttachmentMetadata.ApprovalStatus, 'Approved', JSON.stringify(review.error));
  const history = await admin.GET('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/StatusHistory', { params: { path: project } });
  assert.deepEqual(history.data?.Project.StatusHistory.Status.map((s) => s.CustomId), ['ApprovedForInstallation', 'ApplicationReview', 'Unsubmitted']);

  // A refused request comes back as the ErrorResponse object, typed.
  const refused = await applicant.POST('/services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Status', { params: { path: project }, body: { StatusId: 'Withdrawn' } });
  assert.equal(refused.response.status, 403);
  assert.equal(refused.error?.Code, 'FORBIDDEN');
});
