import type { DatabaseConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import type { SecretBox } from '../../src/store/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import { IDS, project, seedProgram, T0, value } from './fixtures.ts';

/** The clear texts the sealed fixtures hold, to check what a store opens. */
export const SEALED_TEXTS = {
  totp: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  webhook: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LW9mLTMyLWJ5dGVzISE=',
  name: 'Jane Q. Secretname',
  draft: 'Draft Secretname',
} as const;

/** The webhook subscription of the sealed fixtures. */
export const SEALED_WEBHOOK = 'WEBHOOK00001';

/**
 * Seeds every kind of sealed value through `store` (sealed with its key): the fixture program, the admin's
 * TOTP secret, a webhook subscription with a current and a previous signing secret, and in each of `projectIds` a
 * submitted value and a draft value of the sensitive field `name`.
 */
export async function seedSealedValues(store: Store, projectIds: string[] = ['PROJECT00001']): Promise<void> {
  await seedProgram(store);
  await store.transaction(async (tx) => {
    await tx.mfa.saveMfa(IDS.admin, SEALED_TEXTS.totp, T0);
    await tx.webhooks.insertSubscription({
      id: SEALED_WEBHOOK, agencyId: IDS.agency, programId: IDS.program, url: 'https://hooks.example.org/apas', eventTypes: [], secret: SEALED_TEXTS.webhook, enabled: true,
      disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null, previousSecret: `${SEALED_TEXTS.webhook}old`,
      previousSecretUntil: T0 + 86_400_000, createdAt: T0, createdBy: null, ownerId: null, updatedAt: T0,
    });
  });
  await addSealedProjects(store, projectIds);
}

/** Opens a Store on an existing database with `secrets`, runs `work`, and closes it. */
export async function withSealedStore<T>(config: DatabaseConfig, secrets: SecretBox, work: (store: Store) => Promise<T>): Promise<T> {
  const store = createKyselyStore(await openDatabase(config), { secrets });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Adds projects of the fixture program, each with a submitted and a draft value of the sensitive field, sealed by the store's key. */
export async function addSealedProjects(store: Store, projectIds: string[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const id of projectIds) {
      await tx.projects.insertProject(project(id));
      await tx.projects.upsertValues(id, IDS.form, [value(IDS.name, SEALED_TEXTS.name), value(IDS.kw, '7.5')]);
      await tx.projects.upsertDraft(id, IDS.form, [value(IDS.name, SEALED_TEXTS.draft)]);
    }
  });
}
