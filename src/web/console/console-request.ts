import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleScope } from '../../domain/administration/console-scope.ts';
import type { Caller } from '../../domain/caller.ts';
import { csrfToken } from '../csrf.ts';
import type { PageUser } from '../layout.tsx';
import type { WebAppDeps } from '../web-app-deps.ts';
import { pageUser, webCaller } from '../web-session-request.ts';

/** What every console route starts from: the caller, their console scope, the page header's user and a CSRF token. */
export interface ConsoleRequest { caller: Caller; scope: ConsoleScope; user: PageUser; csrfToken: string }

/** The signed-in caller of a console page and what they administer; FORBIDDEN for someone who administers nothing. */
export async function consoleRequest(request: FastifyRequest, reply: FastifyReply, deps: WebAppDeps): Promise<ConsoleRequest> {
  const caller = await webCaller(request, reply, deps.services, deps.publicUrl);
  const scope = await deps.services.console.scope(caller);
  const [user, agencyName] = await Promise.all([pageUser(deps.services, caller), deps.services.console.agencyName(caller)]);
  return { caller, scope, user: { ...user, agencyName }, csrfToken: csrfToken(reply) };
}

/** Sends a rendered console page, never cached (it shows the agency's people and secrets' metadata). */
export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
}
