import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import type { Caller } from '../../domain/caller.ts';
import type { CreatedSubscriptionView } from '../../domain/webhooks/webhook-service.ts';
import { type EventType, isEventType } from '../../model/event.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { formList } from '../form-field.ts';
import { formText, noticeOf, pageRefusal, requiredText } from './console-form.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { SubscriptionPage, subscriptionPath, WebhooksPage, WEBHOOKS_PATH } from './webhooks-pages.tsx';

// What a page says after a change; the address names one of these, so a crafted link cannot put words on the page.
const NOTICES = {
  deleted: 'The subscription was deleted with its delivery log.',
  types: 'The event types were saved.',
  enabled: 'The subscription was enabled; its waiting deliveries are sent now.',
  disabled: 'The subscription was disabled; nothing is sent to it until it is enabled again.',
  tested: 'A test event was queued; it appears in the delivery log below and is sent within moments.',
  redelivered: 'The delivery was queued again.',
  redeliveredFailed: 'The failed deliveries were queued again.',
} as const;

function eventTypes(body: unknown): EventType[] {
  const types = formList(body, 'EventType');
  const unknown = types.find((t) => !isEventType(t));
  if (unknown !== undefined) throw new ApiError('INVALID_REQUEST', `"${unknown}" is not a kind of event.`);
  return types as EventType[];
}

function graceHours(body: unknown): number {
  const text = formText(body, 'GraceHours').trim();
  if (!/^\d{1,3}$/.test(text)) throw new ApiError('INVALID_REQUEST', 'The grace period is a whole number of hours from 0 to 168.');
  return Number(text);
}

/**
 * The console's Webhooks area: a program's subscriptions (create; the secret shown once), and one subscription's page
 * (send a test event, event types, disable and enable, rotate the secret, the delivery log paged with redelivery,
 * delete). Plain GET pages and POST forms with the CSRF token; every action is WebhookConsoleService's.
 */
export function webhooksRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const hooks = deps.services.consoleOperations.webhooks;
  const base = (c: ConsoleRequest, extra: { notice?: string | null; refusal?: string | null }) => ({
    user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, timeZone: deps.timeZone, ...extra,
  });
  const listPage = async (reply: FastifyReply, c: ConsoleRequest, programRef: string, status: number, extra: { notice?: string | null; refusal?: string | null; created?: CreatedSubscriptionView }) => {
    const programs = await hooks.programs(c.caller);
    const chosen = programRef === '' ? programs[0] : programs.find((p) => p.id === programRef || p.customId === programRef);
    const listed = chosen ? await hooks.list(c.caller, chosen.id) : programRef === '' ? null : await hooks.list(c.caller, programRef);
    return sendPage(reply, renderPage(WebhooksPage({
      ...base(c, extra), created: extra.created ?? null, programs: programs.map((p) => ({ id: p.id, name: p.name })),
      program: listed ? { id: listed.program.id, name: listed.program.name } : null, subscriptions: listed?.subscriptions ?? [],
    })), status);
  };
  const logPage = async (reply: FastifyReply, c: ConsoleRequest, source: unknown, status: number, extra: { notice?: string | null; refusal?: string | null; rotated?: string | null }) => {
    const cursor = formText(source, 'cursor') || undefined;
    const log = await hooks.deliveries(c.caller, requiredText(source, 'ProgramId'), requiredText(source, 'SubscriptionId'), cursor);
    return sendPage(reply, renderPage(SubscriptionPage({ ...base(c, extra), log, rotated: extra.rotated ?? null, older: cursor !== undefined })), status);
  };
  // A change on a subscription's page: done, it leads back to the page with a notice; refused, the page says why.
  const change = (path: string, run: (caller: Caller, body: unknown, programId: string, id: string) => Promise<FastifyReply | keyof typeof NOTICES>) => {
    web.post(`${WEBHOOKS_PATH}/${path}`, { preHandler: web.csrfProtection }, async (request: FastifyRequest, reply: FastifyReply) => {
      const c = await consoleRequest(request, reply, deps);
      const programId = requiredText(request.body, 'ProgramId');
      const id = requiredText(request.body, 'SubscriptionId');
      try {
        const done = await run(c.caller, request.body, programId, id);
        if (typeof done !== 'string') return done;
        return reply.redirect(done === 'deleted' ? `${WEBHOOKS_PATH}?ProgramId=${encodeURIComponent(programId)}&notice=deleted` : `${subscriptionPath(programId, id)}&notice=${done}`, 303);
      } catch (error) {
        const refusal = pageRefusal(error);
        if (!refusal) throw error;
        return logPage(reply, c, { ProgramId: programId, SubscriptionId: id }, refusal.status, { refusal: refusal.message });
      }
    });
  };

  web.get(WEBHOOKS_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return listPage(reply, c, formText(request.query, 'ProgramId'), 200, { notice: noticeOf(NOTICES, request.query) });
  });

  web.get(`${WEBHOOKS_PATH}/Subscription`, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return logPage(reply, c, request.query, 200, { notice: noticeOf(NOTICES, request.query) });
  });

  web.post(`${WEBHOOKS_PATH}/Create`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const programId = requiredText(request.body, 'ProgramId');
    try {
      const created = await hooks.create(c.caller, programId, requiredText(request.body, 'Url'), eventTypes(request.body));
      return await listPage(reply, c, programId, 200, { created, notice: 'The subscription was created.' });
    } catch (error) {
      const refusal = pageRefusal(error);
      if (!refusal) throw error;
      return listPage(reply, c, programId, refusal.status, { refusal: refusal.message });
    }
  });

  change('EventTypes', async (caller, body, programId, id) => {
    await hooks.setEventTypes(caller, programId, id, eventTypes(body));
    return 'types';
  });
  change('Enable', async (caller, _body, programId, id) => {
    await hooks.setEnabled(caller, programId, id, true);
    return 'enabled';
  });
  change('Disable', async (caller, _body, programId, id) => {
    await hooks.setEnabled(caller, programId, id, false);
    return 'disabled';
  });
  change('Delete', async (caller, _body, programId, id) => {
    await hooks.delete(caller, programId, id);
    return 'deleted';
  });
  change('Test', async (caller, _body, programId, id) => {
    await hooks.sendTest(caller, programId, id);
    return 'tested';
  });
  change('Redeliver', async (caller, body, programId, id) => {
    await hooks.redeliver(caller, programId, id, requiredText(body, 'DeliveryId'));
    return 'redelivered';
  });
  change('RedeliverFailed', async (caller, _body, programId, id) => {
    await hooks.redeliverFailed(caller, programId, id);
    return 'redeliveredFailed';
  });
  web.post(`${WEBHOOKS_PATH}/RotateSecret`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const programId = requiredText(request.body, 'ProgramId');
    const id = requiredText(request.body, 'SubscriptionId');
    const ids = { ProgramId: programId, SubscriptionId: id };
    try {
      const rotated = await hooks.rotateSecret(c.caller, programId, id, graceHours(request.body));
      return await logPage(reply, c, ids, 200, { rotated: rotated.secret, notice: 'The secret was rotated.' });
    } catch (error) {
      const refusal = pageRefusal(error);
      if (!refusal) throw error;
      return logPage(reply, c, ids, refusal.status, { refusal: refusal.message });
    }
  });
}
