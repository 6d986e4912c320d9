import type { FastifyInstance } from 'fastify';

/** Remembers every route's method and path pattern, so that a wrong method gets 405 with an Allow header. */
export class RouteTable {
  readonly #routes: { method: string; pattern: RegExp }[] = [];

  /** Records routes as they are added; call before any route is registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const source = route.url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      for (const method of methods) this.#routes.push({ method, pattern: new RegExp(`^${source}$`) });
    });
  }

  /** The methods that a path does answer to (empty when the path itself is unknown). */
  allowedMethods(path: string): string[] {
    return [...new Set(this.#routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].filter((m) => m !== 'HEAD');
  }
}
