import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './api-types.ts';

export type { components, operations, paths };

/** How the client signs in: a bearer token from the token endpoint, or a user's e-mail address and password. */
export type ApasCredentials = { bearerToken: string } | { email: string; password: string };

/** What a client is made from: the service's address, the API key and the credentials of its user. */
export interface ApasClientOptions {
  /** The service's public address, e.g. `https://apas.example.org` (without `/services/v2`). */
  baseUrl: string;
  /** The API key, sent as X-ApiKey with every request. */
  apiKey: string;
  credentials: ApasCredentials;
  /** A fetch of your own (a test's, or one with a proxy); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
}

function authorization(credentials: ApasCredentials): string {
  if ('bearerToken' in credentials) return `Bearer ${credentials.bearerToken}`;
  return `Basic ${Buffer.from(`${credentials.email}:${credentials.password}`, 'utf8').toString('base64')}`;
}

/**
 * A typed client of the JSON representation (types made from /openapi.json): paths, parameters, bodies and answers
 * are checked by the compiler. Every call answers `{ data, error, response }`; `error` is the ErrorResponse.
 */
export function createApasClient(options: ApasClientOptions): Client<paths, 'application/json'> {
  return createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { accept: 'application/json', 'x-apikey': options.apiKey, authorization: authorization(options.credentials) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
