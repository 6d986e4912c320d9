/**
 * The triggers an automation may wait for (docs/programs.md, "Automations"). Each is read from the audit action of a
 * change (src/domain/automations/triggers-of-change.ts); `schedule` is the daily run of one automation over the
 * program's projects (src/domain/automations/schedule-runner.ts).
 */
export const TRIGGER_KINDS = [
  'project.created', 'form.saved', 'form.submitted', 'status.entered', 'status.left', 'field.changed',
  'attachment.uploaded', 'attachment.reviewed', 'inquiry.note_added',
  'deadline.started', 'deadline.passed', 'deadline.satisfied', 'deadline.cancelled', 'schedule',
  'envelope.completed', 'envelope.declined', 'envelope.voided',
  'connection.failed',
] as const;

/** One kind of trigger. */
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** What an automation waits for: the trigger and its filter (ids of the program's parts; null: any). */
export interface AutomationWhen {
  trigger: TriggerKind;
  formId: string | null; statusId: string | null; fieldId: string | null; attachmentId: string | null;
  /** attachment.reviewed: the approval status the review set. */
  approval: string | null;
  /** inquiry.note_added: who wrote the note. */
  by: 'staff' | 'applicant' | null;
  /** inquiry.note_added: whether the note is one the applicant sees (absent or null: any). */
  visibleToApplicant?: boolean | null;
  /** deadline.*: the customId of the program's deadline (absent in automations stored before deadlines). */
  deadlineId?: string | null;
  /** schedule: the local time of day (HH:MM, the program calendar's time zone) it runs at each day. */
  at?: string | null;
  /** connection.failed: the customId of the program's connection (absent or null: any). */
  connectionId?: string | null;
}

/** Who an automation's mail goes to. */
export type MailRecipient = 'owner' | 'assignee' | 'role';

/** One action of an automation; parts of the program by id. */
export type AutomationAction =
  | { do: 'moveStatus'; statusId: string; reasonId: string | null; message: string | null }
  | { do: 'setField'; fieldId: string; value: string }
  | { do: 'assign'; user: string | null; role: string | null; pick: 'roundRobin' | 'leastLoaded' | null }
  | { do: 'openInquiry'; subject: string; text: string; visibleToApplicant: boolean }
  /**
   * `template`: the customId of one of the program's named mail templates (then subject and text are empty); `attach`:
   * customIds of the program's documents whose generated file goes with the mail (absent or empty for none).
   */
  | { do: 'sendMail'; to: MailRecipient; role: string | null; subject: string; text: string; template: string | null; attach?: string[] }
  /** Asks for one of the program's documents (by customId) to be generated; it is rendered after the change commits. */
  | { do: 'generateDocument'; documentId: string }
  /** Calls one of the program's connections (by customId) after the change commits, and applies its answer in a change of its own. */
  | { do: 'callConnection'; connectionId: string }
  | { do: 'emitEvent'; name: string }
  /** Creates the related project one of the program's relations (by customId) describes, once per project (src/domain/relations). */
  | { do: 'createRelatedProject'; relation: string }
  | { do: 'startDeadline' | 'satisfyDeadline' | 'cancelDeadline'; deadlineId: string };

/** An automation as the program stores it: when a trigger happens, if the condition holds, run the actions in order. */
export interface Automation {
  customId: string; name: string; when: AutomationWhen; if: string | null;
  /** The file's `then` (a property named `then` would make the object look like a promise to `await`). */
  actions: AutomationAction[];
}
