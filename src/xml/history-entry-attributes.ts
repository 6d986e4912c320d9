import { isoTimestamp } from '../model/clock.ts';
import type { HistoryEntryView } from '../domain/views.ts';
import type { XmlAttributes } from './xml-writer.ts';

/** The attributes of a status-history entry: `StatusId [CustomId] Name ChangedBy Timestamp ReportAs`. */
export function historyEntryAttributes(entry: HistoryEntryView): XmlAttributes {
  return {
    StatusId: entry.statusId, CustomId: entry.customId, Name: entry.name, ChangedBy: entry.changedBy,
    Timestamp: isoTimestamp(entry.timestamp), ReportAs: entry.reportAs,
  };
}
