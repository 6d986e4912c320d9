import type { Clock } from '../../model/clock.ts';
import type { ConnectionCall, ConnectionDefinition } from '../../model/connection.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import { boundText } from '../bounded-text.ts';
import { snapshot } from '../automations/automation-state.ts';
import { systemCaller, systemContext } from '../deadlines/deadline-poller.ts';
import type { BackgroundTask, WorkLog } from '../events/background-work.ts';
import { changeProject } from '../projects/change-project.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import type { ConnectionClient } from './connection-client.ts';
import { answerValues, requestPayload } from './connection-values.ts';
import { readResponse } from './response-type.ts';
import { sameValue } from '../rules/rule-state.ts';

/** How calls are worked: claims per round, the lease beyond the longest timeout, and the backoff between attempts. */
export interface CallPolicy {
  batch: number;
  /** Longer than any timeout (30 s at most): a claim whose instance died comes free when it ends (APAS_CONNECTION_LEASE_MS). */
  leaseMs: number;
  firstDelayMs: number; maxDelayMs: number; random: () => number;
}

/** Ten calls a round, claimed for a minute; retries 5 s, 10 s, 20 s … apart (jittered), at most 5 minutes. */
export const DEFAULT_CALL_POLICY: CallPolicy = { batch: 10, leaseMs: 60_000, firstDelayMs: 5_000, maxDelayMs: 300_000, random: Math.random };

/** The audit actions of a call's end: its answer applied, or the call failed after its retries. */
export const APPLIED_ACTION = 'project.connection.apply';
export const FAILED_ACTION = 'project.connection.fail';

/** What the calls need: the store, the client, the change step's reactions (the automations waiting for connection.failed). */
export interface ConnectionCallDeps extends ReactingDeps {
  store: Store; clock: Clock; ids: IdGenerator; client: ConnectionClient; log?: WorkLog; publicUrl?: string;
}

/** How often due calls (retries) are looked for besides the wake after every change (ms). */
export const CALL_POLL_MS = 5_000;

/** The background task that makes queued calls (woken after every change, and every CALL_POLL_MS). */
export function connectionCallsTask(deps: ConnectionCallDeps, policy: CallPolicy = DEFAULT_CALL_POLICY): BackgroundTask {
  return { what: 'connection calls', intervalMs: CALL_POLL_MS, run: () => makeDueCalls(deps, policy) };
}

/** The wait before attempt `attempts + 1`: doubling from firstDelayMs up to maxDelayMs, drawn in its upper half. */
export function callDelay(policy: CallPolicy, attempts: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.floor(cap / 2 + policy.random() * (cap / 2));
}

/**
 * One round: claims due calls in a short transaction (a lease longer than any timeout, so a crashed instance's calls
 * come free), then makes each holding no lock. A 2xx answer that fits the declared shape is kept on the call before it
 * is applied, so a crash between the two applies it without asking again; the apply is a change of the project of its
 * own (as the service, for the automation) that reads the call again and settles it in the same transaction, so each
 * call is applied exactly once. A failed attempt is retried with backoff; after the retries (or at once, when trying
 * again cannot help) the call fails in a change that raises connection.failed. Returns true when the round was full.
 */
export async function makeDueCalls(deps: ConnectionCallDeps, policy: CallPolicy = DEFAULT_CALL_POLICY): Promise<boolean> {
  const now = deps.clock.now();
  const claimed = await deps.store.transaction((tx) => tx.connections.claimDueCalls(now, policy.leaseMs, policy.batch));
  await Promise.all(claimed.map(async (call) => {
    try {
      await makeCall(deps, policy, call);
    } catch (error) {
      // A database hiccup while settling: the lease runs out and the call is taken up again.
      deps.log?.warn({ err: error, callId: call.id }, 'settling a connection call failed; it is taken up again when its lease ends');
    }
  }));
  return claimed.length === policy.batch;
}

async function makeCall(deps: ConnectionCallDeps, policy: CallPolicy, call: ConnectionCall): Promise<void> {
  const ctx = await systemContext(deps.store, call.programId);
  const def = ctx?.program.connections?.find((c) => c.customId === call.connectionId);
  // A call whose program no longer has its connection, or whose project is gone, can never be made: it ends here.
  const gone = !ctx || !def ? `the program no longer has the connection ${call.connectionId}`
    : (await deps.store.projects.getProject(ctx.program.id, call.projectId)) ? null : 'the project no longer exists';
  if (gone !== null || !ctx || !def) {
    await deps.store.transaction((tx) => tx.connections.settleCall(call.id, { state: 'failed', attempts: call.attempts, lastError: gone, at: deps.clock.now() }));
    return;
  }
  let json: unknown;
  if (call.response !== null) json = JSON.parse(call.response) as unknown;
  else {
    const answer = await ask(deps, ctx, def, call);
    if ('error' in answer) return attemptFailed(deps, policy, ctx, def, call, answer.error, answer.retryable);
    json = answer.json;
    await deps.store.transaction((tx) => tx.connections.keepResponse(call.id, JSON.stringify(json), call.attempts + 1, deps.clock.now()));
  }
  await apply(deps, ctx, def, call, json);
}

/** Makes one attempt of a call: the settings and allowlist read, the request built from the project's values as they are now. */
async function ask(deps: ConnectionCallDeps, ctx: ProgramContext, def: ConnectionDefinition, call: ConnectionCall): Promise<{ json: unknown } | { error: string; retryable: boolean }> {
  const settings = await deps.store.connections.findSettings(ctx.program.id, def.customId);
  if (!settings) return { error: `no address is set for the connection ${def.customId} of this program (apas connection set)`, retryable: true };
  const project = await deps.store.projects.getProject(ctx.program.id, call.projectId);
  if (!project) return { error: 'the project no longer exists', retryable: false };
  const snap = await snapshot({ tx: deps.store, ctx, state: { project }, now: deps.clock.now() });
  const payload = requestPayload(ctx.model, def, snap.bindings);
  if (typeof payload === 'string') return { error: payload, retryable: false };
  const answer = await deps.client.call({
    url: settings.url, method: def.method, payload, auth: settings.auth, timeoutMs: def.timeoutMs, idempotencyKey: call.idempotencyKey,
    allowedHosts: await deps.store.connections.listHosts(ctx.program.agencyId),
  });
  if (!answer.ok) return { error: answer.error, retryable: answer.retryable };
  const read = readResponse(answer.json, def.response);
  return 'problem' in read ? { error: `the answer does not fit the connection's response: ${read.problem}`, retryable: true } : { json: answer.json };
}

async function attemptFailed(deps: ConnectionCallDeps, policy: CallPolicy, ctx: ProgramContext, def: ConnectionDefinition, call: ConnectionCall, error: string, retryable: boolean): Promise<void> {
  const attempts = call.attempts + 1;
  const now = deps.clock.now();
  const cause = boundText(error, 400);
  if (retryable && attempts <= def.retries) {
    await deps.store.transaction((tx) => tx.connections.settleCall(call.id, { state: 'queued', attempts, lastError: cause, nextAttemptAt: now + callDelay(policy, attempts), at: now }));
    deps.log?.warn({ callId: call.id, connection: def.customId, attempts, error: cause }, `connection call ${call.id} failed; it is tried again later`);
    return;
  }
  deps.log?.warn({ callId: call.id, connection: def.customId, attempts, error: cause }, `connection call ${call.id} failed for the last time; it is marked failed`);
  await changeProject(deps, systemCaller(ctx.program), ctx, call.projectId, {
    action: FAILED_ACTION, access: 'read',
    act: async ({ tx, now: at }) => {
      const current = await tx.connections.getCall(call.id);
      if (current?.state !== 'queued') return { changed: false, result: () => undefined };
      await tx.connections.settleCall(call.id, { state: 'failed', attempts, lastError: cause, at });
      return { detail: { connection: def.customId, callId: call.id, automation: call.automation, attempts, error: cause }, result: () => undefined };
    },
  });
}

/** Applies a kept answer in a change of the project of its own, once: a call settled meanwhile is left alone. */
async function apply(deps: ConnectionCallDeps, ctx: ProgramContext, def: ConnectionDefinition, call: ConnectionCall, json: unknown): Promise<void> {
  const read = readResponse(json, def.response);
  if ('problem' in read) throw new Error(`a kept answer of call ${call.id} no longer fits its connection: ${read.problem}`);
  await changeProject(deps, systemCaller(ctx.program), ctx, call.projectId, {
    action: APPLIED_ACTION, access: 'read',
    act: async ({ tx, project, now }) => {
      const current = await tx.connections.getCall(call.id);
      if (current?.state !== 'queued') return { changed: false, result: () => undefined };
      const snap = await snapshot({ tx, ctx, state: { project }, now });
      const { values, skipped } = answerValues(ctx.model, def, snap.bindings, read.value, now, systemCaller(ctx.program).user.id);
      const changed = values.filter((v) => !sameValue(snap.values.get(v.fieldId), v));
      for (const v of changed) {
        const formId = ctx.model.forms.find((f) => f.fields.some((p) => p.fieldId === v.fieldId))?.id ?? ctx.model.forms[0]?.id ?? '';
        await tx.projects.upsertValues(project.id, formId, [v]);
      }
      await tx.connections.settleCall(call.id, { state: 'applied', attempts: Math.max(current.attempts, 1), lastError: null, at: now });
      return {
        detail: {
          connection: def.customId, callId: call.id, automation: call.automation, fields: changed.map((v) => v.fieldId),
          ...(skipped.length > 0 ? { skipped: skipped.map((s) => ({ fieldId: s.fieldId, reason: boundText(s.reason, 200) })) } : {}),
        },
        result: () => undefined,
      };
    },
  });
}
