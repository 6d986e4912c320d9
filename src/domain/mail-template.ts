import { NOTIFICATION_KINDS, type MailTemplate, type NotificationKind, type NotificationTemplates } from '../model/notification.ts';

/**
 * The placeholders every template of a program file may use; `reason` (the reason's name) and `message` are those a
 * status move gave (src/domain/workflow), empty where there are none.
 */
export const PLACEHOLDERS = ['projectNumber', 'status', 'link', 'programName', 'reason', 'message', 'deadlines'] as const;

/** The values of a template's placeholders. */
export type PlaceholderValues = Record<(typeof PLACEHOLDERS)[number], string>;

/** A message ready to queue: subject, plain text and HTML. */
export interface RenderedMail { subject: string; text: string; html: string }

/** The wording used when a program's file defines none for a kind. */
export const DEFAULT_TEMPLATES: Record<NotificationKind, MailTemplate> = {
  statusChanged: {
    subject: '{{programName}}: project {{projectNumber}} is now {{status}}',
    text: 'The status of your project {{projectNumber}} in {{programName}} changed to "{{status}}".\n\nSee your project: {{link}}\n',
  },
  question: {
    subject: '{{programName}}: a question about project {{projectNumber}}',
    text: 'The agency asked a question about your project {{projectNumber}} in {{programName}}.\n{{deadlines}}\nRead and answer it on your project page: {{link}}\n',
  },
  assigned: {
    subject: '{{programName}}: project {{projectNumber}} was assigned to you',
    text: 'Project {{projectNumber}} in {{programName}} (status "{{status}}") was assigned to you.\n\nOpen the project: {{link}}\n',
  },
};

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

// How a person reading a template is told what each placeholder becomes.
const PLACEHOLDER_WORDS: PlaceholderValues = {
  projectNumber: 'project number', status: 'status', link: 'link to the project', programName: 'program name',
  reason: 'reason', message: 'message', deadlines: 'running deadlines',
};

/** A template's text for people choosing it: each placeholder as the words for what it becomes, in ‹ ›. */
export function readablePlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (name in PLACEHOLDER_WORDS ? `‹${PLACEHOLDER_WORDS[name as keyof PlaceholderValues]}›` : whole));
}

/**
 * The problems of a program's templates (unknown kinds are left to the schema): placeholders no notification knows;
 * `at` says where in the file one was written (program-lines.ts).
 */
export function templateProblems(templates: NotificationTemplates, at: PlaceholderAt = () => ''): string[] {
  return NOTIFICATION_KINDS.flatMap((kind) => {
    const t = templates[kind];
    return t ? mailTemplateProblems(t, `notifications.${kind}`, (part, text, index) => at(`${kind}.${part}`, text, index)) : [];
  });
}

/** Where a placeholder was written: ` (line N, column C)` for the character at `index` of a template's part, or ''. */
export type PlaceholderAt = (part: string, text: string, index: number) => string;

/** The unknown placeholders of one template, each a problem beginning with `where` (e.g. `notifications.question`). */
export function mailTemplateProblems(template: MailTemplate, where: string, at: PlaceholderAt = () => ''): string[] {
  const problems: string[] = [];
  for (const part of ['subject', 'text'] as const) {
    for (const m of template[part].matchAll(PLACEHOLDER)) {
      const name = m[1] ?? '';
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
        problems.push(`${where}.${part}${at(part, template[part], m.index)}: unknown placeholder "{{${name}}}"; use ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`);
      }
    }
  }
  return problems;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Fills in a template: the subject on one line, the text as written, and HTML in which the template's own text and
 * every value are escaped (links, placeholders named `…link`, become anchors), so no value can add markup to the message.
 */
export function renderMail(template: MailTemplate, values: Readonly<Record<string, string>>): RenderedMail {
  const value = (name: string) => values[name] ?? '';
  const subject = template.subject.replace(PLACEHOLDER, (_, name: string) => value(name)).replace(/[\r\n]+/g, ' ').trim();
  const text = template.text.replace(PLACEHOLDER, (_, name: string) => value(name));
  let body = '';
  let last = 0;
  for (const m of template.text.matchAll(PLACEHOLDER)) {
    body += escapeHtml(template.text.slice(last, m.index));
    const name = m[1] ?? '';
    body += /link$/i.test(name) ? `<a href="${escapeHtml(value(name))}">${escapeHtml(value(name))}</a>` : escapeHtml(value(name));
    last = m.index + m[0].length;
  }
  body += escapeHtml(template.text.slice(last));
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`
    + `<body><div style="white-space: pre-wrap; font-family: sans-serif">${body}</div></body></html>`;
  return { subject, text, html };
}

/** The template of `kind` for a program: its own, else the default. */
export function templateFor(templates: NotificationTemplates | null | undefined, kind: NotificationKind): MailTemplate {
  return templates?.[kind] ?? DEFAULT_TEMPLATES[kind];
}
