import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { migrate, openDatabase } from '../../src/store/database.ts';
import * as m022 from '../../src/store/migrations/022-stale-draft-values.ts';
import { emptyTestDatabase, forEachDialect, testSecretBox } from '../support/databases.ts';
import { IDS, project, seedProgram, T0, value } from '../support/fixtures.ts';

// Migration 022: drafts saved by earlier versions held a copy of every field of their form and outlived later
// submissions; a copy no newer than the field's submitted value is no pending change and must not come back.

// The rows are planted through today's store (whose program tables have the columns of later migrations), so the
// database is migrated to the newest version first and migration 022 is then run again on what an older version left.

forEachDialect('store: migration 022 drops stale draft copies', ({ dialect }) => {
  it('deletes draft rows no newer than the submitted value of their field and keeps newer ones', async () => {
    const empty = await emptyTestDatabase(dialect);
    const opened = await openDatabase(empty.config, { migrate: false });
    try {
      await migrate(opened.db);
      const store = createKyselyStore(opened, { secrets: testSecretBox() });
      await seedProgram(store);
      const p = project('PROJECT00001');
      await store.transaction(async (tx) => {
        await tx.projects.insertProject(p);
        await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.kw, '9.5', T0 + 100), value(IDS.size, ['M'], T0 + 100)]);
      });
      // As an older version left them: a copy saved before the submission, one saved at its time, one edited after it.
      await opened.db.insertInto('project_drafts').values([
        { project_id: p.id, form_id: IDS.form, field_id: IDS.kw, value: '4.0', values_json: null, updated_at: T0 + 50, updated_by: IDS.applicant },
        { project_id: p.id, form_id: IDS.form, field_id: IDS.size, value: null, values_json: '["S"]', updated_at: T0 + 100, updated_by: IDS.applicant },
        { project_id: p.id, form_id: IDS.form, field_id: IDS.name, value: 'Pending Name', values_json: null, updated_at: T0 + 200, updated_by: IDS.applicant },
      ]).execute();
      await m022.up(opened.db as never);
      const left = await opened.db.selectFrom('project_drafts').select(['field_id', 'value']).execute();
      assert.deepEqual(left, [{ field_id: IDS.name, value: 'Pending Name' }], 'only the change made after the submission is left');
    } finally {
      await opened.changes.close();
      await opened.db.destroy();
      await empty.remove();
    }
  });
});
