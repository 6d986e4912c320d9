import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import type { ConnectionAuth } from '../../model/connection.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { formText, noticeOf, pageRefusal, requiredText } from './console-form.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { type ConnectionForm, type ConnectionRefusal, ConnectionPage, ConnectionsPage, CONNECTIONS_PATH } from './connections-pages.tsx';

const NOTICES = {
  set: 'The connection was saved. Its secret is sealed and is not shown again.',
  cleared: 'The connection\'s settings were cleared: its calls wait until an address is set again.',
} as const;

// A form field that must be given for the chosen sign-in; the refusal names it.
function needed(body: unknown, name: string, setting: string, label: string): string {
  const value = formText(body, name);
  if (value.trim() === '') throw new ApiError('INVALID_REQUEST', `${label} is required.`, { fields: [{ dataFieldId: setting, code: 'REQUIRED', message: `${label} is required.` }] });
  return value;
}

// The sign-in the form chose, with its fields; each secret exactly as typed.
function authOf(body: unknown): ConnectionAuth {
  const kind = formText(body, 'SignIn');
  if (kind === 'none') return { kind: 'none' };
  if (kind === 'header') return { kind: 'header', name: needed(body, 'HeaderName', 'headerName', 'The header name').trim(), value: needed(body, 'HeaderSecret', 'headerSecret', 'The header secret') };
  if (kind === 'oauth') {
    return {
      kind: 'oauth', tokenUrl: needed(body, 'TokenUrl', 'tokenUrl', 'The token URL').trim(), clientId: needed(body, 'ClientId', 'clientId', 'The client id').trim(),
      clientSecret: needed(body, 'ClientSecret', 'clientSecret', 'The client secret'), scope: formText(body, 'Scope').trim() || null,
    };
  }
  throw new ApiError('INVALID_REQUEST', 'Choose how the connection signs in.', { fields: [{ dataFieldId: 'signIn', code: 'REQUIRED', message: 'Choose how the connection signs in.' }] });
}

// What the form held, without its secrets, to show it again after a refusal.
function formOf(body: unknown): ConnectionForm {
  return {
    url: formText(body, 'Url'), signIn: formText(body, 'SignIn'), headerName: formText(body, 'HeaderName'),
    tokenUrl: formText(body, 'TokenUrl'), clientId: formText(body, 'ClientId'), scope: formText(body, 'Scope'),
  };
}

/**
 * The console's Connections area: each administered program's connections with where they go (never a secret), and a
 * connection's page with the form that sets its address and sign-in (the CLI's `apas connection set`, secrets entered
 * once and never echoed, even after a refusal) and the button that clears them. Plain GET pages and POST forms with the
 * CSRF token; every rule is ConnectionSettingsService's, through services.connectionAdmin.
 */
export function connectionsRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const connections = deps.services.connectionAdmin;
  const base = (c: ConsoleRequest, notice: string | null) => ({ user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, timeZone: deps.timeZone, notice });
  const editPage = async (reply: FastifyReply, c: ConsoleRequest, source: unknown, status: number, extra: { notice?: string | null; form?: ConnectionForm; refusal?: ConnectionRefusal }) => {
    const found = await connections.connection(c.caller, requiredText(source, 'ProgramId'), requiredText(source, 'ConnectionId'));
    return sendPage(reply, renderPage(ConnectionPage({ ...base(c, extra.notice ?? null), ...found, form: extra.form ?? null, refusal: extra.refusal ?? null })), status);
  };

  web.get(CONNECTIONS_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return sendPage(reply, renderPage(ConnectionsPage({ ...base(c, noticeOf(NOTICES, request.query)), overview: await connections.overview(c.caller) })));
  });

  web.get(`${CONNECTIONS_PATH}/Edit`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return editPage(reply, c, request.query, 200, {});
  });

  web.post(`${CONNECTIONS_PATH}/Set`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const programId = requiredText(request.body, 'ProgramId');
    const connectionId = requiredText(request.body, 'ConnectionId');
    try {
      await connections.set(c.caller, programId, connectionId, needed(request.body, 'Url', 'url', 'The address').trim(), authOf(request.body));
      return reply.redirect(`${CONNECTIONS_PATH}?notice=set`, 303);
    } catch (error) {
      const refusal = pageRefusal(error);
      if (!refusal) throw error;
      return editPage(reply, c, request.body, refusal.status, {
        form: formOf(request.body), refusal: { message: refusal.fields[0]?.message ?? refusal.message, field: refusal.fields[0]?.dataFieldId ?? null },
      });
    }
  });

  web.post(`${CONNECTIONS_PATH}/Clear`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await connections.clear(c.caller, requiredText(request.body, 'ProgramId'), requiredText(request.body, 'ConnectionId'));
    return reply.redirect(`${CONNECTIONS_PATH}?notice=cleared`, 303);
  });
}
