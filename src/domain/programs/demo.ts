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
  /** The access groups of the demo program (its territories) the grant is limited to; without them it reaches every project. */
  groups?: string[];
  /** A role in the demo's incentive claim program too (DEMO_CLAIM_PROGRAM). */
  claimGrant?: ProgramRole;
  /** An OAuth client of the user with a fixed id and secret, so the README's JSON walk-through needs no CLI command. */
  client?: { id: string; secret: string };
}

/** The demo agency. */
export const DEMO_AGENCY = { customId: 'demo', name: 'Demo Agency' } as const;

/** The demo's incentive claim program: a claim is a child of its interconnection (issue 34, §3). */
export const DEMO_CLAIM_PROGRAM = 'INCENTIVE-CLAIM';

/** The program file of the demo's incentive claims, imported before the interconnection's, whose relation names it. */
export const DEMO_CLAIM_PROGRAM_PATH = fileURLToPath(new URL('../../../programs/incentive-claim.yaml', import.meta.url));

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
    apiKey: 'apas_DEMOAPPLCNT0_demoApplicantKeyDemoApplicantKey1', agencyAdmin: false, grant: 'applicant', claimGrant: 'applicant',
    client: { id: 'DEMAPPCNTCL0', secret: 'demoApplicantClientSecretDemoApplicant12' },
  },
  {
    role: 'reviewer', email: 'reviewer@demo.apas.local', name: 'Riley Reviewer', password: 'demo-reviewer-password',
    apiKey: 'apas_DEM0REVIEWER_demoReviewerKeyDemoReviewerKey12', agencyAdmin: false, grant: 'editor', claimGrant: 'editor',
  },
  {
    // The program file's own Reviewer role: reviews files, asks questions, decides along the review transitions.
    role: 'plan reviewer', email: 'planreviewer@demo.apas.local', name: 'Parker Plan-Reviewer', password: 'demo-plan-reviewer-password',
    apiKey: 'apas_DEMOPLANREVW_demoPlanReviewerKeyDemoPlanReviewer1', agencyAdmin: false, grant: 'Reviewer',
  },
  {
    // Reviewers of one territory each: editors whose grants reach only the projects of their access group.
    role: 'north reviewer', email: 'north@demo.apas.local', name: 'Noor North', password: 'demo-north-password',
    apiKey: 'apas_DEMONORTHRVW_demoNorthReviewerKeyDemoNorthRev1', agencyAdmin: false, grant: 'editor', groups: ['north'],
  },
  {
    role: 'south reviewer', email: 'south@demo.apas.local', name: 'Sam South', password: 'demo-south-password',
    apiKey: 'apas_DEMOSOUTHRVW_demoSouthReviewerKeyDemoSouthRev1', agencyAdmin: false, grant: 'editor', groups: ['south'],
  },
];

/** What a seeding did: `created` is false, and `actions` empty, when the demo was already complete. */
export interface DemoReport { created: boolean; actions: string[]; programId: string }

/** Creates whatever of the demo is missing (agency, program, users, grants, keys); a second call changes nothing. */
export async function seedDemo(deps: ProgramImportDeps): Promise<DemoReport> {
  // Several instances starting together on a new database take turns (an advisory lock on PostgreSQL, a lock file beside
  // a SQLite database): the first creates the demo, the
  // others find it. Racing instead, each lost race rolled back a row and started the whole seeding again (the program
  // file parsed, checked and planned again), two to five times per instance: the most costly part of starting three
  // instances at once on a busy machine.
  return deps.store.exclusively('apas demo seeding', () => seedRetrying(deps));
}

async function seedRetrying(deps: ProgramImportDeps): Promise<DemoReport> {
  // Should instances still race (a database another version of apas seeds without the lock), the loser's transaction
  // rolled back, and since every step is idempotent a retry finds the winner's rows. Each race lost is a row another instance created, so an
  // instance loses at most one per row: agency, two programs, and a user, two grants, key and client each.
  const mostLostRaces = 3 + 5 * DEMO_CREDENTIALS.length;
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
  // The claims first: the interconnection program's relation names them.
  const claims = await seedProgram(deps, DEMO_CLAIM_PROGRAM_PATH, actions);
  const programId = await seedProgram(deps, DEMO_PROGRAM_PATH, actions);
  const clients = new OAuthClientService(deps);
  for (const credential of DEMO_CREDENTIALS) actions.push(...(await seedAccount(deps.store, accounts, clients, credential, { programId, claims })));
  return { created: actions.length > 0, actions, programId };
}

// Imports one of the demo's program files (nothing changes when it is already so); gives the program's id.
async function seedProgram(deps: ProgramImportDeps, file: string, actions: string[]): Promise<string> {
  const text = await readFile(file, 'utf8');
  const parsed = parseProgramFile(text, 'yaml', file);
  const publication = { text, fileName: path.basename(file), publisher: OPERATOR_PUBLISHER };
  const imported = await importProgram(deps, DEMO_AGENCY.customId, parsed, { source: file, publication });
  if (imported.changed) actions.push(`${imported.programCreated ? 'created' : 'updated'} program ${parsed.customId}`);
  return imported.programId;
}

// A grant as the demo defines it, unless the user holds it already; `where` names the program in the action.
async function seedGrant(accounts: AccountService, user: { id: string; email: string }, want: { programId: string; role: ProgramRole; groups: string[] | null }, where: string, store: Store): Promise<string[]> {
  const grant = await store.accounts.findGrant(user.id, want.programId);
  if (grant?.role === want.role && (grant.accessGroups ?? []).join(',') === (want.groups ?? []).join(',')) return [];
  await accounts.grant(user.email, want.programId, want.role, false, want.groups);
  return [`granted ${user.email} the role ${want.role}${where}${want.groups ? ` limited to the access groups ${want.groups.join(', ')}` : ''}`];
}

async function seedAccount(store: Store, accounts: AccountService, clients: OAuthClientService, c: DemoCredential, programs: { programId: string; claims: string }): Promise<string[]> {
  const actions: string[] = [];
  let user = await store.accounts.findUserByEmail(c.email);
  if (!user) {
    await accounts.createUser({ agency: DEMO_AGENCY.customId, email: c.email, name: c.name, password: c.password, agencyAdmin: c.agencyAdmin });
    user = await store.accounts.findUserByEmail(c.email);
    actions.push(`created user ${c.email}`);
  }
  if (!user) throw new Error(`demo user ${c.email} was not created`);
  if (c.grant) actions.push(...(await seedGrant(accounts, user, { programId: programs.programId, role: c.grant, groups: c.groups ?? null }, '', store)));
  if (c.claimGrant) actions.push(...(await seedGrant(accounts, user, { programId: programs.claims, role: c.claimGrant, groups: null }, ` in ${DEMO_CLAIM_PROGRAM}`, store)));
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

/** The demo credentials as a small table, for printing when a server or `apas demo` starts. */
export function formatDemoCredentials(): string {
  const rows = DEMO_CREDENTIALS.map((c) => `  ${c.role.padEnd(14)} ${c.email.padEnd(29)} password: ${c.password.padEnd(24)} X-ApiKey: ${c.apiKey}${c.client ? `  OAuth client: ${c.client.id} / ${c.client.secret}` : ''}`);
  return ['Demo credentials (public; for trying apas out, never for production):', ...rows].join('\n');
}
