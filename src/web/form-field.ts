import type { FastifyReply } from 'fastify';

/** A text field of a posted form (or a query or path parameter); '' when it is missing or not a single string. */
export function formField(source: unknown, name: string): string {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a posted field that may repeat (checkboxes of one name): its strings, none when it is missing. */
export function formList(source: unknown, name: string): string[] {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Sends a page of a signed-in user's own things: never cached, and no Referer to wherever its links lead. */
export function sendPrivatePage(reply: FastifyReply, page: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(page);
}
