import type { ProgramFile } from './program-file.ts';
import { atLine } from './program-lines.ts';

/**
 * Checks each custom list's source: its own choices, or `rows: csv` with a customId (what `apas list load` and the
 * rules name it by), distinct columns, and key and label columns among them.
 */
export function checkListSources(file: ProgramFile, problems: string[]): void {
  file.customLists.forEach((list, i) => {
    const where = (key: string) => `custom list "${list.customId ?? list.name}"${atLine(file, ['customLists', i, key])}`;
    if (!list.rows) {
      if (list.choices.length === 0) problems.push(`${where('name')}: give its choices, or "rows: csv" with key and columns to load them from a CSV file`);
      return;
    }
    if (list.choices.length > 0) problems.push(`${where('choices')}: a list of "rows: csv" takes its choices from the CSV file, not from "choices"`);
    if (list.customId === null) problems.push(`${where('rows')}: a list of "rows: csv" needs a customId, which loading its rows names`);
    const names = new Set<string>();
    for (const c of list.rows.columns) {
      if (names.has(c.name)) problems.push(`${where('columns')}: the column "${c.name}" appears twice`);
      names.add(c.name);
    }
    if (list.rows.columns.length === 0) problems.push(`${where('rows')}: a list of "rows: csv" needs its columns`);
    if (list.rows.key === '') problems.push(`${where('rows')}: a list of "rows: csv" needs a key column (the value a field stores)`);
    else if (!names.has(list.rows.key)) problems.push(`${where('key')}: "${list.rows.key}" is not one of its columns`);
    if (list.rows.label !== '' && list.rows.label !== list.rows.key && !names.has(list.rows.label)) {
      problems.push(`${where('label')}: "${list.rows.label}" is not one of its columns`);
    }
  });
  // A page offers a long list through a search, for one value: ticking boxes of thousands of rows is no form.
  const long = new Set(file.customLists.filter((l) => l.rows).flatMap((l) => [l.customId, l.name]));
  file.fields.forEach((f, i) => {
    if (f.multiValue && f.list !== null && long.has(f.list)) {
      problems.push(`field "${f.customId ?? f.name}"${atLine(file, ['fields', i, 'multiValue'])}: a field choosing from a list of "rows: csv" takes one value (leave out multiValue)`);
    }
  });
}
