import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { Caller } from '../domain/caller.ts';
import { isIdLike } from '../model/ids.ts';
import { csrfToken } from './csrf.ts';
import { formField, formList, sendPrivatePage } from './form-field.ts';
import { MyAccountPage, type MyAccountPageProps, MyWebhookPage, type MyWebhookPageProps } from './pages/my-account-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { MY_ACCOUNT_FORMS, MY_ACCOUNT_PATH, myWebhookPath } from './web-paths.ts';
import { pageUser, webCaller } from './web-session-request.ts';

// What the page says after a change; the address names one of these, so a crafted link cannot put words on the page.
const NOTICES = {
  keyRevoked: 'The API key was revoked; it no longer works.',
  clientRevoked: 'The OAuth client was revoked, and every access token it had.',
  webhookDeleted: 'The webhook subscription was deleted; nothing more is sent to it.',
  webhookEnabled: 'The subscription was enabled again.',
  webhookDisabled: 'The subscription was disabled; nothing is sent to it until it is enabled again.',
  webhookEvents: 'The kinds of event were saved.',
} as const;

// Refusals a person can read and act on, shown above the forms with nothing changed. FORBIDDEN (the agency does not
// allow it) and anything else go to the error pages.
const PAGE_REFUSALS = new Set(['INVALID_REQUEST', 'INVALID_PARAMETER', 'NOT_FOUND', 'CONFLICT', 'WEBHOOK_TARGET_NOT_ALLOWED']);

/** The page a refused change shows again, with the refusal, and the refusals it explains. */
interface RefusalPage {
  refusals: ReadonlySet<string>;
  show(request: FastifyRequest, reply: FastifyReply, caller: Caller, status: number, refusal: string): Promise<FastifyReply>;
}

/**
 * The signed-in user's account page: their own API keys, OAuth clients and webhook subscriptions, made (when the
 * agency's self-service policy allows it) and revoked with plain POST forms carrying the CSRF token. A new secret is
 * shown once, on the page the POST answers (never in an address); the services refuse whatever the policy does not allow.
 */
export function myAccountRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  const { credentials, webhooks } = services.integrations;

  const page = async (reply: FastifyReply, caller: Caller, status: number, extra: Pick<MyAccountPageProps, 'notice' | 'refusal' | 'secret'>) => {
    const [own, hooks, user] = await Promise.all([credentials.list(caller), webhooks.list(caller), pageUser(services, caller)]);
    return sendPrivatePage(reply.code(status), renderPage(MyAccountPage({ user, csrfToken: csrfToken(reply), timeZone, credentials: own, webhooks: hooks, ...extra })));
  };
  // Runs a change; a refusal the page can explain shows `again` (the page of the form) with it.
  const change = async (request: FastifyRequest, reply: FastifyReply, again: RefusalPage, run: (caller: Caller, body: unknown) => Promise<FastifyReply>) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    try {
      return await run(caller, request.body);
    } catch (error) {
      if (!(error instanceof ApiError) || !again.refusals.has(error.code)) throw error;
      return again.show(request, reply, caller, error.status, error.message);
    }
  };
  const accountPage: RefusalPage = { refusals: PAGE_REFUSALS, show: (_request, reply, caller, status, refusal) => page(reply, caller, status, { refusal }) };
  const back = (reply: FastifyReply, notice: keyof typeof NOTICES) => reply.redirect(`${MY_ACCOUNT_PATH}?notice=${notice}`, 303);

  web.get(MY_ACCOUNT_PATH, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const key = formField(request.query, 'notice');
    return page(reply, caller, 200, { notice: Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null });
  });

  web.post(MY_ACCOUNT_FORMS.createKey, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    const made = await credentials.createKey(caller, formField(body, 'Name'));
    return page(reply, caller, 200, {
      notice: `The API key ${made.name} was created.`,
      secret: { label: 'Your new API key', value: made.key, note: 'This is the only time the key is shown. Send it in the X-ApiKey header, with your e-mail address and password.' },
    });
  }));

  web.post(MY_ACCOUNT_FORMS.revokeKey, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    await credentials.revokeKey(caller, formField(body, 'KeyId'));
    return back(reply, 'keyRevoked');
  }));

  web.post(MY_ACCOUNT_FORMS.createClient, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    const made = await credentials.createClient(caller, formField(body, 'Name'));
    return page(reply, caller, 200, {
      notice: `The OAuth client ${made.name} was created; its client id is ${made.id}.`,
      secret: { label: 'Its client secret', value: made.secret, note: 'This is the only time the client secret is shown.' },
    });
  }));

  web.post(MY_ACCOUNT_FORMS.revokeClient, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    await credentials.revokeClient(caller, formField(body, 'ClientId'));
    return back(reply, 'clientRevoked');
  }));

  web.post(MY_ACCOUNT_FORMS.createWebhook, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    const programId = formField(body, 'ProgramId');
    if (!isIdLike(programId)) throw new ApiError('INVALID_PARAMETER', 'Choose a program.');
    const made = await webhooks.create(caller, programId, formField(body, 'Url'));
    return page(reply, caller, 200, {
      notice: `The webhook subscription of ${made.subscription.url} was created.`,
      secret: { label: 'Its signing secret', value: made.secret, note: 'This is the only time the signing secret is shown. Verify each delivery\'s webhook-signature with it.' },
    });
  }));

  web.post(MY_ACCOUNT_FORMS.deleteWebhook, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, accountPage, async (caller, body) => {
    await webhooks.delete(caller, formField(body, 'SubscriptionId'));
    return back(reply, 'webhookDeleted');
  }));

  const subscriptionIdOf = (request: FastifyRequest) => {
    const id = formField(request.params, 'subscriptionId');
    if (!isIdLike(id)) throw new ApiError('NOT_FOUND', 'You have no webhook subscription with this id.');
    return id;
  };
  // One subscription's page; after a change it says what changed, or why nothing did (shown with the status).
  const webhookPage = async (reply: FastifyReply, caller: Caller, id: string, status: number, extra: Pick<MyWebhookPageProps, 'notice' | 'refusal' | 'secret'>) => {
    const [{ subscription, deliveries }, user] = await Promise.all([webhooks.deliveries(caller, id), pageUser(services, caller)]);
    return sendPrivatePage(reply.code(status), renderPage(MyWebhookPage({ user, csrfToken: csrfToken(reply), timeZone, subscription, deliveries, ...extra })));
  };
  // A subscription that is not there (or not the caller's) has no page to show again: its NOT_FOUND goes to the error page.
  const subscriptionPage: RefusalPage = {
    refusals: new Set([...PAGE_REFUSALS].filter((code) => code !== 'NOT_FOUND')),
    show: (request, reply, caller, status, refusal) => webhookPage(reply, caller, subscriptionIdOf(request), status, { refusal }),
  };
  const webhookBack = (reply: FastifyReply, id: string, notice: keyof typeof NOTICES) => reply.redirect(`${myWebhookPath(id)}?notice=${notice}`, 303);

  web.get(`${MY_ACCOUNT_PATH}/Webhooks/:subscriptionId`, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const key = formField(request.query, 'notice');
    return webhookPage(reply, caller, subscriptionIdOf(request), 200, { notice: Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null });
  });

  for (const [action, enabled] of [['Enable', true], ['Disable', false]] as const) {
    web.post(`${MY_ACCOUNT_PATH}/Webhooks/:subscriptionId/${action}`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, subscriptionPage, async (caller) => {
      const id = subscriptionIdOf(request);
      await webhooks.update(caller, id, { enabled });
      return webhookBack(reply, id, enabled ? 'webhookEnabled' : 'webhookDisabled');
    }));
  }

  web.post(`${MY_ACCOUNT_PATH}/Webhooks/:subscriptionId/Events`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, subscriptionPage, async (caller, body) => {
    const id = subscriptionIdOf(request);
    await webhooks.update(caller, id, { eventTypes: formList(body, 'EventType') });
    return webhookBack(reply, id, 'webhookEvents');
  }));

  web.post(`${MY_ACCOUNT_PATH}/Webhooks/:subscriptionId/Rotate`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, subscriptionPage, async (caller, body) => {
    const id = subscriptionIdOf(request);
    const raw = formField(body, 'GraceHours');
    const made = await webhooks.rotateSecret(caller, id, /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN);
    return webhookPage(reply, caller, id, 200, {
      notice: 'A new signing secret was made.',
      secret: { label: 'The new signing secret', value: made.secret, note: 'This is the only time the signing secret is shown. Deliveries are signed with it from now on.' },
    });
  }));
}
