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

type Entry = { version: number; value: unknown };

/** Where an entry sits, so that the oldest can be dropped from its own map. */
type Place = { map: Map<unknown, Entry>; key: unknown };

/**
 * Results of reads kept while the ChangeSignal says their topic is unchanged: a read costs a map lookup instead of a
 * query, and a change by any process is seen by the next read. Results are frozen, since every caller shares them.
 */
export class TopicCache {
  // Each read has maps of its own, so a read of one string or number argument (all but a few) is looked up by that
  // argument itself: a key built by joining texts is hashed anew on every request, an argument that came out of a
  // cached row is hashed once. `#order` holds every entry, oldest first, and bounds them all together.
  readonly #spaces = new Map<string, Map<unknown, Entry>>();
  readonly #order = new Map<Entry, Place>();

  constructor(private readonly signal: ChangeSignal, private readonly max = 10_000) {}

  /** The result of `load` for `key`, from the cache while `topic` has not changed since it was read. */
  get<T>(topic: ChangeTopic, key: string, load: () => Promise<T>): Promise<T> {
    return this.#get(topic, this.#space(`${topic}\u0000`), key, load);
  }

  #space(name: string): Map<unknown, Entry> {
    let map = this.#spaces.get(name);
    if (!map) {
      map = new Map();
      this.#spaces.set(name, map);
    }
    return map;
  }

  async #get<T>(topic: ChangeTopic, map: Map<unknown, Entry>, key: unknown, load: () => Promise<T>): Promise<T> {
    // The version is taken before the read, so a change committed during the read leaves the entry stale.
    const version = this.signal.version(topic);
    if (version === null) return load();
    const hit = map.get(key);
    if (hit && hit.version === version) return hit.value as T;
    const value = deepFreeze(await load());
    if (this.signal.version(topic) === version) this.#set(map, key, { version, value });
    return value;
  }

  #set(map: Map<unknown, Entry>, key: unknown, entry: Entry): void {
    const stale = map.get(key);
    if (stale) this.#order.delete(stale);
    // Oldest first, so memory stays bounded however many keys arrive.
    else if (this.#order.size >= this.max) {
      const [oldest, at] = this.#order.entries().next().value as [Entry, Place];
      this.#order.delete(oldest);
      at.map.delete(at.key);
    }
    map.set(key, entry);
    this.#order.set(entry, { map, key });
  }

  /**
   * `reads` with the methods named in `names` answered through the cache under `topic`, keyed by method name and
   * arguments; the other methods unchanged.
   */
  wrap<R extends object>(reads: R, topic: ChangeTopic, names: readonly (keyof R & string)[]): R {
    const wrapped = { ...reads } as Record<string, unknown>;
    for (const name of names) {
      const read = reads[name] as (...args: unknown[]) => Promise<unknown>;
      // A lone string or number is its own key (a Map keeps "1" and 1 apart); any other argument list is keyed by
      // argumentsKey in a map of its own, so that no text passes for another argument list.
      const single = this.#space(`${topic}\u0000${name}\u00001`);
      const other = this.#space(`${topic}\u0000${name}\u0000*`);
      // Every request makes several of these reads, so a hit is answered here, without the async step and the loader
      // a miss needs.
      wrapped[name] = (...args: unknown[]) => {
        const alone = args.length === 1 && (typeof args[0] === 'string' || typeof args[0] === 'number');
        const map = alone ? single : other;
        const key = alone ? args[0] : argumentsKey(args);
        const version = this.signal.version(topic);
        const hit = version === null ? undefined : map.get(key);
        if (hit && hit.version === version) return Promise.resolve(hit.value);
        return this.#get(topic, map, key, () => read(...args));
      };
    }
    return wrapped as R;
  }
}
