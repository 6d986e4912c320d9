import type { StoredEvent } from '../../model/event.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Program, Status } from '../../model/model.ts';
import type { NotificationKind } from '../../model/notification.ts';
import type { StoreWriter } from '../../store/store.ts';
import { applicantDeadlinesText } from '../deadlines/applicant-deadlines-text.ts';
import { renderMail, templateFor } from '../mail-template.ts';
import { userReaches } from '../roles/user-reaches.ts';
import type { OutboxConsumer } from '../events/outbox-consumer.ts';
import { type MailContext, projectMailValues, statusChangedTemplate } from '../workflow/named-mail.ts';

/** The name of the mail consumer's cursor in the outbox. */
export const MAIL_CONSUMER = 'mail';

/** What the notifier needs: new ids, and the public address that project links start with. */
export interface MailNotifierDeps { ids: IdGenerator; publicUrl: string }

interface Notice { kind: NotificationKind; to: string }

/**
 * Who is told about an event, or null: resolved as of the change, from what the event recorded in the change's
 * transaction, never from the project as it is when the mail round runs (which may have had another owner since).
 * The applicant (the project's owner at the change) hears of status changes and of questions (notes by staff that the
 * applicant may see); a staff member hears of being assigned a project. Nobody is mailed about their own action: a
 * staff member who assigns a project to themselves gets no mail, nor does an owner who is also staff and moves their
 * own project. What an automation did (the event names it) is nobody's own action, though written in the name of the
 * person whose change triggered it: an applicant whose submission an automation declines is told.
 */
function recipientOf(event: StoredEvent): Notice | null {
  const { type, data, actorId, ownerId } = event;
  let notice: Notice | null = null;
  if (type === 'project.status_changed' && ownerId !== null) notice = { kind: 'statusChanged', to: ownerId };
  else if (type === 'inquiry.note_added' && data.byStaff === true && data.visibleToApplicant === true && ownerId !== null) notice = { kind: 'question', to: ownerId };
  else if (type === 'project.assignee_changed' && typeof data.toUserId === 'string') notice = { kind: 'assigned', to: data.toUserId };
  if (notice === null) return null;
  return notice.to !== actorId || data.automation !== undefined ? notice : null;
}

/**
 * The outbox consumer that turns events into queued notification mails, in the transaction that moves its cursor,
 * so each event is mailed about once. Disabled recipients, projects gone meanwhile, and owners no longer members of
 * the organization the project was started for are skipped.
 */
export function mailNotifier(deps: MailNotifierDeps): OutboxConsumer {
  return {
    name: MAIL_CONSUMER,
    handle: async (tx, events) => {
      for (const event of events) await notify(tx, deps, event);
    },
  };
}

async function notify(tx: StoreWriter, deps: MailNotifierDeps, event: StoredEvent): Promise<void> {
  if (!['project.status_changed', 'inquiry.note_added', 'project.assignee_changed'].includes(event.type)) return;
  const notice = recipientOf(event);
  if (!notice) return;
  const project = await tx.projects.getProject(event.programId, event.projectId);
  if (!project) return;
  const [user, program] = await Promise.all([tx.accounts.findUserById(notice.to), tx.programs.findProgram(event.programId)]);
  if (!user || user.disabled || !program) return;
  // An organization's project reaches its owner only while they are a member: one removed reads nothing of it any more.
  if (notice.kind !== 'assigned' && project.organizationId && !(await tx.organizations.organizationIdsOf(user.id)).includes(project.organizationId)) return;
  // A grant limited to access groups hears only of the projects in them now (agency admins have every project).
  if (!(await userReaches(tx.accounts, user, program, project))) return;
  const moved = notice.kind === 'statusChanged';
  const status = await statusOf(tx, program, moved ? event.data.toStatusId ?? project.statusId : project.statusId);
  // The move's reason and message are in its history entry (the event keeps the message out of the feed).
  const context = { ...(moved ? await moveOf(tx, event, status.id) : {}), deadlines: await applicantDeadlinesText(tx, program, project.id) };
  const values = projectMailValues(program, { ...project, number: event.data.projectNumber ?? project.number }, status, deps.publicUrl, context);
  const template = moved ? statusChangedTemplate(program, status) : templateFor(program.notifications, notice.kind);
  const mail = renderMail(template, values);
  await tx.mail.enqueueMail({ id: deps.ids.next(), kind: notice.kind, eventId: event.id, to: user.email, ...mail, createdAt: event.at, projectId: project.id, toUserId: user.id });
}

async function statusOf(tx: StoreWriter, program: Program, statusId: string): Promise<Status> {
  const model = await tx.programs.loadProgramModel(program);
  const active = model.statuses.find((s) => s.id === statusId);
  if (active) return active;
  // A status retired since the event was written is still in the program's definition.
  const definition = await tx.programs.loadProgramDefinition(program.id);
  return definition?.statuses.find((s) => s.id === statusId) ?? { id: statusId, customId: null, publicId: statusId, name: statusId, isInitial: false, position: 0, next: [] };
}

// The history entry the move wrote in the event's transaction: same status, same time.
async function moveOf(tx: StoreWriter, event: StoredEvent, statusId: string): Promise<MailContext> {
  const entry = (await tx.projects.getHistory(event.projectId)).find((e) => e.statusId === statusId && e.changedAt === event.at);
  return { reasonId: entry?.reasonId ?? null, message: entry?.message ?? null };
}
