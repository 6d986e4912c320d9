import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { Store, StoreReader } from '../store/store.ts';

/** The name of one of the Store's repositories. */
export type RepositoryName = keyof StoreReader;

/**
 * What a domain service needs: the repositories it names (`R`) and transactions, the time, new ids and a few
 * settings. A service names only the repositories it reads, so a test can hand it a small fake.
 */
export interface ServiceDeps<R extends RepositoryName = RepositoryName> {
  store: Pick<Store, R | 'transaction'>;
  clock: Clock;
  ids: IdGenerator;
  /** The public base address of the service, for landing-page links. */
  publicUrl: string;
  /** The most project numbers one GetProjectsByNumber request may ask for. */
  maxNumbersPerRequest: number;
}
