import type { StoreWriter } from '../../store/store.ts';

/**
 * Notes, in a change's transaction, that a project changed: the store refreshes the project's share of the
 * dashboards' summary counts once, just before the commit, however many audit records the change wrote.
 */
export function keepDashboards(tx: Pick<StoreWriter, 'dashboards'>, projectId: string): void {
  tx.dashboards.touch(projectId);
}
