import type { Generated } from './generate.ts';
import { demoHeaders, type Scenario } from './scenario-types.ts';

const MY = '/MvcProjects/MyProjects?ProgramId=RES-SOLAR';

/**
 * A cursor into the middle of the demo applicant's My projects (last change, newest first): the key of the project
 * GetProjects lists at the middle offset. The cursor format is My projects' own (base64url of [1, program id, time, id]).
 */
async function middleCursor(base: string, g: Generated): Promise<string> {
  const res = await fetch(`${base}/services/v2/Programs/RES-SOLAR/Projects?limit=1&offset=${Math.floor(g.count / 2)}`, { headers: demoHeaders('admin') });
  const body = await res.text();
  const id = /ProjectId="([^"]+)"/.exec(body)?.[1];
  const at = /LastChangeTimestamp="([^"]+)"/.exec(body)?.[1];
  if (!id || !at) throw new Error(`GetProjects gave no project to start the deep page at (${res.status})`);
  return Buffer.from(JSON.stringify([1, g.programId, Date.parse(at), id])).toString('base64url');
}

/**
 * The applicant's My projects page (issue 22 item 5). The generated projects all belong to the demo applicant, so
 * the owner here has every project of the program: the unfiltered pages and the drafts filter read a page's worth of
 * the owner index; a search reads the owner's projects until a page is full (all of them for a rare text).
 */
export async function applicantScenarios(base: string, g: Generated): Promise<Scenario[]> {
  const headers = { authorization: demoHeaders('applicant').authorization! };
  const get = (name: string, url: string): Scenario => ({ name, method: 'GET', url, headers });
  return [
    get('Web My projects first page', MY),
    get('Web My projects deep page by cursor', `${MY}&After=${await middleCursor(base, g)}`),
    get('Web My projects drafts filter', `${MY}&Show=drafts`),
    get('Web My projects search (common text)', `${MY}&q=sunny`),
  ];
}
