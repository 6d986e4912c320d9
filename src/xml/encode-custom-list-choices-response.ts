import type { CustomListView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetCustomListChoices answer: `<CustomList CustomListId [CustomId] Name><Choice Value Label/>…</CustomList>`. */
export function encodeCustomListChoicesResponse(view: CustomListView, ns: string): string {
  const w = new XmlWriter(ns).start('CustomListChoicesResponse').start('CustomList', { CustomListId: view.listId, CustomId: view.customId, Name: view.name });
  for (const c of view.choices) w.empty('Choice', { Value: c.value, Label: c.label });
  return w.end().end().finish();
}
