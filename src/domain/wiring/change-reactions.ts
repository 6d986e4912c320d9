import { groupsOfProject } from '../access-groups/access-group-rules.ts';
import { accessGroupsAfterAutomations, accessGroupsReaction } from '../access-groups/keep-access-groups.ts';
import { automationsReaction } from '../automations/run-automations.ts';
import { dashboardsReaction } from '../dashboards/keep-dashboards.ts';
import { eventsReaction } from '../events/events-reaction.ts';
import type { ChangeReaction } from '../projects/change-reaction.ts';
import { queueAttentionReaction } from '../queue/queue-attention.ts';

/**
 * What reacts to every change of a project inside its transaction, in the order it runs: the project's access groups,
 * the program's automations and the access groups again after what they changed (follow-ups that join the change),
 * then per audit row the access groups again, the queue's needs-attention columns, the dashboards' counts and the
 * events the outbox sends on after the commit. Composed once where the services are wired.
 */
export function changeReactions(): readonly ChangeReaction[] {
  return [accessGroupsReaction, automationsReaction(groupsOfProject), accessGroupsAfterAutomations, queueAttentionReaction, dashboardsReaction, eventsReaction];
}
