// oidc-provider ships no types; these are the few parts the test provider (oidc-test-provider.ts) uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The few parts of oidc-provider's Koa context the test configuration reads. */
  export interface ProviderContext {
    oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
  }

  /** An OpenID Provider (https://github.com/panva/node-oidc-provider). */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (init: { clientId: string; accountId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
