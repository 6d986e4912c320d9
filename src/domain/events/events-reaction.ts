import type { ChangeReaction } from '../projects/change-reaction.ts';
import { eventsOfChange } from './project-events.ts';

/**
 * The outbox as a reaction of the change step: every audit row's events are appended in the change's transaction, so
 * they commit with it; mail, webhooks and the other consumers act on them after the commit (background-work.ts).
 */
export const eventsReaction: ChangeReaction = {
  name: 'events',
  recorded: (tx, deps, caller, ctx, record) => {
    for (const event of eventsOfChange(record.action, record.detail, ctx.role)) {
      tx.events.append({
        id: deps.ids.next(), at: record.at, agencyId: ctx.program.agencyId, programId: ctx.program.id, projectId: record.projectId,
        actorId: caller.user.id, ownerId: record.ownerId, ...event,
      });
    }
  },
};
