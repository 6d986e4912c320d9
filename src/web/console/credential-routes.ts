import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { CREDENTIALS_PATH, CredentialsIndexPage, credentialsPath, UserCredentialsPage } from './credential-pages.tsx';
import { formField } from '../form-field.ts';

const NOTICES = { key: 'The API key was revoked.', client: 'The OAuth client and its access tokens were revoked.' } as const;

/**
 * The console's Credentials area (agency admins): a user's API keys and OAuth clients, through
 * services.peopleAdmin.credentials. A new secret is shown on the answer to its POST only (no redirect, no-store), so
 * no address and no later page carries it.
 */
export function credentialRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const credentials = deps.services.peopleAdmin.credentials;
  const { timeZone } = deps;
  const userIdOf = (params: unknown) => formField(params, 'userId');
  const noticeOf = (query: unknown) => {
    const key = formField(query, 'notice');
    return Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null;
  };

  web.get(CREDENTIALS_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const search = formField(request.query, 'q');
    return sendPage(reply, renderPage(CredentialsIndexPage({ user: c.user, csrfToken: c.csrfToken, timeZone, search, people: await credentials.people(c.caller, search) })));
  });

  web.get(`${CREDENTIALS_PATH}/:userId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const list = await credentials.list(c.caller, userIdOf(request.params));
    return sendPage(reply, renderPage(UserCredentialsPage({ user: c.user, csrfToken: c.csrfToken, timeZone, credentials: list, notice: noticeOf(request.query) })));
  });

  web.post(`${CREDENTIALS_PATH}/:userId/Keys`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const userId = userIdOf(request.params);
    const key = await credentials.createKey(c.caller, userId, formField(request.body, 'Name'));
    const list = await credentials.list(c.caller, userId);
    return sendPage(reply, renderPage(UserCredentialsPage({ user: c.user, csrfToken: c.csrfToken, timeZone, credentials: list, created: { kind: 'key', id: key.id, name: key.name, key: key.key } })));
  });

  web.post(`${CREDENTIALS_PATH}/:userId/Clients`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const userId = userIdOf(request.params);
    const client = await credentials.createClient(c.caller, userId, formField(request.body, 'Name'));
    const list = await credentials.list(c.caller, userId);
    return sendPage(reply, renderPage(UserCredentialsPage({ user: c.user, csrfToken: c.csrfToken, timeZone, credentials: list, created: { kind: 'client', id: client.id, name: client.name, secret: client.secret } })));
  });

  web.post(`${CREDENTIALS_PATH}/:userId/Keys/Revoke`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await credentials.revokeKey(c.caller, userIdOf(request.params), formField(request.body, 'KeyId'));
    return reply.redirect(`${credentialsPath(userIdOf(request.params))}?notice=key`, 303);
  });

  web.post(`${CREDENTIALS_PATH}/:userId/Clients/Revoke`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await credentials.revokeClient(c.caller, userIdOf(request.params), formField(request.body, 'ClientId'));
    return reply.redirect(`${credentialsPath(userIdOf(request.params))}?notice=client`, 303);
  });
}
