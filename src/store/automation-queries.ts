import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * Takes the next round-robin turn of an automation's assign action: the count of turns taken before (0 the first
 * time), in one statement, so concurrent changes of two projects never take the same turn.
 */
export async function takeAutomationTurn(db: Db, programId: string, automation: string): Promise<number> {
  const row = await db.insertInto('automation_turns').values({ program_id: programId, automation, turns: 1 })
    .onConflict((oc) => oc.columns(['program_id', 'automation']).doUpdateSet({ turns: sql`automation_turns.turns + 1` }))
    .returning('turns').executeTakeFirstOrThrow();
  return Number(row.turns) - 1;
}

/** Per user: how many of the program's projects outside `closedStatusIds` are assigned to them (absent: none). */
export async function countOpenAssigned(db: Db, programId: string, userIds: string[], closedStatusIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  let query = db.selectFrom('projects').select(['assignee_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('program_id', '=', programId).where('assignee_id', 'in', userIds);
  if (closedStatusIds.length > 0) query = query.where('status_id', 'not in', closedStatusIds);
  const rows = await query.groupBy('assignee_id').execute();
  return new Map(rows.map((r) => [r.assignee_id!, Number(r.n)]));
}
