import type { HistoryEntryView } from '../domain/views.ts';
import { historyEntryAttributes } from './history-entry-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SetProjectStatusReportAs answer: the history entry after the change. */
export function encodeStatusHistoryReportAsResponse(view: HistoryEntryView, ns: string): string {
  return new XmlWriter(ns).start('StatusHistoryReportAsResponse').empty('Status', historyEntryAttributes(view)).end().finish();
}
