import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { Caller } from '../domain/caller.ts';
import { ORGANIZATION_PATHS, type SentInvitation } from '../domain/organizations/organization-service.ts';
import { isIdLike } from '../model/ids.ts';
import { csrfToken } from './csrf.ts';
import { formField, sendPrivatePage } from './form-field.ts';
import { organizationPath, ORGANIZATIONS_PATH } from './organization-paths.ts';
import { AcceptInvitationPage, OrganizationPage, type OrganizationPageExtra, OrganizationsPage } from './pages/organization-pages.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

type Form = Record<string, unknown>;


function organizationId(params: unknown): string {
  const id = formField(params, 'organizationId');
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
  resent: 'The invitation was sent again with a new link; the earlier link no longer works.',
  revoked: 'The invitation was revoked; its link no longer works.',
} as const;

// Refusals a person can read and act on, shown on the organization page above its forms (with nothing changed); others
// (no such organization, not an admin) go to the error pages. NOT_FOUND here is an invitation no longer pending or an
// address that is no member's: the organization itself was found, or showing the page again answers 404 anyway.
const PAGE_REFUSALS = new Set(['INVALID_REQUEST', 'INVALID_PARAMETER', 'NOT_FOUND']);

// After a change the page is shown again (post/redirect/get), with what happened in a notice.
function back(reply: FastifyReply, path: string, notice: keyof typeof NOTICES): FastifyReply {
  return reply.redirect(`${path}?notice=${notice}`, 303);
}

/**
 * Organizations on the web pages: list and create, one organization's members (invite and remove by e-mail, for its
 * admins), its pending invitations (send again, revoke), its defaults for new applications, and the page an invitation
 * link opens. Every form is a plain POST with
 * the CSRF token; no script.
 */
export function organizationRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  const orgs = services.organizations;
  const notice = (query: unknown) => {
    const key = formField(query, 'notice');
    return Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null;
  };
  const organizationPage = async (reply: FastifyReply, caller: Caller, id: string, status: number, extra: Omit<OrganizationPageExtra, 'timeZone'> & { notice?: string | null }) => {
    const view = await orgs.view(caller, id);
    return sendPrivatePage(reply.code(status), renderPage(OrganizationPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), view, timeZone, ...extra })));
  };
  // Runs an admin's change of an organization; a refusal the page can explain shows the page again with it.
  const change = async (request: FastifyRequest, reply: FastifyReply, run: (caller: Caller, id: string) => Promise<FastifyReply>) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = organizationId(request.params);
    try {
      return await run(caller, id);
    } catch (error) {
      if (!(error instanceof ApiError) || !PAGE_REFUSALS.has(error.code)) throw error;
      return organizationPage(reply, caller, id, error.status, { refusal: error.message });
    }
  };
  // An invitation made or sent again: with mail off its link is shown to the admin, this once (never in an address).
  const sent = (reply: FastifyReply, caller: Caller, id: string, invitation: SentInvitation, done: 'invited' | 'resent') => (invitation.link === null
    ? back(reply, organizationPath(id), done)
    : organizationPage(reply, caller, id, 200, { invitation: { email: invitation.email, link: invitation.link } }));

  web.get(ORGANIZATIONS_PATH, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    return sendPrivatePage(reply, renderPage(OrganizationsPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), organizations: await orgs.mine(caller), notice: notice(request.query) })));
  });

  web.post(ORGANIZATIONS_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = await orgs.create(caller, formField(request.body, 'Name'));
    return back(reply, organizationPath(id), 'created');
  });

  web.get(`${ORGANIZATION_PATHS.accept}`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const token = formField(request.query, 'token');
    const organization = await orgs.invitation(token);
    return sendPrivatePage(reply, renderPage(AcceptInvitationPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), organizationName: organization.name, token })));
  });

  web.post(`${ORGANIZATION_PATHS.accept}`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const id = await orgs.accept(caller, formField(request.body, 'token'));
    return back(reply, organizationPath(id), 'joined');
  });

  web.get(`${ORGANIZATIONS_PATH}/:organizationId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    return organizationPage(reply, caller, organizationId(request.params), 200, { notice: notice(request.query) });
  });

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Invite`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (caller, id) => {
    return sent(reply, caller, id, await orgs.invite(caller, id, formField(request.body, 'Email')), 'invited');
  }));

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Invitations/Resend`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (caller, id) => {
    return sent(reply, caller, id, await orgs.resendInvitation(caller, id, formField(request.body, 'InvitationId')), 'resent');
  }));

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Invitations/Revoke`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (caller, id) => {
    await orgs.revokeInvitation(caller, id, formField(request.body, 'InvitationId'));
    return back(reply, organizationPath(id), 'revoked');
  }));

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Remove`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (caller, id) => {
    await orgs.remove(caller, id, formField(request.body, 'Email'));
    return back(reply, organizationPath(id), 'removed');
  }));

  web.post(`${ORGANIZATIONS_PATH}/:organizationId/Defaults`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (caller, id) => {
    const body = request.body as Form | undefined;
    await orgs.setDefaults(caller, id, { InstallerName: formField(body, 'InstallerName'), InstallerLicense: formField(body, 'InstallerLicense') });
    return back(reply, organizationPath(id), 'defaults');
  }));
}
