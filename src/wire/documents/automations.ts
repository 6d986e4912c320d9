import type { AutomationRunsView, SchedulePreviewView, ScheduleRunView, ScheduledProjectView } from '../../domain/automations/automation-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { boolean, complex, type DocumentValue, dateTime, enumeration, many, one, optional, positiveInteger, required, responseDocument, string } from '../wire-type.ts';
import { LocalDate } from './deadlines.ts';

const RunOutcome = enumeration('AutomationRunOutcome', ['ran', 'partly ran', 'skipped'],
  'ran: every action ran; partly ran: an action was skipped, and the ones after it; skipped: the condition or the chain\'s depth stopped it.');

const ActionOutcome = enumeration('AutomationActionOutcome', ['ran', 'skipped'], 'ran, or skipped (Reason says why).');


const AutomationRun = complex({
  name: 'AutomationRun',
  doc: 'One run of an automation on the project: what triggered it, and what each action did.',
  attributes: {
    AutomationId: required(string, { doc: 'The automation\'s customId.' }),
    Name: required(string),
    Timestamp: required(dateTime, { doc: 'When the change it ran in was made.' }),
    Trigger: required(string, { doc: 'What triggered it, as the review page shows it (e.g. "form.submitted Application", "schedule").' }),
    Depth: required(positiveInteger, { doc: 'Its link in a chain of automations: 1 for the change\'s own triggers.' }),
    Outcome: required(RunOutcome),
    Reason: optional(string, { doc: 'Why the run was skipped: "the condition is not met", the chain\'s depth.' }),
  },
  children: {
    Action: many(complex({
      name: 'AutomationRunAction',
      attributes: { Do: required(string, { doc: 'The action (moveStatus, sendMail, …).' }), Outcome: required(ActionOutcome), Reason: optional(string) },
    })),
  },
});

/** GetProjectAutomationRuns: the project's automation runs in the order they ran. */
export const ProjectAutomationRunsResponse = responseDocument('ProjectAutomationRunsResponse', complex({
  children: {
    Project: one(complex({
      attributes: { ProjectId: required(string) },
      children: { AutomationRun: many(AutomationRun) },
    })),
  },
}), '(apas) GetProjectAutomationRuns: what the program\'s automations did on the project, in the order they ran (staff).');

const ScheduledProject = {
  ProjectId: required(string), ProjectNumber: optional(string, { doc: 'Absent for a project never submitted.' }),
  Status: required(string, { doc: 'The customId (else name) of its status.' }),
};

const ScheduleAttributes = {
  AutomationId: required(string, { doc: 'The schedule\'s customId.' }), Name: required(string),
  Day: required(LocalDate, { doc: 'The local day it counts for: a project is acted on once a day.' }),
};

/** GetAutomationSchedule: the projects a daily schedule selects now. */
export const AutomationScheduleResponse = responseDocument('AutomationScheduleResponse', complex({
  children: {
    Schedule: one(complex({
      attributes: { ...ScheduleAttributes, At: required(string, { doc: 'Its local time of day (HH:MM).' }) },
      children: {
        Project: many(complex({
          name: 'ScheduleSelectedProject',
          attributes: { ...ScheduledProject, DoneToday: required(boolean, { doc: 'True when the schedule acted on it today already: a run passes it by.' }) },
        })),
      },
    })),
  },
}), '(apas) GetAutomationSchedule: the projects a daily schedule selects now, in creation order.');

/** RunAutomationSchedule: the projects the run acted on. */
export const AutomationScheduleRunResponse = responseDocument('AutomationScheduleRunResponse', complex({
  children: {
    Schedule: one(complex({
      attributes: ScheduleAttributes,
      children: {
        Acted: many(complex({ name: 'ScheduleActedProject', attributes: ScheduledProject }), 0, Number.POSITIVE_INFINITY, 'A project the run acted on, as it is after the run.'),
        Failed: many(complex({ name: 'ScheduleFailedProject', attributes: { ProjectId: required(string) } }), 0, Number.POSITIVE_INFINITY, 'A project whose change failed (logged); not retried today by the daily run.'),
      },
    })),
  },
}), '(apas) RunAutomationSchedule: the projects a run of a daily schedule now acted on.');

/** GetProjectAutomationRuns' answer. */
export function automationRunsValue(view: AutomationRunsView): DocumentValue<typeof ProjectAutomationRunsResponse> {
  return {
    Project: {
      ProjectId: view.projectId,
      AutomationRun: view.runs.map((r) => ({
        AutomationId: r.automation, Name: r.name, Timestamp: isoTimestamp(r.at), Trigger: r.trigger, Depth: r.depth, Outcome: r.outcome, Reason: r.reason ?? undefined,
        Action: r.actions.map((a) => ({ Do: a.do, Outcome: a.outcome, Reason: a.reason ?? undefined })),
      })),
    },
  };
}

function projectValue(p: ScheduledProjectView) {
  return { ProjectId: p.projectId, ProjectNumber: p.number ?? undefined, Status: p.status };
}

/** GetAutomationSchedule's answer. */
export function schedulePreviewValue(view: SchedulePreviewView): DocumentValue<typeof AutomationScheduleResponse> {
  return {
    Schedule: {
      AutomationId: view.automation, Name: view.name, Day: view.day, At: view.at,
      Project: view.projects.map((p) => ({ ...projectValue(p), DoneToday: p.doneToday })),
    },
  };
}

/** RunAutomationSchedule's answer. */
export function scheduleRunValue(view: ScheduleRunView): DocumentValue<typeof AutomationScheduleRunResponse> {
  return {
    Schedule: {
      AutomationId: view.automation, Name: view.name, Day: view.day,
      Acted: view.acted.map(projectValue), Failed: view.failed.map((id) => ({ ProjectId: id })),
    },
  };
}
