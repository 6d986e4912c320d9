import type { Envelope, EnvelopeSigner } from '../../model/document.ts';
import type { Program, Project } from '../../model/model.ts';
import type { MailTemplate } from '../../model/notification.ts';
import { renderMail } from '../mail-template.ts';

const LINK_MAIL: MailTemplate = {
  subject: '{{programName}}: please sign {{title}}',
  text: 'You are asked to sign "{{title}}" for project {{projectNumber}} in {{programName}}.\n\n'
    + 'Read it and sign it in your browser here; the link works for you alone, once, until {{expires}}:\n{{link}}\n\n'
    + 'You may decline on that page, or ask {{programName}} to sign on paper instead.\n',
};

const ROLE_MAIL: MailTemplate = {
  subject: '{{programName}}: {{title}} waits for your signature',
  text: '"{{title}}" of project {{projectNumber}} in {{programName}} waits for a signature of your role ({{role}}).\n\n'
    + 'Sign in and sign it here:\n{{link}}\n',
};

/** What a signing mail says: the document, the project, the link and (for a mailed link) when it expires. */
export interface SigningMailInput { program: Program; project: Project; envelope: Envelope; signer: EnvelopeSigner; link: string; expires: string | null; reminder: boolean }

/** The mail that asks one signer to sign: a personal link for a person, a link to sign in with for a role's holders. */
export function signingMail(input: SigningMailInput): { subject: string; text: string; html: string } {
  const { program, project, envelope, signer, link, expires, reminder } = input;
  const values = { programName: program.name, title: envelope.title, projectNumber: project.number ?? project.id, link, expires: expires ?? '', role: signer.name };
  const mail = renderMail(signer.kind === 'role' ? ROLE_MAIL : LINK_MAIL, values);
  return reminder ? { ...mail, subject: `Reminder: ${mail.subject}` } : mail;
}
