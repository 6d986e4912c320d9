import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { INSTALLER_ORGANIZATIONS_PATH, InstallerOrganizationPage, installerOrganizationPath, InstallerOrganizationsPage } from './installer-organization-pages.tsx';
import { formField } from '../form-field.ts';

const NOTICES = { removed: 'The member was removed.', revoked: 'The invitation was revoked; its link no longer works.' } as const;

/**
 * The console's Organizations area (agency admins): the agency's installer organizations, one organization's members
 * and pending invitations, removing a member and revoking an invitation, through services.peopleAdmin.organizations.
 */
export function installerOrganizationRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const organizations = deps.services.peopleAdmin.organizations;
  const { timeZone } = deps;
  const idOf = (params: unknown) => formField(params, 'organizationId');
  const noticeOf = (query: unknown) => {
    const key = formField(query, 'notice');
    return Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null;
  };

  web.get(INSTALLER_ORGANIZATIONS_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const list = await organizations.list(c.caller);
    return sendPage(reply, renderPage(InstallerOrganizationsPage({ user: c.user, csrfToken: c.csrfToken, timeZone, organizations: list })));
  });

  web.get(`${INSTALLER_ORGANIZATIONS_PATH}/:organizationId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const view = await organizations.view(c.caller, idOf(request.params));
    return sendPage(reply, renderPage(InstallerOrganizationPage({ user: c.user, csrfToken: c.csrfToken, timeZone, view, notice: noticeOf(request.query) })));
  });

  web.post(`${INSTALLER_ORGANIZATIONS_PATH}/:organizationId/Remove`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const id = idOf(request.params);
    await organizations.remove(c.caller, id, formField(request.body, 'Email'));
    return reply.redirect(`${installerOrganizationPath(id)}?notice=removed`, 303);
  });

  web.post(`${INSTALLER_ORGANIZATIONS_PATH}/:organizationId/Invitations/Revoke`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const id = idOf(request.params);
    await organizations.revokeInvitation(c.caller, id, formField(request.body, 'InvitationId'));
    return reply.redirect(`${installerOrganizationPath(id)}?notice=revoked`, 303);
  });
}
