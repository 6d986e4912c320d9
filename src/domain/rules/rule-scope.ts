import type { FieldType, ListRowSource } from '../../model/model.ts';
import { MAX_CHOICE_CHARS, MAX_LIST_ITEMS, MAX_TEXT_CHARS, type Shape } from './rule-cost.ts';
import { fieldType, isIdentifier, listOf, type RuleColumns, scalarOf, T, type RuleType } from './rule-types.ts';

/** What the variables of a program's rules are made from: its fields (a field is a variable when its customId is a name). */
export interface ScopeField { customId: string | null; type: FieldType; multiValue: boolean; table?: RuleColumns | null; maxLength?: number | null; sensitive?: boolean }

/** The members of `project` that need more than the project row (its submissions and files); read only when used. */
export const PROJECT_DETAILS = ['submitted', 'files', 'approvedFiles', 'signed'] as const;

/** `project` in a rule: the project the values belong to. */
export const PROJECT_TYPE: RuleType = {
  kind: 'record', name: 'project',
  members: new Map<string, RuleType>([
    ['status', T.string], ['number', T.string],
    ['submitted', listOf(T.string)], ['files', listOf(T.string)], ['approvedFiles', listOf(T.string)], ['signed', listOf(T.string)],
  ]),
};

/**
 * `project` in an automation's rules: also its age and its time in the current status, in whole days of the
 * program's calendar. Only automations see them: a form's rules must not change their answer while nobody acts.
 */
export const AUTOMATION_PROJECT_TYPE: RuleType = {
  kind: 'record', name: 'project',
  members: new Map<string, RuleType>([...(PROJECT_TYPE.kind === 'record' ? PROJECT_TYPE.members : []), ['ageDays', T.int], ['daysInStatus', T.int]]),
};

/** A related project in a rule (`related.<relation>`): its status (customId, else name) and number; both empty when there is none. */
export const RELATED_PROJECT_TYPE: RuleType = {
  kind: 'record', name: 'related project', members: new Map<string, RuleType>([['status', T.string], ['number', T.string]]),
};

/**
 * What field rules know of the related programs' fields, for `related.<relation>.values`: per relation customId, the
 * other program's fields (null: the agency has no such program yet); `'unknown'` where they are not known (a stored
 * version's rules run, checked when it was imported: the values are then a map of whatever the other program holds).
 */
export type RelatedFields = ReadonlyMap<string, readonly ScopeField[] | null> | 'unknown';

/** The fields of a related program a rule may read: those with a customId that is a name and that are not sensitive. */
export function readableFields<F extends ScopeField>(fields: readonly F[]): (F & { customId: string })[] {
  return fields.filter((f): f is F & { customId: string } => f.customId !== null && isIdentifier(f.customId) && f.sensitive !== true);
}

/** `values` of a related project: a record of the other program's readable fields, when they are known. */
function relatedValuesType(program: string, fields: readonly ScopeField[] | null | undefined): RuleType {
  if (fields === undefined) return { kind: 'map', of: T.dyn };
  if (fields === null) return { kind: 'record', name: `record of program ${program}'s fields (none: the agency has no program ${program} yet; import it first)`, members: new Map() };
  return { kind: 'record', name: `record of program ${program}'s fields (sensitive fields are never read)`, members: new Map(readableFields(fields).map((f) => [f.customId, fieldType(f)])) };
}

/**
 * `related` in a rule: a member per relation of the program (`relations:`) whose customId is a name. With `fields`
 * (field rules only), each also has `values`, the related project's submitted values of the other program's fields.
 */
export function relatedType(relations: readonly { customId: string; program?: string }[], fields?: RelatedFields): RuleType {
  const named = relations.filter((r) => isIdentifier(r.customId));
  return {
    kind: 'record', name: 'related',
    members: new Map(named.map((r) => [r.customId, fields === undefined ? RELATED_PROJECT_TYPE : {
      kind: 'record', name: 'related project',
      members: new Map<string, RuleType>([['status', T.string], ['number', T.string], ['values', relatedValuesType(r.program ?? r.customId, fields === 'unknown' ? undefined : fields.get(r.customId))]]),
    } satisfies RuleType])),
  };
}

/** The largest value of `related` in a field rule's cost estimate, from the related programs' declared limits. */
function relatedShape(relations: readonly { customId: string }[], fields: ReadonlyMap<string, readonly ScopeField[] | null>): Shape {
  const members = new Map<string, Shape>(relations.filter((r) => isIdentifier(r.customId)).map((r) => {
    const values = ruleShapes(readableFields(fields.get(r.customId) ?? []));
    const project = new Map<string, Shape>([
      ['status', { kind: 'text', len: MAX_CHOICE_CHARS }], ['number', { kind: 'text', len: MAX_CHOICE_CHARS }],
      ['values', { kind: 'record', len: values.size, members: values }],
    ]);
    return [r.customId, { kind: 'record', len: project.size, members: project }];
  }));
  return { kind: 'record', len: members.size, members };
}

/** What rules know of a custom list: one of rows from CSV (`rows`) is `lists.<customId>`, a map from key to row. */
export interface ScopeList { customId: string | null; rows?: ListRowSource }

/** The variable through which rules read the rows of long lists: `lists.Inverters[Model].RatedKwAc`. */
export const LISTS_VARIABLE = 'lists';

/** The longest cell of a long list's row, as rules' costs are estimated (list-csv.ts refuses longer ones). */
const MAX_LIST_CELL_CHARS = 1000;

/** The lists of rows from CSV that rules can name (a customId that is an identifier). */
export function ruleLists<L extends ScopeList>(lists: readonly L[]): (L & { customId: string; rows: ListRowSource })[] {
  return lists.filter((l): l is L & { customId: string; rows: ListRowSource } => l.rows !== undefined && l.customId !== null && isIdentifier(l.customId));
}

/**
 * The variables every rule of a program may use: each field by its customId, `project` and `role`; `lists` when the
 * program has lists of rows from CSV (each a map from a row's key to the row, a record of its declared columns); and
 * `related` when the program has relations (src/domain/rules/related-state.ts), with `values` when `relatedFields` is given.
 */
export function ruleVariables(
  fields: ScopeField[], project: RuleType = PROJECT_TYPE, lists: readonly ScopeList[] = [], relations: readonly { customId: string; program?: string }[] = [],
  relatedFields?: RelatedFields,
): Map<string, RuleType> {
  const vars = new Map<string, RuleType>([['project', project], ['role', T.string]]);
  for (const f of fields) if (f.customId !== null && isIdentifier(f.customId)) vars.set(f.customId, fieldType(f));
  const long = ruleLists(lists);
  if (long.length > 0) {
    const members = new Map<string, RuleType>(long.map((l) => [l.customId, {
      kind: 'map', of: { kind: 'record', name: `a row of ${l.customId}`, members: new Map(l.rows.columns.map((c) => [c.name, scalarOf(c.type)])) },
    }]));
    vars.set(LISTS_VARIABLE, { kind: 'record', name: LISTS_VARIABLE, members });
  }
  if (relations.length > 0) vars.set('related', relatedType(relations, relatedFields));
  return vars;
}

/**
 * The largest value of each field a rule may read, from the limits the program declares (a text's maxLength, a table's
 * maxRows and its columns' maxLength) and those every value has (10,000 characters, 1,000 values or rows): what a
 * rule's cost is estimated with; and of a related project's values, from the related programs' fields when known.
 */
export function ruleShapes(
  fields: readonly ScopeField[], lists: readonly ScopeList[] = [], relations: readonly { customId: string }[] = [], relatedFields?: RelatedFields,
): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  if (relations.length > 0 && relatedFields !== undefined && relatedFields !== 'unknown') shapes.set('related', relatedShape(relations, relatedFields));
  const long = ruleLists(lists);
  if (long.length > 0) {
    // A rule sees the rows of the values the project holds: at most as many as values may be.
    const members = new Map<string, Shape>(long.map((l) => {
      const row = new Map(l.rows.columns.map((c) => [c.name, scalarShape(c.type, MAX_LIST_CELL_CHARS)]));
      return [l.customId, { kind: 'list', len: MAX_LIST_ITEMS, elem: { kind: 'record', len: row.size, members: row } }];
    }));
    shapes.set(LISTS_VARIABLE, { kind: 'record', len: members.size, members });
  }
  for (const f of fields) {
    if (f.customId === null || !isIdentifier(f.customId)) continue;
    if (f.type === 'table') {
      const members = new Map((f.table?.columns ?? []).map((c) => [c.customId, scalarShape(c.type, c.maxLength)]));
      const row: Shape = { kind: 'record', len: members.size, members };
      shapes.set(f.customId, { kind: 'list', len: capped(f.table?.maxRows, MAX_LIST_ITEMS), elem: row });
      continue;
    }
    const one = scalarShape(f.type, f.maxLength);
    shapes.set(f.customId, f.multiValue ? { kind: 'list', len: MAX_LIST_ITEMS, elem: one } : one);
  }
  return shapes;
}

function scalarShape(type: Exclude<FieldType, 'table'>, maxLength: number | null | undefined): Shape {
  if (type === 'text') return { kind: 'text', len: capped(maxLength, MAX_TEXT_CHARS) };
  if (type === 'choice') return { kind: 'text', len: MAX_CHOICE_CHARS };
  return { kind: 'scalar', len: 1 };
}

function capped(declared: number | null | undefined, most: number): number {
  return declared === null || declared === undefined ? most : Math.min(declared, most);
}
