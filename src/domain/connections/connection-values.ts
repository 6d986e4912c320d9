import { type CelInput, isCelList, isCelMap } from '@bufbuild/cel';
import type { ConnectionDefinition } from '../../model/connection.ts';
import type { CustomList, DataField, FieldValue, ProgramModel } from '../../model/model.ts';
import { MAX_VALUES } from '../projects/field-rules.ts';
import { checkValue } from '../projects/value-check.ts';
import { compileRule, type RuleValue } from '../rules/compile-rule.ts';
import { textOf } from '../rules/form-rules.ts';
import { ruleVariables, type ScopeField } from '../rules/rule-scope.ts';
import type { RuleType } from '../rules/rule-types.ts';
import { shapeType } from './response-type.ts';

/** The variables of a connection's `set` expressions: the fields, `project`, `role`, and `response` as declared. */
export function setVariables(fields: ScopeField[], c: Pick<ConnectionDefinition, 'customId' | 'response'>): Map<string, RuleType> {
  return ruleVariables(fields).set('response', shapeType(c.response, `the response of ${c.customId}`));
}

/** A rule's value as JSON: ints as numbers, lists as arrays, maps as objects, other values as their text. */
export function jsonOf(value: RuleValue): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (isCelList(value)) return [...(value as unknown as Iterable<RuleValue>)].map(jsonOf);
  if (isCelMap(value)) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), jsonOf(v)]));
  return String(value);
}

/**
 * The request's payload: the connection's `request` over the project's values (an empty object without one); a
 * string saying why not when it cannot be decided (it reads an empty field, say).
 */
export function requestPayload(model: ProgramModel, c: ConnectionDefinition, bindings: Record<string, CelInput>): Record<string, unknown> | string {
  if (c.request === null) return {};
  const compiled = compileRule(c.request, ruleVariables(model.fields), { kind: 'map', of: { kind: 'dyn' } }, { stored: true });
  if ('problems' in compiled) return `the request of ${c.customId} does not compile: ${compiled.problems[0]?.message ?? ''}`;
  const value = jsonOf(compiled.rule.evaluate(bindings));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `the request of ${c.customId} cannot be built from the project's values (a field it reads is empty)`;
  return value as Record<string, unknown>;
}

/** What an answer writes: the fields' new values, and the fields it could not set, with why. */
export interface AnswerValues { values: FieldValue[]; skipped: { fieldId: string; reason: string }[] }

/**
 * The values a connection's `set` gives from an answer already read against its shape (`response`): each expression
 * over the answer and the project's values, turned into its field's value and checked as a person's would be (a
 * multi-value field's from a list, item by item). A value that cannot be decided or does not fit is skipped (with its
 * reason), never written half.
 */
export function answerValues(model: ProgramModel, c: ConnectionDefinition, bindings: Record<string, CelInput>, response: CelInput, at: number, by: string): AnswerValues {
  const vars = setVariables(model.fields, c);
  const out: AnswerValues = { values: [], skipped: [] };
  for (const s of c.set) {
    const field = model.fields.find((f) => f.id === s.fieldId);
    if (!field) {
      out.skipped.push({ fieldId: s.fieldId, reason: 'the field was retired from the program' });
      continue;
    }
    const compiled = compileRule(s.value, vars, { kind: 'dyn' }, { stored: true });
    const value = 'problems' in compiled ? undefined : compiled.rule.evaluate({ ...bindings, response });
    const texts = field.multiValue ? textsOf(field, value) : textOf(field, value);
    if (texts === null || texts.length === 0) {
      out.skipped.push({ fieldId: field.id, reason: 'the answer gives no value for it' });
      continue;
    }
    const list = model.lists.find((l) => l.id === field.listId);
    const problem = typeof texts === 'string' ? checkValue(field, list, texts)?.message : listProblem(field, list, texts);
    if (problem) {
      out.skipped.push({ fieldId: field.id, reason: problem });
      continue;
    }
    out.values.push(typeof texts === 'string'
      ? { fieldId: field.id, value: texts, values: null, updatedAt: at, updatedBy: by }
      : { fieldId: field.id, value: null, values: texts, updatedAt: at, updatedBy: by });
  }
  return out;
}

// A multi-value field's values from a list: each item as the field's one value would be; null when the value is not a
// list or an item cannot be the field's type (the whole value is skipped then, never written in part).
function textsOf(field: DataField, value: RuleValue): string[] | null {
  if (!isCelList(value)) return null;
  const texts: string[] = [];
  for (const item of value as unknown as Iterable<RuleValue>) {
    const text = isCelList(item) ? null : textOf(field, item);
    if (text === null) return null;
    texts.push(text);
  }
  return texts;
}

// Why a multi-value field cannot take these values, as a person's save would say it (the first item that does not
// fit, by its position); undefined when they all fit.
function listProblem(field: DataField, list: CustomList | undefined, texts: string[]): string | undefined {
  if (texts.length > MAX_VALUES) return `${field.name} takes at most ${MAX_VALUES} values.`;
  for (const [i, text] of texts.entries()) {
    const problem = text === '' ? `${field.name} cannot hold an empty value.` : checkValue(field, list, text)?.message;
    if (problem) return `value ${i + 1} of ${texts.length}: ${problem}`;
  }
  return undefined;
}
