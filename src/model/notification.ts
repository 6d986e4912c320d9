/** The notifications a program can word in its program file: status changed, a question from the agency, an assignment. */
export const NOTIFICATION_KINDS = ['statusChanged', 'question', 'assigned'] as const;

/** One kind of notification. */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The wording of one notification: a subject line and a plain-text body, both with {{placeholders}}. */
export interface MailTemplate { subject: string; text: string }

/** A program's own wording per kind; kinds left out use the defaults. */
export type NotificationTemplates = Partial<Record<NotificationKind, MailTemplate>>;
