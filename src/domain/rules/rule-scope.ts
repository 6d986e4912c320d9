import type { FieldType } from '../../model/model.ts';
import { MAX_CHOICE_CHARS, MAX_LIST_ITEMS, MAX_TEXT_CHARS, type Shape } from './rule-cost.ts';
import { fieldType, isIdentifier, listOf, type RuleColumns, T, type RuleType } from './rule-types.ts';

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

/**
 * The variables every rule of a program may use: each field by its customId, `project` and `role`, and `related`
 * when the program has relations (src/domain/rules/related-state.ts).
 */
export function ruleVariables(fields: ScopeField[], project: RuleType = PROJECT_TYPE, relations: readonly { customId: string }[] = []): Map<string, RuleType> {
  const vars = new Map<string, RuleType>([['project', project], ['role', T.string]]);
  for (const f of fields) if (f.customId !== null && isIdentifier(f.customId)) vars.set(f.customId, fieldType(f));
  if (relations.length > 0) vars.set('related', relatedType(relations));
  return vars;
}

/**
 * The largest value of each field a rule may read, from the limits the program declares (a text's maxLength, a table's
 * maxRows and its columns' maxLength) and those every value has (10,000 characters, 1,000 values or rows): what a
 * rule's cost is estimated with.
 */
export function ruleShapes(fields: ScopeField[]): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
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
