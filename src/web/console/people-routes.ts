import { formField, formList } from '../form-field.ts';
import { noticeOf } from './console-form.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { PeoplePage, PEOPLE_PATH, PersonPage, personPath } from './people-pages.tsx';

// What a page says after a change; the address names one of these, so a crafted link cannot put words on the page.
const NOTICES = {
  invited: 'The invitation was sent.',
  reinvited: 'The invitation was sent again; the earlier links no longer work.',
  disabled: 'The user was disabled; their sessions and tokens have ended.',
  enabled: 'The user was enabled.',
  mfa: 'Multi-factor authentication was reset; the user\'s sessions have ended.',
  granted: 'The grant was saved.',
  removed: 'The grant was removed.',
} as const;

// The refusals of an invitation that the form explains; others (not an agency admin) go to the error pages.
const INVITE_PROBLEMS = new Set(['INVALID_PARAMETER', 'INVALID_REQUEST', 'CONFLICT']);

function back(reply: FastifyReply, path: string, notice: keyof typeof NOTICES): FastifyReply {
  return reply.redirect(`${path}?notice=${notice}`, 303);
}

/**
 * The console's People area: the agency's users (search, a person's page), invitations, disable and enable, MFA
 * reset and grants per program. Every change is a POST with the CSRF token, decided by services.peopleAdmin.people.
 */
export function peopleRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const people = deps.services.peopleAdmin.people;
  const { timeZone } = deps;
  const userIdOf = (params: unknown) => formField(params, 'userId');

  web.get(PEOPLE_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const search = formField(request.query, 'q');
    const { scope, people: found } = await people.list(c.caller, search);
    return sendPage(reply, renderPage(PeoplePage({ user: c.user, csrfToken: c.csrfToken, agencyAdmin: scope.agencyAdmin, timeZone, people: found, search, notice: noticeOf(NOTICES, request.query) })));
  });

  web.post(`${PEOPLE_PATH}/Invite`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const typed = { name: formField(request.body, 'Name'), email: formField(request.body, 'Email') };
    let sent: Awaited<ReturnType<typeof people.invite>>;
    try {
      sent = await people.invite(c.caller, typed.name, typed.email);
    } catch (error) {
      // What was typed is wrong (or the address has an account): the form again, with the problem next to it.
      if (!(error instanceof ApiError) || !INVITE_PROBLEMS.has(error.code)) throw error;
      const fieldId = /name/i.test(error.message) && !/e-mail/i.test(error.message) ? 'invite-name' : 'invite-email';
      const { scope, people: found } = await people.list(c.caller, '');
      return sendPage(reply, renderPage(PeoplePage({
        user: c.user, csrfToken: c.csrfToken, agencyAdmin: scope.agencyAdmin, timeZone, people: found, search: '',
        inviteAgain: { ...typed, problem: { message: error.message.replace(/^./, (ch) => ch.toUpperCase()), fieldId } },
      })), error.status);
    }
    if (sent.link === null) return back(reply, personPath(sent.user.id), 'invited');
    // Mail is off: the link is shown to the inviter this once (never put in an address).
    const { scope, people: found } = await people.list(c.caller, '');
    return sendPage(reply, renderPage(PeoplePage({
      user: c.user, csrfToken: c.csrfToken, agencyAdmin: scope.agencyAdmin, timeZone, people: found, search: '', invitationLink: { email: sent.user.email, link: sent.link },
    })));
  });

  web.get(`${PEOPLE_PATH}/:userId`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const { scope, view } = await people.person(c.caller, userIdOf(request.params));
    return sendPage(reply, renderPage(PersonPage({
      user: c.user, csrfToken: c.csrfToken, agencyAdmin: scope.agencyAdmin, timeZone, view, self: view.person.id === c.caller.user.id, notice: noticeOf(NOTICES, request.query),
    })));
  });

  for (const [action, disabled] of [['Disable', true], ['Enable', false]] as const) {
    web.post(`${PEOPLE_PATH}/:userId/${action}`, { preHandler: web.csrfProtection }, async (request, reply) => {
      const c = await consoleRequest(request, reply, deps);
      const user = await people.setDisabled(c.caller, userIdOf(request.params), disabled);
      return back(reply, personPath(user.id), disabled ? 'disabled' : 'enabled');
    });
  }

  web.post(`${PEOPLE_PATH}/:userId/Reinvite`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const sent = await people.reinvite(c.caller, userIdOf(request.params));
    if (sent.link === null) return back(reply, personPath(sent.user.id), 'reinvited');
    // Mail is off: the new link is shown to the admin this once, as after the first invitation.
    const { scope, view } = await people.person(c.caller, sent.user.id);
    return sendPage(reply, renderPage(PersonPage({
      user: c.user, csrfToken: c.csrfToken, agencyAdmin: scope.agencyAdmin, timeZone, view, self: false, invitationLink: sent.link,
    })));
  });

  web.post(`${PEOPLE_PATH}/:userId/ResetMfa`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await people.resetMfa(c.caller, userIdOf(request.params));
    return back(reply, personPath(userIdOf(request.params)), 'mfa');
  });

  web.post(`${PEOPLE_PATH}/:userId/Grants`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const body = request.body;
    // No group ticked: the grant reads every project of the program.
    const groups = formList(body, 'Group');
    await people.setGrant(c.caller, userIdOf(request.params), formField(body, 'Program'), formField(body, 'Role'), formField(body, 'Sensitive') === 'true', groups.length > 0 ? groups : null);
    return back(reply, personPath(userIdOf(request.params)), 'granted');
  });

  web.post(`${PEOPLE_PATH}/:userId/Grants/Remove`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    await people.removeGrant(c.caller, userIdOf(request.params), formField(request.body, 'Program'));
    return back(reply, personPath(userIdOf(request.params)), 'removed');
  });
}
