/** A file sent with a mail (a generated document). */
export interface MailFile { fileName: string; contentType: string; content: Buffer }

/** One e-mail to send: a single recipient, a subject, the same content as plain text and as HTML, and any files. */
export interface OutgoingMail { to: string; subject: string; text: string; html: string; attachments?: MailFile[] }

/** Sends e-mail; an interface so tests and installations without SMTP can pass their own. */
export interface Mailer {
  /** Hands the message to the mail server; rejects when the server refused it or could not be reached. */
  send(message: OutgoingMail): Promise<void>;
  /** Closes open connections. */
  close(): void;
}
