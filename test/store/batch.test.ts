import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { NewEvent } from '../../src/model/event.ts';
import type { StoreWriter } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, project, seedProgram, T0 } from '../support/fixtures.ts';

// Store.batch: one transaction whose steps run in savepoints (the data import's shared commits).

function event(projectId: string): NewEvent {
  return { id: `EV-${projectId}`, type: 'project.created', at: T0, agencyId: IDS.agency, programId: IDS.program, projectId, actorId: IDS.admin, ownerId: IDS.applicant, audience: 'all', data: {} };
}

async function make(tx: StoreWriter, id: string): Promise<void> {
  await tx.projects.insertProject(project(id));
  tx.events.append(event(id));
}

forEachDialect('store: batches of steps in savepoints', ({ open }) => {
  it('rolls back a step that throws alone, with the events it appended; the others commit together', async () => {
    const { store } = await open();
    await seedProgram(store);
    let told = 0;
    store.onEventsCommitted(() => told++);
    const refused = new Error('refused');
    const outcomes = await store.batch(async (step) => {
      const out: string[] = [];
      for (const id of ['PROJECT00001', 'PROJECT00002', 'PROJECT00003']) {
        try {
          await step(async (tx) => {
            await make(tx, id);
            if (id === 'PROJECT00002') throw refused;
          });
          out.push(`${id} done`);
        } catch (error) {
          assert.equal(error, refused);
          out.push(`${id} refused`);
        }
      }
      return out;
    });
    assert.deepEqual(outcomes, ['PROJECT00001 done', 'PROJECT00002 refused', 'PROJECT00003 done']);
    const ids = (await store.projects.listProjects({ programId: IDS.program, limit: 10, offset: 0 })).map((p) => p.id).sort();
    assert.deepEqual(ids, ['PROJECT00001', 'PROJECT00003']);
    assert.deepEqual((await store.events.listAfter(0, 10)).map((e) => e.projectId), ['PROJECT00001', 'PROJECT00003']);
    assert.equal(told, 1, 'listeners hear of the one commit');
  });

  it('keeps nothing of any step when the batch itself throws', async () => {
    const { store } = await open();
    await seedProgram(store);
    await assert.rejects(store.batch(async (step) => {
      await step((tx) => make(tx, 'PROJECT00001'));
      throw new Error('stopped');
    }), /stopped/);
    assert.deepEqual(await store.projects.listProjects({ programId: IDS.program, limit: 10, offset: 0 }), []);
    assert.deepEqual(await store.events.listAfter(0, 10), []);
  });
});
