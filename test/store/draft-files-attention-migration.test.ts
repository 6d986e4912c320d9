import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { migrate, openDatabase } from '../../src/store/database.ts';
import * as m041 from '../../src/store/migrations/041-draft-files-attention.ts';
import { emptyTestDatabase, forEachDialect, testSecretBox } from '../support/databases.ts';
import { IDS, project, seedProgram } from '../support/fixtures.ts';

// Migration 041: "file awaits review" (bit 2 of projects.attention) marked unsubmitted drafts with an upload; it is
// cleared for projects in their program's initial status and kept, with every other bit, for the others.

forEachDialect('store: migration 041 clears "file awaits review" of drafts', ({ dialect }) => {
  it('clears bit 2 of projects in the initial status only, keeping the other bits', async () => {
    const empty = await emptyTestDatabase(dialect);
    const opened = await openDatabase(empty.config, { migrate: false });
    try {
      await migrate(opened.db);
      const store = createKyselyStore(opened, { secrets: testSecretBox() });
      await seedProgram(store);
      const rows = [
        project('PROJECTDRFT1', { statusId: IDS.draft }), project('PROJECTDRFT2', { statusId: IDS.draft }),
        project('PROJECTSUBM1', { statusId: IDS.submitted }),
      ];
      await store.transaction(async (tx) => {
        for (const p of rows) await tx.projects.insertProject(p);
      });
      // As the earlier change step left them: a draft with a file and an answer (2 | 1), a draft with the near bit
      // only (8), a submitted project with a file (2).
      for (const [id, attention] of [['PROJECTDRFT1', 3], ['PROJECTDRFT2', 8], ['PROJECTSUBM1', 2]] as const) {
        await opened.db.updateTable('projects').set({ attention }).where('id', '=', id).execute();
      }
      await m041.up(opened.db as never);
      const left = await opened.db.selectFrom('projects').select(['id', 'attention']).orderBy('id').execute();
      assert.deepEqual(left.map((r) => [r.id, Number(r.attention)]), [['PROJECTDRFT1', 1], ['PROJECTDRFT2', 8], ['PROJECTSUBM1', 2]]);
    } finally {
      await opened.changes.close();
      await opened.db.destroy();
      await empty.remove();
    }
  });
});
