import { DEMO_CREDENTIALS } from '../src/domain/programs/demo.ts';
import { demoHeaders } from './scenario-types.ts';

/** What one bulk assign cost: the whole request (every project's change step) and per project. */
export interface BulkAssignFigures {
  projects: number; rounds: number; msEach: number[]; p50Ms: number; maxMs: number; msPerProject: number;
  /** The same change one request at a time: SetAssignee (API) on 50 of the projects, sequentially, the median. */
  singleSetAssigneeMs: number;
}

const API = '/services/v2/Programs/RES-SOLAR';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * Bulk-assigns `count` projects in Application Review through the work queue's bulk form (POST /Projects/ProjectList/Bulk, as a browser
 * posts it, with the page's CSRF token and a new key each round), `rounds` times one after the other, alternating
 * between the demo's two reviewers so that every project changes every round. The request answers once every
 * project's change has committed, so its time is the action's.
 */
export async function measureBulkAssign(base: string, count = 500, rounds = 3): Promise<BulkAssignFigures> {
  // Projects in review, as reviewers assign them: a draft (no values) assigned here would rise to the top of the
  // queue's last-change order and make later runs' filtered reads walk past it, which no real queue looks like.
  const res = await fetch(`${base}${API}/Projects?limit=${count * 2}&offset=0`, { headers: demoHeaders('admin') });
  const ids = [...(await res.text()).matchAll(/<Project ProjectId="([^"]+)"[^>]*? Status="Application Review"/g)].map((m) => m[1]!).slice(0, count);
  if (ids.length < count) throw new Error(`GetProjects gave ${ids.length} projects in Application Review, ${count} wanted (${res.status})`);
  const basic = { authorization: demoHeaders('admin').authorization! };
  const queue = await fetch(`${base}/Projects/ProjectList?ProgramId=RES-SOLAR`, { headers: basic });
  const html = await queue.text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = queue.headers.getSetCookie().find((c) => c.startsWith('_csrf='))?.split(';')[0];
  if (!token || !cookie) throw new Error(`the work queue gave no CSRF token (${queue.status})`);
  const reviewers = DEMO_CREDENTIALS.filter((c) => c.role === 'reviewer' || c.role === 'plan reviewer').map((c) => c.email);
  const msEach: number[] = [];
  // Round 0 warms up and leaves every project with the first reviewer (the generated data has some assigned already,
  // which it would find unchanged); each timed round then changes every project.
  for (let round = 0; round <= rounds; round++) {
    const form = new URLSearchParams({ _csrf: token, ProgramId: 'RES-SOLAR', BulkKey: `bench-${Date.now()}-${round}`, Action: 'assign', Scope: 'selected', Email: reviewers[round % 2]! });
    for (const id of ids) form.append('ProjectId', id);
    const started = performance.now();
    const answer = await fetch(`${base}/Projects/ProjectList/Bulk`, {
      method: 'POST', body: form.toString(), redirect: 'manual', headers: { ...basic, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const ms = performance.now() - started;
    if (answer.status !== 303) throw new Error(`the bulk assign answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
    const result = await fetch(`${base}${answer.headers.get('location')}`, { headers: basic });
    const summary = /<p id="bulk-summary">([^<]*)<\/p>/.exec(await result.text())?.[1] ?? '';
    if (round === 0) {
      if (!summary.endsWith(' 0 refused.')) throw new Error(`the warm-up bulk assign refused projects: ${summary}`);
      continue;
    }
    if (!summary.startsWith(`${count} done`)) throw new Error(`the bulk assign did not change every project: ${summary}`);
    msEach.push(ms);
  }
  const p50 = median(msEach);
  const single: number[] = [];
  for (const [i, id] of ids.slice(0, 50).entries()) {
    const body = `<SetAssigneeRequest xmlns="http://service.powerclerk.com/api/v1/"><AssigneeEmail>${reviewers[(rounds + 1 + i) % 2]}</AssigneeEmail></SetAssigneeRequest>`;
    const started = performance.now();
    const answer = await fetch(`${base}${API}/Projects/${id}/Assignee`, { method: 'POST', body, headers: { ...demoHeaders('admin'), 'content-type': 'application/xml' } });
    await answer.text();
    single.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`SetAssignee answered ${answer.status}`);
  }
  return { projects: count, rounds, msEach, p50Ms: p50, maxMs: Math.max(...msEach), msPerProject: p50 / count, singleSetAssigneeMs: median(single) };
}
