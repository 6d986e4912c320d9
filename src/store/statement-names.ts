/**
 * Opens the text of every statement compileOnce makes for PostgreSQL: a fixed text of a hot read, run again and
 * again with new values, which a connection may keep prepared (see StatementNames).
 */
export const PREPARED_MARK = '/* apas:prepared */ ';

/** How many texts one pool names at most; a text beyond them runs unnamed, as every other statement does. */
const MAX_NAMES = 2000;

/**
 * Names for the marked statement texts of one PostgreSQL pool. A named statement is parsed and planned by the server
 * once per connection, then only bound and run: for a page of 100 or a project's form data that is about half of
 * the server's work per read, on the same cores as apas. Only marked texts are named: their shapes are few and
 * bounded, and their plans (a lookup by key, a page whose plan the store chooses itself) do not depend on the values,
 * so the generic plan PostgreSQL may settle on is the one it would choose anyway. Shared by every handle over the pool,
 * since a name must mean one text on each of its connections.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();

  /** The name `text` runs under, or undefined for an unmarked text (or when the pool has named its most). */
  nameOf(text: string): string | undefined {
    if (!text.startsWith(PREPARED_MARK)) return undefined;
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < MAX_NAMES) this.#names.set(text, (name = `apas_${this.#names.size + 1}`));
    return name;
  }
}
