import assert from 'node:assert/strict';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DEMO, type WebServer } from '../support/browser.ts';
import { attr, NS } from '../support/http-harness.ts';

/** The demo program's complete application (as in test/http/demo-workflow.test.ts). */
export const APPLICATION: Record<string, string> = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', CustomerPhone: '555-0100', ServiceAddress: '1 Sunny Lane, Springfield',
  UtilityAccountNumber: 'ACCT-998877', MeterNumber: 'M-123456', ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6',
  ModuleCount: '19', InverterMake: 'ENPHASE', InverterModel: 'IQ8PLUS', MountingType: 'Roof', HasBattery: 'false',
  InstallerName: 'Bright Solar LLC', InstallerLicense: 'C-46 123456', PlannedInstallDate: '2026-03-15',
};

/** A file name and an installer name with markup, which the pages must show as text. */
export const HOSTILE = { fileName: '<img src=x onerror=alert(1)>.pdf', installer: '<script>alert("x")</script> Roofs' } as const;

const SITE_PLAN = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const xmlAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A reader of the demo program, made for the tests (the demo has none). */
export const READER = { email: 'reader@demo.apas.local', password: 'demo-reader-password', name: 'Robin Reader' } as const;

/** Creates READER with the reader role in the demo program. */
export async function addReader(server: WebServer): Promise<void> {
  const accounts = new AccountService({ store: server.store, clock: systemClock, ids: new RandomIdGenerator() });
  await accounts.createUser({ agency: 'demo', email: READER.email, name: READER.name, password: READER.password });
  await accounts.grant(READER.email, 'RES-SOLAR', 'reader');
}

/**
 * Applies through the API as the demo applicant: a new project, the complete application (with `overrides`), the
 * site plan uploaded under a file name with markup, and the submission. Returns the project's id and number.
 */
export async function submitApplication(server: WebServer, overrides: Record<string, string> = {}): Promise<{ projectId: string; number: string }> {
  const who = DEMO.applicant;
  const api = `${server.baseUrl}/services/v2/Programs/RES-SOLAR`;
  const headers = { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey };
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${api}/${path}`, { method: 'POST', ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    const body = await res.text();
    assert.equal(res.status, 200, `${path}: ${body}`);
    return body;
  };
  const projectId = attr(await call('NewProject'), 'Project', 'ProjectId')!;
  const fields = Object.entries({ ...APPLICATION, ...overrides }).map(([id, v]) => `<DataField DataFieldId="${id}" Value="${xmlAttr(v)}"/>`).join('');
  await call(`Projects/${projectId}/Forms/Application/Draft/Data`, {
    body: `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields}</DataFields></Project></ProjectDataRequest>`, headers: { 'content-type': 'application/xml' },
  });
  await call(`Projects/${projectId}/Forms/Application/Attachments/SitePlan`, {
    body: SITE_PLAN, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${HOSTILE.fileName}"` },
  });
  const number = attr(await call(`Projects/${projectId}/Forms/Application/Draft/Submit`), 'Project', 'ProjectNumber')!;
  return { projectId, number };
}
