import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { ORGANIZATION_PATHS } from '../domain/organizations/organization-service.ts';
import { isIdLike } from '../model/ids.ts';
import { csrfToken } from './csrf.ts';
import { organizationPath, ORGANIZATIONS_PATH } from './organization-paths.ts';
import { AcceptInvitationPage, OrganizationPage, OrganizationsPage } from './pages/organization-pages.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

type Form = Record<string, unknown>;

function field(source: unknown, name: string): string {
  const value = (source as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function html(reply: FastifyReply, page: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(page);
}

function organizationId(params: unknown): string {
  const id = field(params, 'organizationId');
  if (!isIdLike(id)) throw new ApiError('NOT_FOUND', 'There is no such organization.');
  return id;
}

// What a page says after a change; the address names one of these, so a crafted link cannot put words on the page.
const NOTICES = {
  created: 'The organization was created; you are its admin.',
  joined: 'You joined the organization.',
  invited: 'The invitation was sent.',
  removed: 'The member was removed.',
  defaults: 'The defaults were saved.',
} as const;

// After a change the page is shown again (post/redirect/get), with what happened in a notice.
function back(reply: FastifyReply, path: string, notice: keyof typeof NOTICES): FastifyReply {
  return reply.redirect(`${path}?notice=${notice}`, 303);
}

/**
 * Organizations on the web pages: list and create, one organization's members (invite and remove by e-mail, for its
 * admins), its defaults for new applications, and the page a mailed invitation opens. Every form is a plain POST with
 * the CSRF token; no script.
 */
export function organizationRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl } = deps;
  const orgs = services.organizations;
  const notice = (query: unknown) => {
    const key = field(query, 'notice');
    return Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null;
  };

  web.get(ORGANIZATIONS_PATH, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    return html(reply, renderPage(OrganizationsPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), organizations: await orgs.mine(caller), notice: notice(request.query) })));
  });

  web.post(ORGANIZATIONS_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = await orgs.create(caller, field(request.body, 'Name'));
    return back(reply, organizationPath(id), 'created');
  });

  web.get(`${ORGANIZATION_PATHS.accept}`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const token = field(request.query, 'token');
    const organization = await orgs.invitation(token);
    return html(reply, renderPage(AcceptInvitationPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), organizationName: organization.name, token })));
  });

  web.post(`${ORGANIZATION_PATHS.accept}`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = await orgs.accept(caller, field(request.body, 'token'));
    return back(reply, organizationPath(id), 'joined');
  });

  web.get(`${ORGANIZATIONS_PATH}/:organizationId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const view = await orgs.view(caller, organizationId(request.params));
    return html(reply, renderPage(OrganizationPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), view, notice: notice(request.query) })));
  });

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Invite`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = organizationId(request.params);
    const email = field(request.body, 'Email');
    await orgs.invite(caller, id, email);
    return back(reply, organizationPath(id), 'invited');
  });

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Remove`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = organizationId(request.params);
    const email = field(request.body, 'Email');
    await orgs.remove(caller, id, email);
    return back(reply, organizationPath(id), 'removed');
  });

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Defaults`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = organizationId(request.params);
    const body = request.body as Form | undefined;
    await orgs.setDefaults(caller, id, { InstallerName: field(body, 'InstallerName'), InstallerLicense: field(body, 'InstallerLicense') });
    return back(reply, organizationPath(id), 'defaults');
  });
}
