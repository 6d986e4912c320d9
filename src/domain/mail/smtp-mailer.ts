import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from './mailer.ts';

/** Time limits of one SMTP conversation, so a hung server fails an attempt instead of holding the sender (ms). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** A Mailer over SMTP (nodemailer), from an smtp:// or smtps:// URL with optional credentials, sending as `from`. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    send: async (m: OutgoingMail) => {
      const attachments = m.attachments?.map((a) => ({ filename: a.fileName, contentType: a.contentType, content: a.content }));
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, ...(attachments && attachments.length > 0 ? { attachments } : {}) });
    },
    close: () => transport.close(),
  };
}
