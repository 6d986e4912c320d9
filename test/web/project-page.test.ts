import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';

// The project page and the home page in a real browser, and what must never work: markup that users typed running as
// script, another applicant reaching someone's project through any page, and posts without the page's CSRF token.

const NS = 'http://service.powerclerk.com/api/v1/';
/** Markup that would change the title (or open a dialog) if it ever ran. */
const HOSTILE = `<script>document.title="pwned"</script><img src=x onerror="document.title='pwned';alert(1)">`;
const HOSTILE_FILE = `<img src=x onerror="alert(1)">.pdf`;

type Account = { email: string; password: string; apiKey?: string };

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Calls the API as a demo account (Basic and X-ApiKey). */
async function api(server: WebServer, who: Account, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.baseUrl}/services/v2/Programs/RES-SOLAR${path}`, {
    method, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    headers: {
      authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey ?? '',
      ...(typeof body === 'string' ? { 'content-type': 'application/xml' } : {}), ...headers,
    },
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return text;
}

const COMPLETE: Record<string, string> = {
  CustomerEmail: 'jordan@example.org', ServiceAddress: '12 Sunny Lane', UtilityAccountNumber: '8832-1190-4471', ServiceType: '1P-120-240',
  SystemSizeKwDc: '7.6', SystemSizeKwAc: '6.0', ModuleCount: '19', InverterMake: 'ENPHASE', MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Roofs',
};

/** A project of the demo applicant through the API: a draft with `customerName`, and when `submit`, the site plan uploaded and the form submitted. */
async function applicantProject(server: WebServer, customerName: string, submit: boolean): Promise<string> {
  const created = await api(server, DEMO.applicant, 'POST', '/NewProject');
  const projectId = /ProjectId="([^"]+)"/.exec(created)![1]!;
  const fields = Object.entries({ ...COMPLETE, CustomerName: customerName }).map(([id, v]) => `<DataField DataFieldId="${id}" Value="${xml(v)}"/>`).join('');
  await api(server, DEMO.applicant, 'POST', `/Projects/${projectId}/Forms/Application/Draft/Data`,
    `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields}</DataFields></Project></ProjectDataRequest>`);
  if (submit) {
    await api(server, DEMO.applicant, 'POST', `/Projects/${projectId}/Forms/Application/Attachments/SitePlan`, TINY_PDF, {
      'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(HOSTILE_FILE)}`,
    });
    await api(server, DEMO.applicant, 'POST', `/Projects/${projectId}/Forms/Application/Draft/Submit`);
  }
  return projectId;
}

/** Opens a thread with a note the applicant sees, as the demo admin. */
async function askApplicant(server: WebServer, projectId: string, subject: string, text: string): Promise<void> {
  await api(server, DEMO.admin, 'POST', `/Projects/${projectId}/InquiryNotes`,
    `<SetInquiryNoteRequest xmlns="${NS}" Subject="${xml(subject)}" VisibleToApplicant="true"><Text>${xml(text)}</Text></SetInquiryNoteRequest>`);
}

/** Fails the test if any script of the page opens a dialog or changes the title. */
function watchForScript(page: Page): () => Promise<void> {
  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return async () => {
    assert.deepEqual(dialogs, [], 'no script opened a dialog');
    assert.doesNotMatch(await page.title(), /pwned/);
  };
}

/** Everything a refused request could have changed about a project. */
async function projectState(server: WebServer, projectId: string) {
  const program = (await server.store.programs.findProgram(server.programId))!;
  const model = await server.store.programs.loadProgramModel(program);
  return {
    project: await server.store.projects.getProject(server.programId, projectId),
    drafts: await Promise.all(model.forms.map((f) => server.store.projects.getDraft(projectId, f.id))),
    files: await server.store.attachments.listActiveAttachments(projectId),
    threads: await server.store.inquiries.listThreads(projectId),
  };
}

describe('web: the project page', () => {
  let server: WebServer;
  let browser: Browser;
  let submitted: string;
  let draft: string;
  const other = { email: 'other-applicant@demo.apas.local', password: 'other-applicant-password' };
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    submitted = await applicantProject(server, HOSTILE, true);
    draft = await applicantProject(server, 'Casey Draft', false);
    await askApplicant(server, submitted, `Roof ${HOSTILE}`, `Please explain: ${HOSTILE}`);
    // A second applicant of the same program.
    const agency = (await server.store.accounts.findAgency('demo'))!;
    const passwordHash = await hashSecret(other.password);
    await server.store.transaction(async (tx) => {
      await tx.accounts.insertUser({ id: 'OTHERAPPLCNT', agencyId: agency.id, email: other.email, name: 'Olive Other', agencyAdmin: false, disabled: false }, passwordHash, Date.now());
      await tx.accounts.setGrant({ userId: 'OTHERAPPLCNT', programId: server.programId, role: 'applicant', sensitive: false });
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const projectUrl = (projectId: string) => `${server.baseUrl}/MvcProjects/LandingPage?ProgramId=${server.programId}&ProjectId=${projectId}`;

  it('shows markup in a field value, a file name and an inquiry note as text and runs none of it; the applicant replies', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const noScript = watchForScript(page);
    await signIn(page, server.baseUrl, DEMO.applicant);

    // My projects: what waits for the applicant on each project.
    const draftRow = page.getByRole('row', { name: /Draft/ });
    await draftRow.getByText('Interconnection Application: to complete').waitFor();
    const submittedRow = page.getByRole('row', { name: /SOLAR-\d{5}/ });
    await submittedRow.getByText(`Question to answer: Roof ${HOSTILE}`).waitFor();
    await assertAccessible(page);

    await submittedRow.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /SOLAR-\d{5}/ }).waitFor();
    await page.locator('dl.submitted').getByText(HOSTILE, { exact: true }).waitFor();
    await page.getByRole('link', { name: HOSTILE_FILE, exact: true }).waitFor();
    // A PDF: viewed in the browser too, by a link that names the file as text.
    await page.getByRole('link', { name: `View ${HOSTILE_FILE} in the browser`, exact: true }).waitFor();
    await page.getByText(`Please explain: ${HOSTILE}`, { exact: true }).waitFor();
    assert.equal(await page.locator('main script, main img').count(), 0, 'no element was made from what users typed');
    await noScript();
    await assertAccessible(page);

    await page.getByLabel(/Your reply to/).fill(`Sure: ${HOSTILE}`);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText(`Sure: ${HOSTILE}`, { exact: true }).waitFor();
    await page.getByRole('heading', { name: /\(Open\)/ }).waitFor();
    await noScript();
    await screenshot(page, 'project-questions');

    // The read-only form page shows the value as text too.
    await page.getByRole('link', { name: 'Interconnection Application' }).click();
    await page.getByText(HOSTILE, { exact: true }).waitFor();
    await noScript();
    await context.close();
  });

  it("never shows another applicant's project: its pages, form page, file and upload all answer 404 and change nothing", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, other);
    assert.equal(await page.getByRole('row', { name: /SOLAR-/ }).count(), 0, 'not on their home page');
    const before = await projectState(server, submitted);
    const program = (await server.store.programs.findProgram(server.programId))!;
    const model = await server.store.programs.loadProgramModel(program);
    const form = model.forms.find((f) => f.customId === 'Application')!;
    const sitePlan = form.attachments.find((a) => a.customId === 'SitePlan')!;
    const base = `${server.baseUrl}/MvcProjects/Programs/${server.programId}/Projects`;
    for (const [projectId, url] of [
      [submitted, projectUrl(submitted)], [draft, projectUrl(draft)], [draft, `${base}/${draft}/Forms/${form.id}`],
      [submitted, `${base}/${submitted}/Attachments/${sitePlan.id}`],
    ] as const) {
      const res = await page.goto(url);
      assert.equal(res?.status(), 404, url);
      assert.doesNotMatch(await page.content(), /Casey|SOLAR-\d|onerror/);
      assert.ok(projectId);
    }
    // With a token of their own session, posts to the project are still refused as if it did not exist.
    await page.goto(`${server.baseUrl}/MvcProjects/`);
    const token = (await page.locator('input[name=_csrf]').first().getAttribute('value'))!;
    const draftBefore = await projectState(server, draft);
    const upload = await page.request.post(`${base}/${draft}/Forms/${form.id}`, {
      multipart: { _csrf: token, [`file_${sitePlan.id}`]: { name: 'mine.pdf', mimeType: 'application/pdf', buffer: TINY_PDF }, action: `upload:${sitePlan.id}` },
    });
    assert.equal(upload.status(), 404);
    const save = await page.request.post(`${base}/${draft}/Forms/${form.id}`, { form: { _csrf: token, action: 'save' } });
    assert.equal(save.status(), 404);
    assert.deepEqual(await projectState(server, draft), draftBefore);
    assert.deepEqual(await projectState(server, submitted), before);
    await context.close();
  });

  it('refuses posts without the CSRF token (403) and changes nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.baseUrl, DEMO.applicant);
    const program = (await server.store.programs.findProgram(server.programId))!;
    const model = await server.store.programs.loadProgramModel(program);
    const form = model.forms.find((f) => f.customId === 'Application')!;
    const name = model.fields.find((f) => f.customId === 'CustomerName')!;
    const formUrl = `${server.baseUrl}/MvcProjects/Programs/${server.programId}/Projects/${draft}/Forms/${form.id}`;
    await page.goto(formUrl);
    await assertAccessible(page);
    const before = await projectState(server, draft);
    const save = await page.request.post(formUrl, { form: { [name.id]: 'Forged', action: 'save' } });
    assert.equal(save.status(), 403);
    const upload = await page.request.post(formUrl, {
      multipart: { [`file_${form.attachments[0]!.id}`]: { name: 'forged.pdf', mimeType: 'application/pdf', buffer: TINY_PDF }, action: `upload:${form.attachments[0]!.id}` },
    });
    assert.equal(upload.status(), 403);
    const start = await page.request.post(`${server.baseUrl}/MvcProjects/NewProject`, { form: { ProgramId: server.programId } });
    assert.equal(start.status(), 403);
    assert.deepEqual(await projectState(server, draft), before);
    assert.equal((await server.store.projects.listProjects({ programId: server.programId, limit: 100, offset: 0 })).length, 2, 'no project was started');
    await context.close();
  });
});
