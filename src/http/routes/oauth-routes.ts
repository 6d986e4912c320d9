import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type PresentedClient, parseBasic } from '../../domain/accounts/auth-service.ts';
import { OAuthError } from '../../domain/accounts/oauth-error.ts';
import type { UnsupportedBody } from '../fastify-types.ts';
import { JSON_TYPE, NO_STORE } from '../oauth-reply.ts';
import type { Services } from '../services.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The largest body the OAuth endpoints read: their forms hold a few short parameters. */
export const OAUTH_BODY_LIMIT = 16 * 1024;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The parameters of a form body (RFC 6749 §3.2: application/x-www-form-urlencoded). A parameter without a value
 * counts as left out (§3.1), and one sent twice is refused (§3.1). The query string is never read.
 */
function formOf(request: FastifyRequest): Map<string, string> {
  const body = request.body as string | UnsupportedBody | undefined;
  if (typeof body !== 'string') throw new OAuthError('invalid_request', `Send the parameters in the body as ${FORM_TYPE}.`);
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (value === '') continue;
    if (params.has(name)) throw new OAuthError('invalid_request', `The parameter ${name} was sent more than once.`);
    params.set(name, value);
  }
  return params;
}

// RFC 6749 §2.3.1: the client id and secret are form-encoded before they go into the Basic header.
function formDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The client's credentials: HTTP Basic (RFC 6749 §2.3.1) or the client_id and client_secret parameters, never both
 * (§2.3); a client_id parameter next to Basic is allowed when it names the same client.
 */
function clientOf(request: FastifyRequest, form: Map<string, string>): PresentedClient {
  const authorization = header(request, 'authorization');
  const seen = { apiKey: header(request, 'x-apikey'), clientAddress: request.ip };
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (authorization === undefined) {
    if (formId === undefined || formSecret === undefined) {
      throw new OAuthError('invalid_client', 'Authenticate the client: its id and secret with HTTP Basic, or as the client_id and client_secret parameters.');
    }
    return { clientId: formId, clientSecret: formSecret, ...seen };
  }
  if (formSecret !== undefined) {
    throw new OAuthError('invalid_request', 'Authenticate the client one way only: with HTTP Basic or with the client_id and client_secret parameters, not both.');
  }
  const basic = parseBasic(authorization);
  const clientId = basic ? formDecoded(basic.email) : null;
  const clientSecret = basic ? formDecoded(basic.password) : null;
  if (clientId === null || clientSecret === null) {
    throw new OAuthError('invalid_client', 'Send the client id and secret with HTTP Basic authentication (or as the client_id and client_secret parameters).');
  }
  if (formId !== undefined && formId !== clientId) throw new OAuthError('invalid_request', 'The client_id parameter names another client than the Authorization header.');
  return { clientId, clientSecret, ...seen };
}

/**
 * The OAuth 2.0 endpoints, registered under OAUTH_BASE in a context of their own (form bodies, no XML, no API
 * authentication hook: the client authenticates itself): POST /token issues an access token for the client
 * credentials grant (RFC 6749 §4.4), POST /revoke revokes one (RFC 7009). Failures are answered by
 * oauth-reply.ts through the app's error handler.
 */
export function oauthRoutes(app: FastifyInstance, services: Services): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) =>
    done(null, { unsupportedContentType: String(request.headers['content-type'] ?? '') } satisfies UnsupportedBody));
  app.post('/token', { bodyLimit: OAUTH_BODY_LIMIT }, async (request, reply) => {
    const form = formOf(request);
    const issued = await services.tokens.issue({ client: clientOf(request, form), grantType: form.get('grant_type'), scope: form.get('scope'), requestId: request.id });
    const body = JSON.stringify({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn });
    return reply.code(200).headers({ ...NO_STORE, ...issued.headers }).type(JSON_TYPE).send(body);
  });
  app.post('/revoke', { bodyLimit: OAUTH_BODY_LIMIT }, async (request, reply) => {
    const form = formOf(request);
    const headers = await services.tokens.revoke({ client: clientOf(request, form), token: form.get('token'), requestId: request.id });
    return reply.code(200).headers({ ...NO_STORE, ...headers }).send();
  });
}
