import type { CurrentStatusView, ProjectHeaderView, StatusRefView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { complex, dateTime, optional, required, string } from '../wire-type.ts';

/** `<CurrentStatus StatusId [CustomId] Name Timestamp/>`: where a project stands, on every single-project answer. */
export const CurrentStatus = complex({
  name: 'CurrentStatus',
  attributes: { StatusId: required(string), CustomId: optional(string), Name: required(string), Timestamp: required(dateTime) },
});

/** The attributes every single-project answer puts first on its Project element, in document order. */
export const PROJECT_ATTRIBUTES = {
  ProjectId: required(string),
  ProgramId: required(string),
  ProjectNumber: optional(string),
  Url: required(string),
  LastChangeTimestamp: required(dateTime),
} as const;

/** The PROJECT_ATTRIBUTES values of a project. */
export function projectHeaderValue(view: ProjectHeaderView) {
  return {
    ProjectId: view.projectId,
    ProgramId: view.programId,
    ProjectNumber: view.projectNumber,
    Url: view.url,
    LastChangeTimestamp: isoTimestamp(view.lastChangeTimestamp),
  };
}

/** The attributes of a status reference (Status, LeadsToStatus). */
export function statusRefValue(status: StatusRefView) {
  return { StatusId: status.statusId, CustomId: status.customId, Name: status.name };
}

/** The CurrentStatus value of a project's status. */
export function currentStatusValue(status: CurrentStatusView) {
  return { ...statusRefValue(status), Timestamp: isoTimestamp(status.timestamp) };
}
