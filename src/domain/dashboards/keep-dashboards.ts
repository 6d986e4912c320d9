import type { StoreWriter } from '../../store/store.ts';
import type { ChangeReaction } from '../projects/change-reaction.ts';

/**
 * Notes, in a change's transaction, that a project changed: the store refreshes the project's share of the
 * dashboards' summary counts once, just before the commit, however many audit records the change wrote.
 */
export function keepDashboards(tx: Pick<StoreWriter, 'dashboards'>, projectId: string): void {
  tx.dashboards.touch(projectId);
}

/** The dashboards' summary counts as a reaction of the change step: every audit row of a project notes it. */
export const dashboardsReaction: ChangeReaction = {
  name: 'dashboards',
  recorded: (tx, _deps, _caller, _ctx, r) => keepDashboards(tx, r.projectId),
};
