import type { AccessGroup } from '../../src/model/model.ts';
import type { Store } from '../../src/store/store.ts';
import { formatApiKey, hashSecret } from '../../src/domain/accounts/secrets.ts';
import { programFileOf } from '../../src/domain/programs/program-export.ts';
import type { ProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram, type ImportReport } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { Clock } from '../../src/model/clock.ts';
import { IDS, T0, user } from './fixtures.ts';
import type { Identity } from './http-harness.ts';

/** The fixture program's territories: small systems are North's, large ones South's, as a territory field would split them. */
export const GROUPS: AccessGroup[] = [
  { customId: 'north', name: 'North', if: 'kw < 10.0' },
  { customId: 'south', name: 'South', if: 'kw >= 10.0' },
];

/** A kW value of each territory. */
export const NORTH_KW = '7.5';
export const SOUTH_KW = '20';

/** Imports the fixture program again with `groups` (and `more` parts), as `apas program import` does (the change report back). */
export async function importGroups(store: Store, clock: Clock, groups: AccessGroup[], more: Partial<ProgramFile> = {}): Promise<ImportReport> {
  const program = (await store.programs.findProgram(IDS.program))!;
  const file = programFileOf(await store.programs.loadProgramModel(program));
  // A program file's initial status is named Unsubmitted; the hand-built fixture's is Draft.
  const statuses = file.statuses.map((s) => (s.initial ? { ...s, name: 'Unsubmitted' } : s));
  return importProgram({ store, clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, 'acme', { ...file, statuses, ...more, accessGroups: groups });
}

/** The limited reviewers: editors of the program whose grants are limited to one territory each. */
export type Territory = 'north' | 'south';

const REVIEWERS = { north: 'USER00000031', south: 'USER00000032' } as const;

/** Adds an editor limited to each territory, with an API key and a password (for the pages). */
export async function seedReviewers(store: Store): Promise<Record<Territory, Identity>> {
  const out = {} as Record<Territory, Identity>;
  for (const [territory, id] of Object.entries(REVIEWERS) as [Territory, string][]) {
    const password = `password-of-${territory}`;
    const secret = `secret${territory}`.padEnd(32, 'x');
    const [passwordHash, secretHash] = await Promise.all([hashSecret(password), hashSecret(secret)]);
    const keyId = `KEY${id.slice(-9)}`;
    await store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(id), passwordHash, T0);
      await tx.accounts.insertApiKey({ id: keyId, userId: id, name: 'test', secretHash, createdAt: T0, revokedAt: null });
      await tx.accounts.setGrant({ userId: id, programId: IDS.program, role: 'editor', sensitive: false, accessGroups: [territory] });
    });
    out[territory] = { id, email: `${id.toLowerCase()}@example.org`, password, apiKey: formatApiKey({ id: keyId, secret }) };
  }
  return out;
}

/** What the store holds of a project's assignment: its assignee, version, stamp, groups, clearings and their events. */
export async function assignment(h: { store: Store }, projectId: string) {
  const p = (await h.store.projects.getProject(IDS.program, projectId))!;
  const cleared = (await h.store.audit.list({ projectId, action: 'project.assignee.set' })).filter((r) => r.detail?.to === null)
    .map((r) => ({ detail: r.detail, actorId: r.actorId, at: r.at }));
  const events = (await h.store.events.listProjectEvents(projectId)).filter((e) => e.type === 'project.assignee_changed' && e.data.toUserId === null)
    .map((e) => ({ from: e.data.fromUserId, actorId: e.actorId, at: e.at }));
  return { assigneeId: p.assigneeId, version: p.version, updatedAt: p.updatedAt, groups: p.accessGroups ?? [], cleared, events };
}
