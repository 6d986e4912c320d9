import type { FieldType } from '../../model/model.ts';
import { fieldType, isIdentifier, listOf, type RuleColumns, T, type RuleType } from './rule-types.ts';

/** What the variables of a program's rules are made from: its fields (a field is a variable when its customId is a name). */
export interface ScopeField { customId: string | null; type: FieldType; multiValue: boolean; table?: RuleColumns | null }

/** The members of `project` that need more than the project row (its submissions and files); read only when used. */
export const PROJECT_DETAILS = ['submitted', 'files', 'approvedFiles'] as const;

/** `project` in a rule: the project the values belong to. */
export const PROJECT_TYPE: RuleType = {
  kind: 'record', name: 'project',
  members: new Map<string, RuleType>([
    ['status', T.string], ['number', T.string],
    ['submitted', listOf(T.string)], ['files', listOf(T.string)], ['approvedFiles', listOf(T.string)],
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

/** The variables every rule of a program may use: each field by its customId, `project` and `role`. */
export function ruleVariables(fields: ScopeField[], project: RuleType = PROJECT_TYPE): Map<string, RuleType> {
  const vars = new Map<string, RuleType>([['project', project], ['role', T.string]]);
  for (const f of fields) if (f.customId !== null && isIdentifier(f.customId)) vars.set(f.customId, fieldType(f));
  return vars;
}
