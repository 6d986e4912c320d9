import type { FastifyInstance } from 'fastify';
import type { WireDocument } from '../wire/wire-type.ts';

/** A query parameter of an operation, as the OpenAPI description names it. */
export interface QueryParameter {
  name: string;
  type: 'string' | 'integer' | 'boolean';
  description: string;
  /** `date-time` for timestamps; anything OpenAPI's `format` takes. */
  format?: string;
}

/**
 * What the OpenAPI description says of one route, given as the route's `config.operation`: the operation's name, its
 * request and answer document types (several answers when a parameter such as `version` chooses among them).
 */
export interface OperationSpec {
  operationId: string;
  summary: string;
  tags: string[];
  request?: WireDocument;
  /** True when the request body may be left out altogether (then the operation's defaults apply). */
  requestOptional?: boolean;
  /** A body that is not a document (an uploaded file): its description. */
  rawRequest?: string;
  response?: WireDocument | readonly WireDocument[];
  /** An answer that is not a document (a downloaded file): its description. */
  rawResponse?: string;
  status?: number;
  query?: readonly QueryParameter[];
  /** True when the answer carries the project's ETag (and honours If-None-Match / If-Match). */
  etag?: boolean;
  /** True for the reads whose ProjectId may be the project's number instead (project-context.ts, loadReadableProjectByRef). */
  projectNumber?: boolean;
}

/** One registered API operation: method, full path pattern (`:Param` style) and its spec. */
export interface RegisteredOperation {
  method: string;
  url: string;
  spec: OperationSpec;
  /** True when the route honours Idempotency-Key (`config.idempotent`). */
  idempotent: boolean;
}

/** Collects the routes that carry `config.operation`, in registration order, for the OpenAPI description. */
export class OperationTable {
  readonly #operations: RegisteredOperation[] = [];
  readonly #undescribed: string[] = [];

  /** Records operations as routes are added; call before any route is registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const config = route.config as { operation?: OperationSpec; idempotent?: boolean } | undefined;
      const spec = config?.operation;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!spec) {
        for (const method of methods) if (method !== 'HEAD') this.#undescribed.push(`${method} ${route.url}`);
        return;
      }
      for (const method of methods) if (method !== 'HEAD') this.#operations.push({ method, url: route.url, spec, idempotent: config?.idempotent === true });
    });
  }

  /** The routes registered without an OpenAPI entry (`METHOD /path`): pages, schemas, health, the OAuth endpoints. */
  undescribed(): readonly string[] {
    return this.#undescribed;
  }

  /** The operations registered so far. */
  list(): readonly RegisteredOperation[] {
    return this.#operations;
  }
}
