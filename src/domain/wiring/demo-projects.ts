import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import type { Caller } from '../caller.ts';
import { ProjectImportService } from '../imports/project-import-service.ts';
import { DEMO_AGENCY, DEMO_CREDENTIALS } from '../programs/demo.ts';
import { RelationService } from '../relations/relation-service.ts';
import { changeReactions } from './change-reactions.ts';

/** The demo's sample applications, imported as `apas import projects` would (an external id each). */
export const DEMO_PROJECTS_PATH = fileURLToPath(new URL('../../../programs/demo-projects.csv', import.meta.url));

/** The demo program's relation that makes an interconnection's incentive claim. */
const CLAIM_RELATION = 'IncentiveClaim';

/**
 * The sample applications whose incentive claims the demo makes: one approved for installation (its claim cannot be
 * submitted before Permission to Operate) and one with Permission to Operate (its claim can).
 */
export const DEMO_CLAIMED = ['demo-3', 'demo-4'] as const;

/** What seeding the demo's projects needs: the store, time, ids and the public address (for mail links). */
export interface DemoProjectDeps { store: Store; clock: Clock; ids: IdGenerator; publicUrl: string; maxNumbersPerRequest: number }

/**
 * Adds the demo's sample applications (programs/demo-projects.csv, spread over the North and South territories) and
 * the incentive claims of DEMO_CLAIMED, as the demo admin, through the import and the relations' services (so the
 * change step, rules, audit and events apply). Only what is missing is made: a demo project someone changed since is
 * left as it is. Returns what it did, as DemoReport.actions words it. Call it after seedDemo.
 */
export async function seedDemoProjects(deps: DemoProjectDeps): Promise<string[]> {
  // Instances starting together take turns, as with seedDemo.
  return deps.store.exclusively('apas demo seeding', async () => {
    const program = await deps.store.programs.findProgram('RES-SOLAR', (await deps.store.accounts.findAgency(DEMO_AGENCY.customId))?.id ?? null);
    if (!program) throw new Error('seedDemoProjects runs after seedDemo: the demo program is missing');
    const caller = await demoAdmin(deps.store);
    const withReactions = { ...deps, reactions: changeReactions() };
    const lines = (await readFile(DEMO_PROJECTS_PATH, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    const rows = lines.slice(1).map((line) => ({ line, externalId: line.slice(0, line.indexOf(',')) }));
    const known = await deps.store.imports.findExternalIds(program.id, rows.map((r) => r.externalId));
    const missing = rows.filter((r) => !known.has(r.externalId));
    const actions: string[] = [];
    if (missing.length > 0) {
      const csv = new TextEncoder().encode([lines[0], ...missing.map((r) => r.line)].join('\n'));
      const report = await new ProjectImportService(withReactions).importProjects(caller, { programRef: program.id, csv, dryRun: false });
      for (const r of report.rows.filter((row) => row.outcome === 'created')) actions.push(`created project ${r.projectNumber} (${r.externalId})`);
      // A row refused as another instance imported it meanwhile (one not taking turns, such as an older apas) is found now.
      for (const [externalId, projectId] of await deps.store.imports.findExternalIds(program.id, missing.map((r) => r.externalId))) known.set(externalId, projectId);
      const refused = report.rows.filter((r) => r.outcome === 'refused' && !known.has(r.externalId ?? ''));
      if (report.problems.length > 0 || refused.length > 0) {
        throw new Error(`the demo's projects were refused: ${JSON.stringify([...report.problems, ...refused.flatMap((r) => r.problems)])}`);
      }
    }
    const relations = new RelationService(withReactions);
    for (const externalId of DEMO_CLAIMED) {
      const projectId = known.get(externalId);
      if (!projectId || (await deps.store.relations.listProjectRelations(projectId)).length > 0) continue;
      const claim = await relations.createRelated(caller, program.id, projectId, CLAIM_RELATION);
      actions.push(`created the incentive claim ${claim.projectId} of project ${externalId}`);
    }
    return actions;
  });
}

async function demoAdmin(store: Store): Promise<Caller> {
  const email = DEMO_CREDENTIALS.find((c) => c.agencyAdmin)!.email;
  const user = await store.accounts.findUserByEmail(email);
  if (!user) throw new Error('seedDemoProjects runs after seedDemo: the demo admin is missing');
  return { user, apiKeyId: '', grants: await store.accounts.listGrants(user.id) };
}
