import type { ConnectionDefinition, ResponseShape } from '../../model/connection.ts';
import type { Program } from '../../model/model.ts';
import { CONNECTION_RETRIES, CONNECTION_TIMEOUT_MS, type ConnectionSpec } from './connection-file.ts';
import type { DefinitionChange } from './program-parts.ts';

// The program file's `connections:` as programs plans, exports and compares it (connection-file.ts parses it).

/** A shape as the file writes it: an object's `type` and an empty `required` left out. */
export function compactShape(s: ResponseShape): Record<string, unknown> {
  if (s.type === 'object') {
    return {
      properties: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, compactShape(v)])),
      ...(s.required.length > 0 ? { required: s.required } : {}),
    };
  }
  if (s.type === 'array') return { type: 'array', items: compactShape(s.items) };
  return { type: s.type };
}

/** A connection as the program file writes it, defaults left out. */
export function compactConnection(c: ConnectionSpec): Record<string, unknown> {
  return {
    customId: c.customId, name: c.name, ...(c.method === 'POST' ? {} : { method: c.method }), ...(c.request === null ? {} : { request: c.request }),
    response: compactShape(c.response),
    ...(c.set.length > 0 ? { set: Object.fromEntries(c.set.map((s) => [s.field, s.value])) } : {}),
    ...(c.timeoutMs === CONNECTION_TIMEOUT_MS.default ? {} : { timeoutMs: c.timeoutMs }),
    ...(c.retries === CONNECTION_RETRIES.default ? {} : { retries: c.retries }),
    ...(c.lookup === null ? {} : { lookup: { field: c.lookup } }),
  };
}

/** What the connections' check resolved of one connection: the index of each field it sets, and of its lookup field. */
export interface ResolvedConnection { set: (number | null)[]; lookup: number | null }

/** The connections to store: field references as ids (by the indexes the check resolved). */
export function planConnections(specs: ConnectionSpec[], resolved: ResolvedConnection[], fieldIds: string[]): ConnectionDefinition[] {
  return specs.map((c, i) => {
    const r = resolved[i];
    const lookup = r?.lookup ?? null;
    return {
      customId: c.customId, name: c.name, method: c.method, request: c.request, response: c.response,
      set: c.set.map((s, k) => ({ fieldId: fieldIds[r?.set[k] ?? -1] ?? s.field, value: s.value })),
      timeoutMs: c.timeoutMs, retries: c.retries,
      ...(lookup === null ? {} : { lookupFieldId: fieldIds[lookup]! }),
    };
  });
}

/** A program's stored connections as the program file writes them; `refOf` turns a field id into its reference. */
export function connectionSpecsOf(program: Program, refOf: (fieldId: string) => string): ConnectionSpec[] {
  return (program.connections ?? []).map((c) => ({
    customId: c.customId, name: c.name, method: c.method, request: c.request, response: c.response,
    set: c.set.map((s) => ({ field: refOf(s.fieldId), value: s.value })), timeoutMs: c.timeoutMs, retries: c.retries,
    lookup: c.lookupFieldId === undefined ? null : refOf(c.lookupFieldId),
  }));
}

const COMPARED = ['name', 'method', 'request', 'response', 'set', 'timeoutMs', 'retries', 'lookupFieldId'] as const;

/** What an import does to the connections, by customId (updated: which properties). */
export function diffConnections(before: Program | null, after: Program): DefinitionChange[] {
  const old = before?.connections ?? [];
  const next = after.connections ?? [];
  const changes: DefinitionChange[] = [];
  for (const c of next) {
    const prior = old.find((x) => x.customId === c.customId);
    if (!prior) {
      changes.push({ kind: 'connection', action: 'created', ref: c.customId, properties: [] });
      continue;
    }
    const properties = COMPARED.filter((k) => JSON.stringify(prior[k] ?? null) !== JSON.stringify(c[k] ?? null)).map((k) => (k === 'lookupFieldId' ? 'lookup' : k));
    if (properties.length > 0) changes.push({ kind: 'connection', action: 'updated', ref: c.customId, properties });
  }
  for (const c of old) if (!next.some((x) => x.customId === c.customId)) changes.push({ kind: 'connection', action: 'removed', ref: c.customId, properties: [] });
  return changes;
}
