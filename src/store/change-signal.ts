import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * What the read caches depend on: who may sign in with what (with which grants, in which organizations), and the
 * programs' definitions.
 */
export type ChangeTopic = 'credentials' | 'programs';

/** The tables whose writes change each topic (a table belongs to one topic at most). */
export const TOPIC_TABLES: Readonly<Record<ChangeTopic, readonly string[]>> = {
  credentials: ['users', 'api_keys', 'program_grants', 'user_mfa', 'mfa_session_tokens', 'web_sessions', 'rate_limit_windows', 'oauth_clients', 'oauth_tokens',
    'organization_members', 'agency_sign_on',
  ],
  programs: [
    'agencies', 'programs', 'custom_lists', 'custom_list_choices', 'statuses', 'status_transitions', 'data_fields', 'forms', 'form_statuses',
    'form_fields', 'attachment_definitions',
  ],
};

const TOPIC_OF_TABLE = new Map<string, ChangeTopic>(
  (Object.entries(TOPIC_TABLES) as [ChangeTopic, readonly string[]][]).flatMap(([topic, tables]) => tables.map((t) => [t, topic] as const)),
);

/** The topic a table's writes change, if any. */
export function topicOfTable(table: string): ChangeTopic | undefined {
  return TOPIC_OF_TABLE.get(table);
}

/**
 * Tells caches whether what they hold may be stale. `version(topic)` is a number that differs from every earlier one
 * once a table of the topic may have changed, by this process or any other; null means the signal cannot tell right
 * now (read the database).
 */
export interface ChangeSignal {
  version(topic: ChangeTopic): number | null;
  close(): Promise<void>;
}

/** Counts of the changes this process knows of, per topic; the base of both databases' signals. */
export class ChangeCounts {
  readonly #counts: Record<ChangeTopic, number> = { credentials: 0, programs: 0 };

  /** One more change of `topic`. */
  bump(topic: ChangeTopic): void {
    this.#counts[topic] += 1;
  }

  /** One more change of every topic (another process wrote, or the signal lost track for a while). */
  bumpAll(): void {
    for (const topic of Object.keys(this.#counts) as ChangeTopic[]) this.#counts[topic] += 1;
  }

  /** The count of `topic`. */
  of(topic: ChangeTopic): number {
    return this.#counts[topic];
  }
}

// The table a write statement changes (insert into, update, delete from), from Kysely's operation tree.
function writtenTable(node: RootOperationNode): string | undefined {
  const target: OperationNode | undefined =
    node.kind === 'InsertQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : node.kind === 'DeleteQueryNode' ? node.from.froms[0] : undefined;
  return target ? tableName(target) : undefined;
}

function tableName(node: OperationNode): string | undefined {
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
}

/**
 * Columns that record when a credential was last used or a user last signed in (migration 048): an update that sets
 * only these changes nothing a cache holds, and comes once a minute per active key, so it must not empty the
 * credentials caches (migration 048 gives PostgreSQL's triggers the same exception).
 */
export const USAGE_MARK_COLUMNS: ReadonlySet<string> = new Set(['last_used_at', 'last_sign_in_at']);

// True for an update that sets usage marks and nothing else.
function setsOnlyUsageMarks(node: RootOperationNode): boolean {
  if (node.kind !== 'UpdateQueryNode') return false;
  const updates = (node as unknown as { updates?: readonly { column: { column: { name: string } } }[] }).updates ?? [];
  return updates.length > 0 && updates.every((u) => USAGE_MARK_COLUMNS.has(u.column.column.name));
}

/**
 * Sees every write this process sends through Kysely and counts it against its table's topic before it runs, so a
 * cache in this process never serves what this process changed. (Other processes' writes reach the caches through
 * the database's own signal: SQLite's data_version, PostgreSQL's notifications.) Writes in raw SQL are not seen;
 * the store writes none to these tables.
 */
export class WriteWatchPlugin implements KyselyPlugin {
  constructor(private readonly counts: ChangeCounts) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    const topic = table === undefined || setsOnlyUsageMarks(args.node) ? undefined : topicOfTable(table);
    if (topic) this.counts.bump(topic);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * SQLite's signal: this process's writes (counted by WriteWatchPlugin) and `PRAGMA data_version`, which changes
 * when another connection (a CLI command, another process on the file) has committed; then every topic is stale.
 */
export class SqliteChangeSignal implements ChangeSignal {
  #lastDataVersion: number;
  #checked = false;

  constructor(private readonly counts: ChangeCounts, private readonly dataVersion: () => number) {
    this.#lastDataVersion = dataVersion();
  }

  version(topic: ChangeTopic): number {
    // Once per turn of the event loop: a request's several cached reads share one check, and a commit by another
    // process is seen from the next turn on (this process's own writes are counted at once, see WriteWatchPlugin).
    if (!this.#checked) {
      this.#checked = true;
      setImmediate(() => {
        this.#checked = false;
      });
      const now = this.dataVersion();
      if (now !== this.#lastDataVersion) {
        this.#lastDataVersion = now;
        this.counts.bumpAll();
      }
    }
    return this.counts.of(topic);
  }

  async close(): Promise<void> {}
}
