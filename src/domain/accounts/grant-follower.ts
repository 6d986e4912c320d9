import type { IdGenerator } from '../../model/ids.ts';
import type { StoreWriter } from '../../store/store.ts';

/**
 * One user's grant in one program set again, narrowed or removed, or the user disabled: whose, where, by whom (null:
 * the command line or a sign-in), when.
 */
export interface GrantChange { userId: string; programId: string; actorId: string | null; at: number }

/**
 * Work another capability does in the transaction of a grant change, after the grant is written (the access groups
 * unassign the projects the user can no longer read). Listed in src/domain/wiring/grant-followers.ts, so that accounts
 * names no capability that follows it; a refused change reaches none.
 */
export interface GrantFollower {
  name: string;
  grantChanged(tx: StoreWriter, ids: IdGenerator, change: GrantChange): Promise<void>;
}
