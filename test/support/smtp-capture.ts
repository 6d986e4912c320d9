import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the test SMTP server received it, parsed by mailparser. */
export interface CapturedMail { to: string; from: string; subject: string; text: string; html: string; parsed: ParsedMail }

/** A real SMTP server in this process on 127.0.0.1, keeping what it receives; it can be stopped and started again on its port. */
export interface SmtpCapture {
  /** smtp://127.0.0.1:PORT */
  readonly url: string;
  readonly messages: CapturedMail[];
  /** The messages to one address. */
  mailbox(address: string): CapturedMail[];
  /** Resolves once `count` messages in all have arrived (fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<void>;
  /** Stops listening: the port refuses connections, as a mail server that is down. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

function newServer(messages: CapturedMail[]): SMTPServer {
  return new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((parsed) => {
        const to = [parsed.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? '')).join(', ');
        messages.push({
          to, from: parsed.from?.value[0]?.address ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '', parsed,
        });
        callback();
      }, (error: Error) => callback(error));
    },
  });
}

function listen(server: SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
  });
}

/** Starts a capturing SMTP server on a free port of 127.0.0.1. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  let server: SMTPServer | null = newServer(messages);
  const port = await listen(server, 0);
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    mailbox: (address) => messages.filter((m) => m.to.toLowerCase() === address.toLowerCase()),
    waitFor: async (count, ms = 10_000) => {
      const until = Date.now() + ms;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, got ${messages.length}: ${messages.map((m) => m.subject).join('; ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: async () => {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: async () => {
      if (server) return;
      server = newServer(messages);
      await listen(server, port);
    },
  };
}

/** The latest mail to `to` whose subject is `subject` (or matches it), waiting up to 10 s for the sender to deliver it. */
export async function mailTo(smtp: SmtpCapture, to: string, subject: string | RegExp): Promise<CapturedMail> {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = smtp.mailbox(to).filter((m) => (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject))).at(-1);
    if (found) return found;
    assert.ok(Date.now() < until, `no mail "${subject}" to ${to}; got ${smtp.messages.map((m) => `${m.to}: ${m.subject}`).join('; ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
