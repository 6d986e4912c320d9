import type { FastifyInstance } from 'fastify';
import { JSON_TYPE } from '../oauth-reply.ts';

/** Where RFC 8414 says a client looks for an authorization server's metadata. */
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * The RFC 8414 metadata of the OAuth endpoints, so that a standard client finds the token and revocation endpoints and
 * what they take. The issuer is APAS_PUBLIC_URL; the endpoints are under `oauthBase`.
 */
export function oauthMetadata(publicUrl: string, oauthBase: string): Record<string, unknown> {
  const methods = ['client_secret_basic', 'client_secret_post'];
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}${oauthBase}/token`,
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint: `${publicUrl}${oauthBase}/revoke`,
    revocation_endpoint_auth_methods_supported: methods,
    grant_types_supported: ['client_credentials'],
    // No authorization endpoint: the client credentials grant needs none, so no response type is supported.
    response_types_supported: [],
    // No scopes: a token may do what its client's user may (a scope parameter is refused).
    scopes_supported: [],
  };
}

/** Serves the RFC 8414 metadata at /.well-known/oauth-authorization-server (no credentials needed). */
export function oauthMetadataRoutes(app: FastifyInstance, publicUrl: string, oauthBase: string): void {
  const text = `${JSON.stringify(oauthMetadata(publicUrl, oauthBase), null, 2)}\n`;
  app.get(OAUTH_METADATA_PATH, async (_request, reply) => reply.type(JSON_TYPE).header('Cache-Control', 'public, max-age=3600').send(text));
}
