import type { FieldType, ListRowSource } from '../../model/model.ts';
import { MAX_CHOICE_CHARS, MAX_LIST_ITEMS, MAX_TEXT_CHARS, type Shape } from './rule-cost.ts';
import { fieldType, isIdentifier, listOf, type RuleColumns, scalarOf, T, type RuleType } from './rule-types.ts';

/** What the variables of a program's rules are made from: its fields (a field is a variable when its customId is a name). */
export interface ScopeField { customId: string | null; type: FieldType; multiValue: boolean; table?: RuleColumns | null; maxLength?: number | null }

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

/** `related` in a rule: a member per relation of the program (`relations:`) whose customId is a name. */
export function relatedType(relations: readonly { customId: string }[]): RuleType {
  return { kind: 'record', name: 'related', members: new Map(relations.filter((r) => isIdentifier(r.customId)).map((r) => [r.customId, RELATED_PROJECT_TYPE])) };
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
 * `related` when the program has relations (src/domain/rules/related-state.ts).
 */
export function ruleVariables(
  fields: ScopeField[], project: RuleType = PROJECT_TYPE, lists: readonly ScopeList[] = [], relations: readonly { customId: string }[] = [],
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
  if (relations.length > 0) vars.set('related', relatedType(relations));
  return vars;
}

/**
 * The largest value of each field a rule may read, from the limits the program declares (a text's maxLength, a table's
 * maxRows and its columns' maxLength) and those every value has (10,000 characters, 1,000 values or rows): what a
 * rule's cost is estimated with.
 */
export function ruleShapes(fields: ScopeField[], lists: readonly ScopeList[] = []): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
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
