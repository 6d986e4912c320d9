import type { Store } from '../../store/store.ts';

/** Thrown to end a dry run's transaction; never seen outside rolledBack's transaction. */
const ROLL_BACK = Symbol('dry run');

/**
 * The store with every transaction rolled back once its work is done, its answer returned as if it had committed: a
 * dry run goes through exactly the services, guards, rules and writes of the real run, and keeps nothing of them.
 */
export function rolledBack<S extends Pick<Store, 'transaction'>>(store: S): S {
  return {
    ...store,
    transaction: async <T>(work: Parameters<Store['transaction']>[0]): Promise<T> => {
      let answer: T | undefined;
      try {
        await store.transaction(async (tx) => {
          answer = (await work(tx)) as T;
          throw ROLL_BACK;
        });
      } catch (error) {
        if (error !== ROLL_BACK) throw error;
      }
      return answer as T;
    },
  };
}
