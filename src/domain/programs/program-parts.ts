import type { DataField, FieldRules, Program } from '../../model/model.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import type { FieldSpec, ProgramFile } from './program-file.ts';

/** Finds a part by reference (customId, else name), or reports the problem and gives null. */
export type Resolve = (ref: string, where: string) => number | null;

/** The references a capability's checks may resolve: the file's statuses, fields and forms. */
export interface PartResolvers { statuses: Resolve; fields: Resolve; forms: Resolve }

/** A role of the file with its transitions resolved to status indexes (null: every transition of the workflow). */
export interface ResolvedRole { transitions: { from: number; to: number[] }[] | null }

/** A program file whose references are resolved to positions in its own arrays. */
export interface ResolvedProgram {
  file: ProgramFile;
  /** Per field: the index of its custom list, or null. */
  fieldLists: (number | null)[];
  /** Per field: for a table field the index of each column's custom list (or null), else null. */
  tableLists: ((number | null)[] | null)[];
  /** Per status: the indexes of its next statuses. */
  statusNext: number[][];
  /** Per form: resolved statuses and fields. */
  forms: { availableIn: number[]; leadsTo: number | null; fields: { field: number; required: boolean; rules: FieldRules | null }[] }[];
  /** Per role of the program's own: its transitions as status indexes (null: every transition). */
  roles: ResolvedRole[];
  /** What each checker resolved, by its `part` (read back by the capability that owns it, when it plans its rows). */
  parts: Readonly<Record<string, unknown>>;
  /** Per deadline: the index of its untilField's field, or null. */
  deadlines: (number | null)[];
  /**
   * Per relation customId: the fields of the program it names (null: the agency has none of that customId), for rules
   * reading `related.<relation>.values`; absent where the other programs were not read (a preview's check).
   */
  relatedFields?: ReadonlyMap<string, readonly RelatedField[] | null>;
}

/** What rules need to know of a related program's field (a stored field or one of the file being imported). */
export type RelatedField = Pick<DataField, 'customId' | 'type' | 'multiValue' | 'sensitive' | 'maxLength'> & { table?: DataField['table'] | FieldSpec['table'] };

/**
 * One capability's checks of a program file at import, so that src/domain/programs names none of them (the list is
 * composed at start-up, src/domain/wiring). `check` runs after the file's own parts and roles are checked and gives
 * what it resolved (kept under `part`); `checkResolved` runs only when nothing was found wrong, with every reference
 * resolved (rules and formulas).
 */
export interface ProgramChecker {
  /** The part of the file it checks, and the key its result is kept under. */
  readonly part: string;
  check?(file: ProgramFile, resolve: PartResolvers, problems: string[]): unknown;
  checkResolved?(resolved: ResolvedProgram): string[];
  /**
   * Runs in the import's transaction once the new definition is saved (the access groups' recount of memberships),
   * with new ids and who imports (`actorId` null: the operator at the command line) for what it records.
   */
  saved?(tx: StoreWriter, saved: SavedProgram): Promise<void>;
  /**
   * Explains an import rolled back after `saved` ran (its transaction out of time: the access groups' recount of a big
   * program), outside the rolled-back transaction: gives the error to answer instead, or `error` itself.
   */
  rolledBack?(reader: Pick<StoreReader, 'projects'>, error: unknown, saved: SavedProgram, maxMs: number | undefined): Promise<unknown>;
}

/** What an import hands its checkers once the new definition is saved in its transaction. */
export interface SavedProgram { before: Program | null; after: Program; now: number; ids: IdGenerator; actorId: string | null; requestId: string | null }

/** The parts of a program an import reports on. */
export type DefinitionKind = 'program' | 'list' | 'field' | 'status' | 'form' | 'attachment' | 'role' | 'automation' | 'calendar' | 'deadline' | 'document' | 'connection' | 'access group';

/** What happened to one part: `restored` brings a retired part (and its generated id) back; roles are `removed` (never retired). */
export type ChangeAction = 'created' | 'updated' | 'restored' | 'retired' | 'reordered' | 'removed';

/** One line of an import's change report; `properties` names what an update changed. */
export interface DefinitionChange { kind: DefinitionKind; action: ChangeAction; ref: string; properties: string[] }
