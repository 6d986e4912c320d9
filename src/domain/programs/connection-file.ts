import type { ResponseShape } from '../../model/connection.ts';

// The program file's `connections:` as programs parses it, like documents (program-connections.ts plans, exports and
// compares it); the checks (CEL, the response shape, the fields set) are the connections capability's checker
// (src/domain/connections).

/** The shortest and longest timeout a connection may declare, and its default (ms). */
export const CONNECTION_TIMEOUT_MS = { min: 100, max: 30_000, default: 10_000 } as const;

/** The most retries a connection may declare, and its default. */
export const CONNECTION_RETRIES = { max: 10, default: 3 } as const;

/** A connection as a program file writes it, with every default filled in; `set` maps field references to CEL. */
export interface ConnectionSpec {
  customId: string; name: string; method: 'GET' | 'POST'; request: string | null;
  response: Extract<ResponseShape, { type: 'object' }>;
  /** Field reference → CEL expression, in file order. */
  set: { field: string; value: string }[];
  timeoutMs: number; retries: number;
  /** The field (a reference) whose value a save looks up with the connection; null for none. */
  lookup: string | null;
}

/** A response shape as the file writes it: `required` and the object's `type` may be left out. */
export interface RawShape { type?: ResponseShape['type']; properties?: Record<string, RawShape>; required?: string[]; items?: RawShape }

/** The raw `connections:` items the schema accepted. */
export interface RawConnection {
  customId: string; name: string; method?: 'GET' | 'POST'; request?: string; response: RawShape;
  set?: Record<string, string>; timeoutMs?: number; retries?: number; lookup?: { field: string };
}

/** A shape with its defaults: an object unless it says otherwise, `required` empty. */
export function normaliseShape(raw: RawShape): ResponseShape {
  const type = raw.type ?? (raw.properties ? 'object' : 'string');
  if (type === 'object') {
    const properties: Record<string, ResponseShape> = {};
    for (const [k, v] of Object.entries(raw.properties ?? {})) properties[k] = normaliseShape(v);
    return { type, properties, required: [...new Set(raw.required ?? [])] };
  }
  if (type === 'array') return { type, items: normaliseShape(raw.items ?? { type: 'string' }) };
  return { type };
}

/** The file's connections with every default filled in, so that a stored copy compares equal to the file's. */
export function normaliseConnections(raw: RawConnection[] | undefined): ConnectionSpec[] {
  return (raw ?? []).map((c) => ({
    customId: c.customId, name: c.name, method: c.method ?? 'POST', request: c.request ?? null,
    response: normaliseShape({ type: 'object', ...c.response }) as ConnectionSpec['response'],
    set: Object.entries(c.set ?? {}).map(([field, value]) => ({ field, value })),
    timeoutMs: c.timeoutMs ?? CONNECTION_TIMEOUT_MS.default, retries: c.retries ?? CONNECTION_RETRIES.default,
    lookup: c.lookup?.field ?? null,
  }));
}

