import type { Store } from '../store/store.ts';
import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';

/** What every domain service needs: the store, the time, new ids and a few settings. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  /** The public base address of the service, for landing-page links. */
  publicUrl: string;
  /** The most project numbers one GetProjectsByNumber request may ask for. */
  maxNumbersPerRequest: number;
}
