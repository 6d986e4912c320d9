import type { Generated } from './generate.ts';
import { demoHeaders, type Scenario } from './scenario-types.ts';

const API = '/services/v2/Programs/RES-SOLAR';
const QUEUE = '/Projects/ProjectList?ProgramId=RES-SOLAR&size=100';
/** A reviewer's chosen columns: three data fields besides the queue's own, days in status and attention among them. */
const COLUMNS = ['applicant', 'status', 'field:CustomerName', 'field:SystemSizeKwAc', 'field:InverterMake', 'daysInStatus', 'lastApplicantActivity', 'nextDeadline', 'attention']
  .map((c) => `col=${encodeURIComponent(c)}`).join('&');

/**
 * A cursor into the middle of the queue (last change, newest first): the key of the project GetProjects lists at the
 * middle offset. The cursor format is the queue's own (base64url of [sort, direction, time, id]).
 */
async function middleCursor(base: string, g: Generated): Promise<string> {
  const res = await fetch(`${base}${API}/Projects?limit=1&offset=${Math.floor(g.count / 2)}`, { headers: demoHeaders('admin') });
  const body = await res.text();
  const id = /ProjectId="([^"]+)"/.exec(body)?.[1];
  const at = /LastChangeTimestamp="([^"]+)"/.exec(body)?.[1];
  if (!id || !at) throw new Error(`GetProjects gave no project to start the deep page at (${res.status})`);
  return Buffer.from(JSON.stringify(['updated', 'desc', Date.parse(at), id])).toString('base64url');
}

/** The staff web pages: the work queue (first page, deep page by cursor, status and data filters), the review page and the dashboard. */
export async function staffScenarios(base: string, g: Generated, project: string): Promise<Scenario[]> {
  // Web pages take the password alone (Basic), as webCaller accepts; no API key.
  const headers = { authorization: demoHeaders('admin').authorization! };
  const get = (name: string, url: string): Scenario => ({ name, method: 'GET', url, headers });
  return [
    get('Web work queue first page (100 rows)', QUEUE),
    get('Web work queue deep page by cursor', `${QUEUE}&cursor=${await middleCursor(base, g)}`),
    get('Web work queue status filter', `${QUEUE}&status=ApprovedForInstallation`),
    get('Web work queue data filter', `${QUEUE}&field=InverterMake&op=eq&value=SMA`),
    // Every page shows the bounded count (exact up to 1,000) and the needs-attention counts; these add chosen columns.
    get('Web work queue chosen data columns', `${QUEUE}&${COLUMNS}`),
    get('Web work queue needs attention, chosen columns', `${QUEUE}&attention=any&${COLUMNS}`),
    get('Web review page', `/MvcProjects/Programs/RES-SOLAR/Projects/${project}/Review`),
    // Every figure read from the summary counts (migration 036); charts of unchanged data are drawn once.
    get('Web dashboard (six figures)', '/Projects/Dashboard?ProgramId=RES-SOLAR'),
    get('Web dashboard figure CSV (cycle time)', '/Projects/Dashboard?ProgramId=RES-SOLAR&figure=cycle&format=csv'),
  ];
}
