import { createHash } from 'node:crypto';
import type { CelInput } from '@bufbuild/cel';
import type { Clock } from '../../model/clock.ts';
import type { ConnectionDefinition, ConnectionSettings } from '../../model/connection.ts';
import type { FieldValue, Project } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import { snapshot } from '../automations/automation-state.ts';
import type { Caller } from '../caller.ts';
import type { FieldLookupOutcome, FieldLookups } from '../projects/field-lookup-seam.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { ConnectionClient } from './connection-client.ts';
import { answerValues, requestPayload } from './connection-values.ts';
import { readResponse } from './response-type.ts';

/** How lookups at save are bounded: the longest wait, how long an answer is reused, and how many one person may make. */
export interface LookupPolicy { timeoutMs: number; cacheMs: number; cacheEntries: number; perUserPerMinute: number }

/** Three seconds at most per lookup, answers reused for ten minutes, thirty lookups a minute per person. */
export const DEFAULT_LOOKUP_POLICY: LookupPolicy = { timeoutMs: 3_000, cacheMs: 600_000, cacheEntries: 2_000, perUserPerMinute: 30 };

/** What a lookup needs: the store (settings, allowlist, values), the clock, the client. */
export interface FieldLookupDeps { store: Pick<Store, 'connections' | 'projects' | 'attachments' | 'envelopes' | 'programs' | 'relations'>; clock: Clock; client: ConnectionClient }

type Answer = { found: true; response: CelInput } | { found: false };

/**
 * Field lookups (a connection's `lookup: { field }`): when a save writes a non-empty value of the field, the
 * connection is asked on the server before the save's change step, with a short timeout and no retry. A 2xx answer
 * that fits the declared response verifies the value and gives the values its `set` prefills; a 404 says the system
 * does not know it; anything else (no address set, the system down or slow, too many lookups by the person) leaves it
 * unverified. Whatever the outcome, the value is saved. Answers are kept for a while by program, connection and a hash
 * of the value (never the value itself), and each person may make only so many lookups a minute.
 */
export class ConnectionFieldLookups implements FieldLookups {
  readonly #deps: FieldLookupDeps;
  readonly #policy: LookupPolicy;
  readonly #cache = new Map<string, { at: number; answer: Answer }>();
  readonly #counts = new Map<string, { minute: number; n: number }>();

  constructor(deps: FieldLookupDeps, policy: LookupPolicy = DEFAULT_LOOKUP_POLICY) {
    this.#deps = deps;
    this.#policy = policy;
  }

  async lookUp(ctx: ProgramContext, caller: Caller, project: Project, written: FieldValue[]): Promise<FieldLookupOutcome[]> {
    const out: FieldLookupOutcome[] = [];
    for (const c of ctx.program.connections ?? []) {
      const w = c.lookupFieldId === undefined ? undefined : written.find((v) => v.fieldId === c.lookupFieldId);
      if (!w || w.value === null || w.value.trim() === '') continue;
      out.push(await this.#one(ctx, caller, project, c, w));
    }
    return out;
  }

  async #one(ctx: ProgramContext, caller: Caller, project: Project, c: ConnectionDefinition, w: FieldValue): Promise<FieldLookupOutcome> {
    const unverified = (why: string): FieldLookupOutcome => ({ fieldId: w.fieldId, state: 'unavailable', message: `Not verified: ${why}. The value is kept as entered; it is checked again when it is saved again.`, prefill: [] });
    // Without an address nothing is asked, and nothing else read: most installations of a program have none.
    const settings = await this.#deps.store.connections.findSettings(ctx.program.id, c.customId);
    if (!settings) return unverified(`${c.name} is not available here (no address is set for it)`);
    const now = this.#deps.clock.now();
    // The request and the answer's values see the project's values with this save's value in place.
    const snap = await snapshot({ tx: this.#deps.store, ctx, state: { project }, now });
    const field = ctx.model.fields.find((f) => f.id === w.fieldId);
    const bindings = field?.customId ? { ...snap.bindings, [field.customId]: w.value as string } : snap.bindings;
    const key = `${ctx.program.id}\n${c.customId}\n${createHash('sha256').update(JSON.stringify(requestPayload(ctx.model, c, bindings))).digest('hex')}`;
    let answer = this.#cached(key, now);
    if (!answer) {
      if (!this.#take(caller.user.id, now)) return unverified(`you made more than ${this.#policy.perUserPerMinute} lookups in a minute; wait a moment`);
      const asked = await this.#ask(ctx, c, settings, bindings);
      if ('error' in asked) return unverified(asked.error);
      answer = asked;
      this.#keep(key, now, answer);
    }
    if (!answer.found) return { fieldId: w.fieldId, state: 'notFound', message: `${c.name} does not know this value: check it. It is kept as entered.`, prefill: [] };
    const { values } = answerValues(ctx.model, c, bindings, answer.response, now, caller.user.id);
    return { fieldId: w.fieldId, state: 'verified', message: `Verified with ${c.name}.`, prefill: values.filter((v) => v.fieldId !== w.fieldId) };
  }

  async #ask(ctx: ProgramContext, c: ConnectionDefinition, settings: ConnectionSettings, bindings: Record<string, CelInput>): Promise<Answer | { error: string }> {
    const payload = requestPayload(ctx.model, c, bindings);
    if (typeof payload === 'string') return { error: payload };
    const answer = await this.#deps.client.call({
      url: settings.url, method: c.method, payload, auth: settings.auth, timeoutMs: Math.min(c.timeoutMs, this.#policy.timeoutMs),
      allowedHosts: await this.#deps.store.connections.listHosts(ctx.program.agencyId),
    });
    if (!answer.ok) return /answered 404$/.test(answer.error) ? { found: false } : { error: `${c.name} could not be asked (${answer.error})` };
    const read = readResponse(answer.json, c.response);
    return 'problem' in read ? { error: `${c.name} gave an answer that does not fit (${read.problem})` } : { found: true, response: read.value };
  }

  #cached(key: string, now: number): Answer | null {
    const hit = this.#cache.get(key);
    if (!hit || now - hit.at > this.#policy.cacheMs) return null;
    return hit.answer;
  }

  #keep(key: string, now: number, answer: Answer): void {
    // The oldest entry goes first: a Map iterates in insertion order.
    if (this.#cache.size >= this.#policy.cacheEntries) this.#cache.delete(this.#cache.keys().next().value as string);
    this.#cache.set(key, { at: now, answer });
  }

  // Counts a lookup against the person's minute; false when the minute's lookups are used up.
  #take(userId: string, now: number): boolean {
    const minute = Math.floor(now / 60_000);
    const count = this.#counts.get(userId);
    if (!count || count.minute !== minute) {
      if (this.#counts.size > 10_000) this.#counts.clear();
      this.#counts.set(userId, { minute, n: 1 });
      return true;
    }
    if (count.n >= this.#policy.perUserPerMinute) return false;
    count.n++;
    return true;
  }
}
