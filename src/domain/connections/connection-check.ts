import type { ProgramFile } from '../programs/program-file.ts';
import type { PartResolvers, ProgramChecker } from '../programs/program-parts.ts';
import { atLine } from '../programs/program-lines.ts';
import { compileRule } from '../rules/compile-rule.ts';
import { located } from '../rules/rule-problems.ts';
import { ruleShapes, ruleVariables } from '../rules/rule-scope.ts';
import { fieldType, type RuleType, T } from '../rules/rule-types.ts';
import { shapeProblems } from './response-type.ts';
import { setVariables } from './connection-values.ts';
import type { ResolvedConnection } from '../programs/program-connections.ts';

/** The connections' part of checking a program file at import (src/domain/wiring/program-checkers.ts lists it). */
export const connectionsChecker: ProgramChecker = { part: 'connections', check: checkConnections };

/** What a request expression must give: a map of names to values (a JSON object). */
const REQUEST_TYPE: RuleType = { kind: 'map', of: T.dyn };

/**
 * Checks `connections:`: unique customIds and names, the response shape, the request (a CEL map over the fields), and
 * each `set`: a field an answer may write (not calculated, not a table, set once) and a CEL expression over
 * `response` and the fields that gives the field's type, each problem at its line and column. Gives, per connection,
 * the index of each field it sets.
 */
export function checkConnections(file: ProgramFile, resolve: PartResolvers, problems: string[]): ResolvedConnection[] {
  const connections = file.connections ?? [];
  const shapes = ruleShapes(file.fields);
  const lookups: number[] = [];
  return connections.map((c, i) => {
    const path = ['connections', i];
    const where = (...p: (string | number)[]) => `connection "${c.customId}"${atLine(file, [...path, ...p])}`;
    for (const key of ['customId', 'name'] as const) {
      if (connections.slice(0, i).some((x) => x[key] === c[key])) problems.push(`${where(key)}: another connection has the ${key} "${c[key]}"`);
    }
    for (const p of shapeProblems(c.response)) problems.push(`${where('response')}: ${p}`);
    const compile = (source: string, vars: Map<string, RuleType>, want: RuleType, at: (string | number)[], what: string) => {
      const result = compileRule(source, vars, want, { shapes });
      if ('problems' in result) for (const p of result.problems) problems.push(`connection "${c.customId}": ${what} ${located(file.locate?.([...path, ...at]) ?? null, p)}: ${p.message}`);
    };
    if (c.request !== null) compile(c.request, ruleVariables(file.fields), REQUEST_TYPE, ['request'], 'request');
    const vars = setVariables(file.fields, c);
    const seen = new Set<number>();
    const lookup = c.lookup === null ? null : resolve.fields(c.lookup, `${where('lookup', 'field')}: lookup field`);
    if (lookup !== null) {
      const f = file.fields[lookup]!;
      if (f.type !== 'text' || f.multiValue || f.formula !== null) problems.push(`${where('lookup', 'field')}: the lookup field "${c.lookup}" must be a text field with one value that people fill in`);
      else if (lookups.includes(lookup)) problems.push(`${where('lookup', 'field')}: another connection already looks up "${c.lookup}"`);
      lookups.push(lookup);
    }
    const set = c.set.map((s) => {
      const index = resolve.fields(s.field, `${where('set', s.field)}: set`);
      if (index === null) return null;
      const field = file.fields[index]!;
      if (seen.has(index)) problems.push(`${where('set', s.field)}: the field "${s.field}" is set twice`);
      seen.add(index);
      if (field.formula !== null) problems.push(`${where('set', s.field)}: "${s.field}" is a calculated field; its formula sets it`);
      else if (field.type === 'table') problems.push(`${where('set', s.field)}: "${s.field}" is a table field, which a connection cannot set`);
      else compile(s.value, vars, fieldType(field), ['set', s.field], `set ${s.field}`);
      return index;
    });
    return { set, lookup };
  });
}
