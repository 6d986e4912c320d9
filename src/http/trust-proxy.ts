import type { TrustProxy } from '../config.ts';

/** What Fastify's `trustProxy` option takes (its types leave out numbers, which it no longer honours). */
type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * Fastify's `trustProxy` for APAS_TRUST_PROXY. A hop count becomes a function that believes the socket's peer and the
 * next `hops - 1` X-Forwarded-For entries from the right, so the client's address is the one the outermost trusted
 * proxy appended; Fastify 5 itself treats a number as "trust nothing", since a client that reaches apas directly can
 * write as many entries as it likes (docs/operations.md says when a count is safe). Address lists pass through.
 */
export function fastifyTrustProxy(setting: TrustProxy): FastifyTrustProxy {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}
