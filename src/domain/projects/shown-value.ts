import type { DataField, ProgramModel } from '../../model/model.ts';
import { MASK } from './value-check.ts';
import { shownTable } from './table-values.ts';

/**
 * One stored value of a data field as people read it on the pages and in the work queue's CSV, applicants' and staff's
 * alike: a choice by its label, a yes/no field as Yes or No, a sensitive value masked unless `reveal`. The API and the
 * XML export keep the stored codes. A table's rows are written out as `Column: cell` pairs, rows apart by "; ".
 */
export function shownValue(model: ProgramModel, field: DataField, text: string, reveal = false): string {
  if (field.sensitive && !reveal) return MASK;
  if (field.type === 'table') return shownTable(model, field, text);
  if (field.type === 'boolean') return ({ true: 'Yes', false: 'No' } as Record<string, string>)[text] ?? text;
  const list = field.listId === null ? undefined : model.lists.find((l) => l.id === field.listId);
  return list?.choices.find((c) => c.value === text)?.label ?? text;
}
