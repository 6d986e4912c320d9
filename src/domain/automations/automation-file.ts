import type { MailRecipient, TriggerKind } from '../../model/automation.ts';

/** An automation's trigger as a program file writes it: parts named by reference (customId or name); null: any. */
export interface WhenSpec {
  trigger: TriggerKind; form: string | null; status: string | null; field: string | null; attachment: string | null;
  approval: string | null; by: 'staff' | 'applicant' | null; visibleToApplicant: boolean | null; deadline: string | null;
  /** schedule: the local time of day it runs at (HH:MM). */
  at: string | null;
  /** connection.failed: the connection's customId (absent or null: any). */
  connection?: string | null;
}

/** One action as a program file writes it (`do` says which; the other keys are the ones that action takes). */
export interface ActionSpec {
  do: 'moveStatus' | 'setField' | 'assign' | 'openInquiry' | 'sendMail' | 'emitEvent' | 'startDeadline' | 'satisfyDeadline' | 'cancelDeadline' | 'generateDocument' | 'createRelatedProject' | 'callConnection';
  to?: string; field?: string; value?: string; user?: string; role?: string; pick?: 'roundRobin' | 'leastLoaded';
  subject?: string; text?: string; visibleToApplicant?: boolean; name?: string; reason?: string; message?: string; template?: string; deadline?: string;
  /** generateDocument: the document's customId; sendMail: the documents whose generated file the mail carries. */
  document?: string; attach?: string[];
  /** createRelatedProject: the customId of one of the program's relations. */
  relation?: string;
  /** callConnection: the customId of one of the program's connections. */
  connection?: string;
}

/** An automation of a program file: `when` a trigger, `if` a CEL condition (null: always), `then` its actions in order. */
export interface AutomationSpec {
  customId: string; name: string; when: WhenSpec; if: string | null;
  /** The file's `then` (named apart so that the object never looks like a promise to `await`). */
  actions: ActionSpec[];
}

/** The raw `automations:` items the schema accepted. */
export interface RawAutomation {
  customId: string; name: string; if?: string; then: ActionSpec[];
  when: { trigger: TriggerKind; form?: string; status?: string; field?: string; attachment?: string; approval?: string; by?: 'staff' | 'applicant'; visibleToApplicant?: boolean; deadline?: string; at?: string; connection?: string };
}

/** The file's automations with every absent filter as null, so that a stored copy compares equal to the file's. */
export function normaliseAutomations(raw: RawAutomation[] | undefined): AutomationSpec[] {
  return (raw ?? []).map((a) => ({
    customId: a.customId, name: a.name, if: a.if ?? null,
    when: {
      trigger: a.when.trigger, form: a.when.form ?? null, status: a.when.status ?? null, field: a.when.field ?? null,
      attachment: a.when.attachment ?? null, approval: a.when.approval ?? null, by: a.when.by ?? null, visibleToApplicant: a.when.visibleToApplicant ?? null, deadline: a.when.deadline ?? null,
      at: a.when.at ?? null,
      ...(a.when.connection === undefined ? {} : { connection: a.when.connection }),
    },
    actions: a.then.map((x) => ({ ...x })),
  }));
}

/** The recipients a sendMail action names with `to`. */
export const MAIL_RECIPIENTS: readonly MailRecipient[] = ['owner', 'assignee', 'role'];
