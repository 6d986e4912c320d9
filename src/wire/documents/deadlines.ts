import type { DeadlineView, DeadlinesView } from '../../domain/deadlines/deadline-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { boolean, complex, type DocumentValue, dateTime, enumeration, many, one, optional, required, responseDocument, restrict, string } from '../wire-type.ts';

const DeadlineState = enumeration('DeadlineState', ['running', 'satisfied', 'cancelled', 'passed'],
  'running until satisfied or cancelled (by staff) or passed (at DueAt, by the service).');

/** A date (YYYY-MM-DD) in the program's time zone: a deadline's due day, a daily schedule's day. */
export const LocalDate = restrict(string, { name: 'LocalDate', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', doc: 'A date (YYYY-MM-DD) in the program\'s time zone.' });

const Deadline = complex({
  name: 'Deadline',
  doc: 'A deadline of the project: due by DueDate (a local day of the program\'s calendar), passing at DueAt, the start of the next local day.',
  attributes: {
    DeadlineId: required(string, { doc: 'The customId of the program\'s deadline.' }),
    Name: required(string),
    State: required(DeadlineState),
    StartedAt: required(dateTime),
    DueDate: required(LocalDate, { doc: 'The last day allowed: shown "by <DueDate>".' }),
    DueAt: required(dateTime, { doc: 'When the deadline passes: the end of DueDate in the program\'s time zone.' }),
    EndedAt: optional(dateTime, { doc: 'When it was satisfied, cancelled or passed; absent while running.' }),
    Overdue: required(boolean, { doc: 'True when it passed, or is running past DueAt.' }),
    ShownToApplicant: required(boolean),
  },
});

/** GetProjectDeadlines: the project's deadlines in the order they are due. */
export const ProjectDeadlinesResponse = responseDocument('ProjectDeadlinesResponse', complex({
  children: {
    Project: one(complex({
      attributes: { ProjectId: required(string) },
      children: { Deadline: many(Deadline) },
    })),
  },
}), 'GetProjectDeadlines: the project\'s deadlines in the order they are due (applicants see those shown to them only).');

/** StartProjectDeadline, SatisfyProjectDeadline, CancelProjectDeadline: the deadline after the change. */
export const ProjectDeadlineResponse = responseDocument('ProjectDeadlineResponse', complex({
  children: { Deadline: one(Deadline) },
}), 'StartProjectDeadline, SatisfyProjectDeadline, CancelProjectDeadline: the deadline after the change.');

function deadlineValue(d: DeadlineView) {
  return {
    DeadlineId: d.customId, Name: d.name, State: d.state, StartedAt: isoTimestamp(d.startedAt), DueDate: d.dueDate, DueAt: isoTimestamp(d.dueAt),
    EndedAt: d.endedAt === null ? undefined : isoTimestamp(d.endedAt), Overdue: d.overdue, ShownToApplicant: d.shownToApplicant,
  };
}

/** GetProjectDeadlines' answer. */
export function deadlinesValue(view: DeadlinesView): DocumentValue<typeof ProjectDeadlinesResponse> {
  return { Project: { ProjectId: view.projectId, Deadline: view.deadlines.map(deadlineValue) } };
}

/** The answer of a change of one deadline. */
export function deadlineAnswerValue(view: DeadlineView): DocumentValue<typeof ProjectDeadlineResponse> {
  return { Deadline: deadlineValue(view) };
}
