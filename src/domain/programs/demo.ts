import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../../store/store.ts';
import { AccountService } from '../accounts/account-service.ts';
import { ApiError } from '../api-error.ts';
import type { ProgramRole } from '../../model/model.ts';
import { parseProgramFile } from './program-file.ts';
import { importProgram, OPERATOR_PUBLISHER, type ProgramImportDeps } from './program-import.ts';
import { parseApiKey } from '../accounts/secrets.ts';
import { OAuthClientService } from '../accounts/oauth-client-service.ts';
import { findLoadableList, loadListRows } from '../lists/list-load.ts';

/** One demo account with its documented, fixed credentials. */
export interface DemoCredential {
  role: string; email: string; name: string; password: string; apiKey: string;
  agencyAdmin: boolean; grant: ProgramRole | null;
  /** An OAuth client of the user with a fixed id and secret, so the README's JSON walk-through needs no CLI command. */
  client?: { id: string; secret: string };
}

/** The demo agency. */
export const DEMO_AGENCY = { customId: 'demo', name: 'Demo Agency' } as const;

/** The program file the demo imports. */
export const DEMO_PROGRAM_PATH = fileURLToPath(new URL('../../../programs/residential-solar.yaml', import.meta.url));

/** The sample list of approved inverters the demo loads (written by scripts/equipment-list.ts). */
export const DEMO_INVERTERS_PATH = fileURLToPath(new URL('../../../programs/approved-inverters.csv', import.meta.url));

/**
 * Loads the demo program's list of approved inverters from its sample CSV file when the list holds no rows yet (so a
 * list loaded since is left alone); returns what it did, as DemoReport.actions words it.
 */
export async function seedDemoLists(deps: ProgramImportDeps): Promise<string[]> {
  // Instances starting together take turns, as with seedDemo: both finding the list empty, both inserted its rows and
  // the second failed on PostgreSQL's unique key (test/faults/instances.test.ts); in turn, the second finds the rows.
  return deps.store.exclusively('apas demo seeding', async () => {
    const target = { agencyRef: DEMO_AGENCY.customId, programRef: 'RES-SOLAR', listRef: 'ApprovedInverters' };
    const { list } = await findLoadableList(deps.store, target);
    if (await deps.store.listRows.countListRows(list.id) > 0) return [];
    const report = await loadListRows(deps, target, await readFile(DEMO_INVERTERS_PATH, 'utf8'));
    return [`loaded ${report.rows} rows into list ${report.listName}`];
  });
}

/** The demo accounts; public on purpose so the README's examples work verbatim. Never use them in production. */
export const DEMO_CREDENTIALS: readonly DemoCredential[] = [
  {
    role: 'admin', email: 'admin@demo.apas.local', name: 'Avery Admin', password: 'demo-admin-password',
    apiKey: 'apas_DEMOADMIN000_demoAdminKeyDemoAdminKeyDemoAdmin1', agencyAdmin: true, grant: null,
    client: { id: 'DEMADMNCL000', secret: 'demoAdminClientSecretDemoAdminClientSec1' },
  },
  {
    role: 'applicant', email: 'applicant@demo.apas.local', name: 'Alex Applicant', password: 'demo-applicant-password',
    apiKey: 'apas_DEMOAPPLCNT0_demoApplicantKeyDemoApplicantKey1', agencyAdmin: false, grant: 'applicant',
    client: { id: 'DEMAPPCNTCL0', secret: 'demoApplicantClientSecretDemoApplicant12' },
  },
  {
    role: 'reviewer', email: 'reviewer@demo.apas.local', name: 'Riley Reviewer', password: 'demo-reviewer-password',
    apiKey: 'apas_DEM0REVIEWER_demoReviewerKeyDemoReviewerKey12', agencyAdmin: false, grant: 'editor',
  },
  {
    // The program file's own Reviewer role: reviews files, asks questions, decides along the review transitions.
    role: 'plan reviewer', email: 'planreviewer@demo.apas.local', name: 'Parker Plan-Reviewer', password: 'demo-plan-reviewer-password',
    apiKey: 'apas_DEMOPLANREVW_demoPlanReviewerKeyDemoPlanReviewer1', agencyAdmin: false, grant: 'Reviewer',
  },
];

/** What a seeding did: `created` is false, and `actions` empty, when the demo was already complete. */
export interface DemoReport { created: boolean; actions: string[]; programId: string }

/** Creates whatever of the demo is missing (agency, program, users, grants, keys); a second call changes nothing. */
export async function seedDemo(deps: ProgramImportDeps): Promise<DemoReport> {
  // Several instances starting together on a new database take turns (on PostgreSQL): the first creates the demo, the
  // others find it. Racing instead, each lost race rolled back a row and started the whole seeding again (the program
  // file parsed, checked and planned again), two to five times per instance: the most costly part of starting three
  // instances at once on a busy machine.
  return deps.store.exclusively('apas demo seeding', () => seedRetrying(deps));
}

async function seedRetrying(deps: ProgramImportDeps): Promise<DemoReport> {
  // Where instances still race (several processes on one SQLite file), the loser's transaction rolled back, and since
  // every step is idempotent a retry finds the winner's rows. Each race lost is a row another instance created, so an
  // instance loses at most one per row: agency, program, and a user, grant, key and client each.
  const mostLostRaces = 2 + 4 * DEMO_CREDENTIALS.length;
  for (let attempt = 1; ; attempt++) {
    try {
      return await seedOnce(deps);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : String((error as { code?: unknown }).code ?? '');
      const race = ['CONFLICT', '23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(code);
      if (!race || attempt > mostLostRaces) throw error;
    }
  }
}

async function seedOnce(deps: ProgramImportDeps): Promise<DemoReport> {
  const accounts = new AccountService(deps);
  const actions: string[] = [];
  if (!(await deps.store.accounts.findAgency(DEMO_AGENCY.customId))) {
    await accounts.createAgency(DEMO_AGENCY.customId, DEMO_AGENCY.name);
    actions.push(`created agency ${DEMO_AGENCY.customId}`);
  }
  const text = await readFile(DEMO_PROGRAM_PATH, 'utf8');
  const file = parseProgramFile(text, 'yaml', DEMO_PROGRAM_PATH);
  const publication = { text, fileName: path.basename(DEMO_PROGRAM_PATH), publisher: OPERATOR_PUBLISHER };
  const imported = await importProgram(deps, DEMO_AGENCY.customId, file, { source: DEMO_PROGRAM_PATH, publication });
  if (imported.changed) actions.push(`${imported.programCreated ? 'created' : 'updated'} program ${file.customId}`);
  const clients = new OAuthClientService(deps);
  for (const credential of DEMO_CREDENTIALS) actions.push(...(await seedAccount(deps.store, accounts, clients, credential, imported.programId)));
  return { created: actions.length > 0, actions, programId: imported.programId };
}

async function seedAccount(store: Store, accounts: AccountService, clients: OAuthClientService, c: DemoCredential, programId: string): Promise<string[]> {
  const actions: string[] = [];
  let user = await store.accounts.findUserByEmail(c.email);
  if (!user) {
    await accounts.createUser({ agency: DEMO_AGENCY.customId, email: c.email, name: c.name, password: c.password, agencyAdmin: c.agencyAdmin });
    user = await store.accounts.findUserByEmail(c.email);
    actions.push(`created user ${c.email}`);
  }
  if (c.grant && user && (await store.accounts.findGrant(user.id, programId))?.role !== c.grant) {
    await accounts.grant(c.email, programId, c.grant);
    actions.push(`granted ${c.email} the role ${c.grant}`);
  }
  const parts = parseApiKey(c.apiKey);
  if (!parts) throw new Error(`demo API key of ${c.email} is not shaped like an API key`);
  if (!(await store.accounts.findApiKey(parts.id))) {
    await accounts.createApiKey(c.email, 'demo key', parts);
    actions.push(`created API key ${parts.id} for ${c.email}`);
  }
  if (c.client && !(await store.oauth.findClient(c.client.id))) {
    await clients.createClient(c.email, 'demo client', c.client.secret, c.client.id);
    actions.push(`created OAuth client ${c.client.id} for ${c.email}`);
  }
  return actions;
}

/** The demo's incentive claim program (issue 34, §3): its header shows the relation the interconnection program offers to it. */
export const DEMO_CLAIM_PROGRAM_PATH = fileURLToPath(new URL('../../../programs/incentive-claim.yaml', import.meta.url));

/**
 * Adds the incentive claim to a seeded demo: imports programs/incentive-claim.yaml, imports the demo program again with
 * the `relations:` block the claim file's header shows (the interconnection's "Incentive claim" relation), and lets
 * the demo applicant make claims. Not part of seedDemo yet; the API examples and the related projects' browser test use it.
 */
export async function seedDemoClaims(deps: ProgramImportDeps): Promise<void> {
  const claims = await readFile(DEMO_CLAIM_PROGRAM_PATH, 'utf8');
  await importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(claims, 'yaml', DEMO_CLAIM_PROGRAM_PATH));
  const block = claims.split('\n').filter((l) => l.startsWith('#   ')).map((l) => l.slice(4)).join('\n');
  await importProgram(deps, DEMO_AGENCY.customId, parseProgramFile(`${await readFile(DEMO_PROGRAM_PATH, 'utf8')}\n${block}\n`));
  await new AccountService(deps).grant(DEMO_CREDENTIALS.find((c) => c.role === 'applicant')!.email, 'INCENTIVE-CLAIM', 'applicant');
}

/** The demo credentials as a small table, for printing when a server or `apas demo` starts. */
export function formatDemoCredentials(): string {
  const rows = DEMO_CREDENTIALS.map((c) => `  ${c.role.padEnd(13)} ${c.email.padEnd(29)} password: ${c.password.padEnd(24)} X-ApiKey: ${c.apiKey}${c.client ? `  OAuth client: ${c.client.id} / ${c.client.secret}` : ''}`);
  return ['Demo credentials (public; for trying apas out, never for production):', ...rows].join('\n');
}
