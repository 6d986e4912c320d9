import { isoTimestamp } from '../model/clock.ts';
import type { CurrentStatusView, ProjectHeaderView, StatusRefView } from '../domain/views.ts';
import type { XmlAttributes, XmlWriter } from './xml-writer.ts';

/** The attributes every single-project response puts on its Project element, in document order. */
export function projectAttributes(view: ProjectHeaderView): XmlAttributes {
  return {
    ProjectId: view.projectId,
    ProgramId: view.programId,
    ProjectNumber: view.projectNumber,
    Url: view.url,
    LastChangeTimestamp: isoTimestamp(view.lastChangeTimestamp),
  };
}

/** The attributes of a status reference (Status, LeadsToStatus). */
export function statusRefAttributes(status: StatusRefView): XmlAttributes {
  return { StatusId: status.statusId, CustomId: status.customId, Name: status.name };
}

/** Writes the `<CurrentStatus StatusId [CustomId] Name Timestamp/>` element. */
export function writeCurrentStatus(writer: XmlWriter, status: CurrentStatusView): void {
  writer.empty('CurrentStatus', { ...statusRefAttributes(status), Timestamp: isoTimestamp(status.timestamp) });
}
