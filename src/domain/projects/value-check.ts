import type { FieldProblem } from '../api-error.ts';
import type { CustomList, DataField } from '../../model/model.ts';

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^-?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MAX_VALUE_LENGTH = 10000;

/** How sensitive values are shown in place of the real ones. */
export const MASK = '********';

/**
 * A value as error messages quote it: in quotes, or the mask for a sensitive field, whose values must not reach
 * answers to people who sent someone else's data nor the log, where every error message is written.
 */
export function quoted(field: DataField, text: string): string {
  return field.sensitive ? MASK : `"${text}"`;
}

/** A problem with one field's value, as answers list them. */
export function fieldProblem(field: DataField, code: string, message: string): FieldProblem {
  return { dataFieldId: field.id, customId: field.customId, name: field.name, code, message };
}

function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

// A long list (rows loaded from CSV) holds thousands of choices: its values are looked up in a set made once per model.
const valueSets = new WeakMap<CustomList, Set<string>>();

/** True when a value is one of a list's choices. */
export function inList(list: CustomList, value: string): boolean {
  if (!list.rows) return list.choices.some((c) => c.value === value);
  let values = valueSets.get(list);
  if (!values) valueSets.set(list, (values = new Set(list.choices.map((c) => c.value))));
  return values.has(value);
}

/** Checks one non-empty value against its field's type, list and limits; null when it is fine. */
export function checkValue(field: DataField, list: CustomList | undefined, text: string): FieldProblem | null {
  if (text.length > MAX_VALUE_LENGTH) return fieldProblem(field, 'TOO_LONG', `Values are limited to ${MAX_VALUE_LENGTH} characters.`);
  switch (field.type) {
    case 'text':
      if (field.maxLength !== null && [...text].length > field.maxLength) {
        return fieldProblem(field, 'TOO_LONG', `${field.name} allows at most ${field.maxLength} characters.`);
      }
      return null;
    case 'number':
    case 'integer': {
      const pattern = field.type === 'integer' ? INTEGER : NUMBER;
      if (!pattern.test(text)) return fieldProblem(field, 'INVALID_TYPE', `${field.name} must be ${field.type === 'integer' ? 'a whole number' : 'a number'}; got ${quoted(field, text)}.`);
      const n = Number(text);
      if ((field.min !== null && n < field.min) || (field.max !== null && n > field.max)) {
        return fieldProblem(field, 'OUT_OF_RANGE', `${field.name} must be between ${field.min ?? '-∞'} and ${field.max ?? '∞'}.`);
      }
      return null;
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? null : fieldProblem(field, 'INVALID_TYPE', `${field.name} must be true or false; got ${quoted(field, text)}.`);
    case 'date':
      return isRealDate(text) ? null : fieldProblem(field, 'INVALID_TYPE', `${field.name} must be a date as yyyy-MM-dd; got ${quoted(field, text)}.`);
    case 'choice':
      if (list && inList(list, text)) return null;
      return list?.rows
        ? fieldProblem(field, 'NOT_IN_LIST', `${quoted(field, text)} is not on the list ${list.name} that ${field.name} chooses from.`)
        : fieldProblem(field, 'NOT_IN_LIST', `${quoted(field, text)} is not a choice of ${field.name}.`);
    case 'table':
      // A table's value is its rows, checked cell by cell in table-values.ts; it never reaches here as one text.
      return null;
  }
}
