import type { CustomList, ListChoice } from '../../model/model.ts';
import type { ListRowReader } from '../../store/list-row-queries.ts';
import { queryWords } from './list-words.ts';

/** How many of a search's matches a page offers; more are narrowed by typing more. */
export const SHOWN_MATCHES = 50;

/** What a page shows of a long list for one field: the rows it holds, the search made and whether more rows matched. */
export interface LongListView { listId: string; name: string; rows: number; query: string | null; more: boolean }

/** What a page offers of a long list: the rows of the values it shows, then a search's first matches. */
export interface LongListChoices { choices: { value: string; label: string }[]; view: LongListView }

const rowIndexes = new WeakMap<CustomList, Map<string, ListChoice>>();

/** The loaded row of a value of a long list, looked up in an index made once per model; undefined when it has none. */
export function rowOf(list: CustomList, value: string): ListChoice | undefined {
  let index = rowIndexes.get(list);
  if (!index) rowIndexes.set(list, (index = new Map(list.choices.map((c) => [c.value, c]))));
  return index.get(value);
}

/**
 * The choices a page offers from a long list instead of all its rows: the rows of the values it shows (a value that
 * left the list offered as itself, so that it stays), and, with a query, its first matches found through the words
 * index. No query offers only the values shown.
 */
export async function longListChoices(reader: { listRows: ListRowReader }, list: CustomList, shown: string[], query: string | null): Promise<LongListChoices> {
  const choices = new Map<string, { value: string; label: string }>();
  for (const v of shown) {
    if (v === '') continue;
    const row = rowOf(list, v);
    choices.set(v, { value: v, label: row ? row.label : `${v} (no longer on the list)` });
  }
  const text = query?.trim() ?? '';
  let more = false;
  if (text !== '') {
    const page = await reader.listRows.searchListRows(list.id, queryWords(text), SHOWN_MATCHES);
    for (const r of page.rows) if (!choices.has(r.value)) choices.set(r.value, { value: r.value, label: r.label });
    more = page.more;
  }
  return { choices: [...choices.values()], view: { listId: list.id, name: list.name, rows: list.choices.length, query: text === '' ? null : text.slice(0, 200), more } };
}
