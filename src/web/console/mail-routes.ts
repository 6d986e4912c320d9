import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { formText, pageRefusal, requiredText } from './console-form.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { MAIL_PATH, MailOutboxPage } from './mail-page.tsx';

const RETRIED = 'The mail was queued again; it is sent within moments.';

/** GET …/Console/Mail: the outbox by status, paged by cursor; POST …/Console/Mail/Retry: send a failed mail again. */
export function mailRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const outbox = deps.services.consoleOperations.mail;
  const show = async (reply: FastifyReply, c: ConsoleRequest, query: unknown, status: number, extra: { notice?: string | null; refusal?: string | null }) => {
    const filter = formText(query, 'Status');
    const cursor = formText(query, 'cursor') || undefined;
    const page = await outbox.page(c.caller, filter || undefined, cursor);
    const props = { user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, timeZone: deps.timeZone, status: filter, page, older: cursor !== undefined, ...extra };
    return sendPage(reply, renderPage(MailOutboxPage(props)), status);
  };

  web.get(MAIL_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return show(reply, c, request.query, 200, { notice: formText(request.query, 'notice') === 'retried' ? RETRIED : null });
  });

  web.post(`${MAIL_PATH}/Retry`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    try {
      await outbox.retry(c.caller, requiredText(request.body, 'MailId'));
    } catch (error) {
      const refusal = pageRefusal(error);
      if (!refusal) throw error;
      return show(reply, c, {}, refusal.status, { refusal: refusal.message });
    }
    return reply.redirect(`${MAIL_PATH}?notice=retried`, 303);
  });
}
