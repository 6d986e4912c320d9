import type { ChangeSignal, ChangeTopic } from './change-signal.ts';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

// A key of a read's arguments, one to one: strings (length first, so no text can pass for two arguments) and numbers
// (marked apart from strings: "1" is not 1); anything else as JSON.
function argumentsKey(args: unknown[]): string {
  let key = '';
  for (const a of args) {
    if (typeof a === 'string') key += `s${a.length}:${a}`;
    else if (typeof a === 'number') key += `n${a};`;
    else return `j${JSON.stringify(args)}`;
  }
  return key;
}

/**
 * Results of reads kept while the ChangeSignal says their topic is unchanged: a read costs a map lookup instead of a
 * query, and a change by any process is seen by the next read. Results are frozen, since every caller shares them.
 */
export class TopicCache {
  readonly #entries = new Map<string, { version: number; value: unknown }>();

  constructor(private readonly signal: ChangeSignal, private readonly max = 10_000) {}

  /** The result of `load` for `key`, from the cache while `topic` has not changed since it was read. */
  get<T>(topic: ChangeTopic, key: string, load: () => Promise<T>): Promise<T> {
    return this.#get(topic, `${topic}\u0000${key}`, load);
  }

  async #get<T>(topic: ChangeTopic, entryKey: string, load: () => Promise<T>): Promise<T> {
    // The version is taken before the read, so a change committed during the read leaves the entry stale.
    const version = this.signal.version(topic);
    if (version === null) return load();
    const hit = this.#entries.get(entryKey);
    if (hit && hit.version === version) return hit.value as T;
    const value = deepFreeze(await load());
    if (this.signal.version(topic) === version) {
      // Oldest first, so memory stays bounded however many keys arrive.
      if (this.#entries.size >= this.max && !hit) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(entryKey, { version, value });
    }
    return value;
  }

  /**
   * `reads` with the methods named in `names` answered through the cache under `topic`, keyed by method name and
   * arguments; the other methods unchanged.
   */
  wrap<R extends object>(reads: R, topic: ChangeTopic, names: readonly (keyof R & string)[]): R {
    const wrapped = { ...reads } as Record<string, unknown>;
    for (const name of names) {
      const read = reads[name] as (...args: unknown[]) => Promise<unknown>;
      const prefix = `${topic}\u0000${name}\u0000`;
      // Every request makes several of these reads, so the key is built without JSON for the usual arguments, and a
      // hit is answered here, without the async step and the loader a miss needs.
      wrapped[name] = (...args: unknown[]) => {
        const entryKey = prefix + argumentsKey(args);
        const version = this.signal.version(topic);
        const hit = version === null ? undefined : this.#entries.get(entryKey);
        if (hit && hit.version === version) return Promise.resolve(hit.value);
        return this.#get(topic, entryKey, () => read(...args));
      };
    }
    return wrapped as R;
  }
}
