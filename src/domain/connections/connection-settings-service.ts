import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { Clock } from '../../model/clock.ts';
import type { ConnectionAuth } from '../../model/connection.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Program } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { type ConnectionNetworkPolicy, urlProblem } from './connection-client.ts';

/** What the settings need: the store, the clock and ids (for the audit rows), and the address rules. */
export interface ConnectionSettingsDeps { store: Store; clock: Clock; ids: IdGenerator; policy: ConnectionNetworkPolicy }

/** One connection of a program as an operator sees it: where it goes and how it signs in, never a secret. */
export interface ConnectionSettingsView {
  programId: string; programCustomId: string; testCopy: boolean; connectionId: string; name: string;
  /** Null when no address is set: calls wait, and lookups say the system is not configured. */
  url: string | null; auth: ConnectionAuth['kind'] | null; updatedAt: number | null;
  /** The sign-in's parts that are no secret (a header's name; an OAuth client's token URL, id and scope), to show and edit. */
  signIn: SignInParts;
}

/** The parts of a sign-in that are no secret; null where the sign-in has no such part. */
export interface SignInParts { headerName: string | null; tokenUrl: string | null; clientId: string | null; scope: string | null }

/** The parts of `auth` that may be shown: never a header's value, a client secret or a certificate. */
export function signInParts(auth: ConnectionAuth | null): SignInParts {
  return {
    headerName: auth?.kind === 'header' ? auth.name : null,
    tokenUrl: auth?.kind === 'oauth' ? auth.tokenUrl : null,
    clientId: auth?.kind === 'oauth' ? auth.clientId : null,
    scope: auth?.kind === 'oauth' ? auth.scope : null,
  };
}

/** The most characters of an address or secret an operator may set. */
const MAX_SETTING_CHARS = 2000;

/** A host name as the allowlist keeps it: lower case, no port or brackets; refused when it is not one. */
export function hostOf(raw: string): string {
  const host = raw.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (!/^[a-z0-9.:_-]{1,253}$/.test(host) || host.startsWith('.') || host.endsWith('.')) throw new ApiError('INVALID_REQUEST', `"${raw}" is not a host name`);
  return host;
}

/** The settings a refusal of `set` can name (in its `fields`), so that a form can mark the field at fault. */
export type ConnectionSetting = 'url' | 'headerName' | 'headerSecret' | 'tokenUrl' | 'clientId' | 'clientSecret' | 'clientCert';

// A refusal naming the setting at fault: the message for people, the setting in `fields` for a form.
const refused = (setting: ConnectionSetting, message: string) =>
  new ApiError('INVALID_REQUEST', message, { fields: [{ dataFieldId: setting, code: 'INVALID_SETTING', message }] });

/**
 * The installation's side of connections (`apas connection …`): each program's address and sign-in per connection
 * (a test copy of a program is a program of its own, so it has its own), sealed at rest by the store, and the agency's
 * allowlist of hosts. Every change writes an audit row that names no secret.
 */
export class ConnectionSettingsService {
  constructor(private readonly deps: ConnectionSettingsDeps) {}

  /** Sets where a program's connection goes and how it signs in; the address must pass the connections' rules now. */
  async set(program: Program, connectionId: string, url: string, auth: ConnectionAuth, actorId: string | null): Promise<ConnectionSettingsView> {
    const def = (program.connections ?? []).find((c) => c.customId === connectionId);
    if (!def) throw new ApiError('NOT_FOUND', `program ${program.customId} has no connection "${connectionId}"${listed(program)}`);
    if (url.length > MAX_SETTING_CHARS) throw refused('url', `the address must be at most ${MAX_SETTING_CHARS} characters`);
    checkAuth(auth);
    return this.deps.store.transaction(async (tx) => {
      const hosts = await tx.connections.listHosts(program.agencyId);
      const problem = urlProblem(url, hosts, this.deps.policy);
      if (problem !== null) throw refused('url', `the connection cannot be set: ${problem}`);
      const tokenProblem = auth.kind === 'oauth' ? urlProblem(auth.tokenUrl, hosts, this.deps.policy) : null;
      if (tokenProblem !== null) throw refused('tokenUrl', `the connection cannot be set: the token URL: ${tokenProblem}`);
      const now = this.deps.clock.now();
      await tx.connections.saveSettings({ programId: program.id, connectionId, url, auth, updatedAt: now }, actorId);
      await tx.audit.write({ action: 'connection.settings.set', actorId, agencyId: program.agencyId, programId: program.id, detail: { connection: connectionId, url, auth: auth.kind } }, now, this.deps.ids.next());
      return view(program, def.customId, def.name, { url, auth, updatedAt: now });
    });
  }

  /** Removes a connection's settings: its calls wait, and lookups say it is not configured. */
  async remove(program: Program, connectionId: string, actorId: string | null): Promise<void> {
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.connections.deleteSettings(program.id, connectionId))) throw new ApiError('NOT_FOUND', `program ${program.customId} has no settings for the connection "${connectionId}"`);
      await tx.audit.write({ action: 'connection.settings.remove', actorId, agencyId: program.agencyId, programId: program.id, detail: { connection: connectionId } }, this.deps.clock.now(), this.deps.ids.next());
    });
  }

  /** Every connection of the programs with where it goes (or that it is not set), never a secret. */
  async list(programs: Program[]): Promise<ConnectionSettingsView[]> {
    const set = await this.deps.store.connections.listSettings(programs.map((p) => p.id));
    const views: ConnectionSettingsView[] = [];
    for (const p of programs) {
      for (const c of p.connections ?? []) {
        const s = set.find((x) => x.programId === p.id && x.connectionId === c.customId);
        const auth = s ? (await this.deps.store.connections.findSettings(p.id, c.customId))?.auth ?? null : null;
        views.push(view(p, c.customId, c.name, s ? { url: s.url, auth, updatedAt: s.updatedAt } : null));
      }
    }
    return views;
  }

  /** The agency's allowlist of hosts. */
  hosts(agencyId: string): Promise<string[]> {
    return this.deps.store.connections.listHosts(agencyId);
  }

  /** Adds (or, with `allowed` false, removes) a host of the agency's allowlist. */
  async allowHost(agencyId: string, raw: string, allowed: boolean, actorId: string | null): Promise<string[]> {
    const host = hostOf(raw);
    return this.deps.store.transaction(async (tx) => {
      if (allowed) await tx.connections.allowHost(agencyId, host);
      else if (!(await tx.connections.disallowHost(agencyId, host))) throw new ApiError('NOT_FOUND', `${host} is not on the agency's allowlist`);
      await tx.audit.write({ action: allowed ? 'connection.host.allow' : 'connection.host.disallow', actorId, agencyId, detail: { host } }, this.deps.clock.now(), this.deps.ids.next());
      return tx.connections.listHosts(agencyId);
    });
  }
}

function listed(program: Program): string {
  const ids = (program.connections ?? []).map((c) => c.customId);
  return ids.length > 0 ? `; its connections are ${ids.join(', ')}` : ' (its program file has no connections:)';
}

function view(p: Program, connectionId: string, name: string, s: { url: string; auth: ConnectionAuth | null; updatedAt: number } | null): ConnectionSettingsView {
  return {
    programId: p.id, programCustomId: p.customId, testCopy: p.testOf !== undefined, connectionId, name,
    url: s?.url ?? null, auth: s?.auth?.kind ?? null, updatedAt: s?.updatedAt ?? null, signIn: signInParts(s?.auth ?? null),
  };
}

/** Refuses a sign-in that could never work: a header name that is no token, a certificate file without a certificate and key. */
function checkAuth(auth: ConnectionAuth): void {
  if (auth.kind === 'header') {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(auth.name)) throw refused('headerName', `"${auth.name}" is not a header name`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
    if (auth.value === '' || auth.value.length > MAX_SETTING_CHARS || /[\u0000-\u001f\u007f]/.test(auth.value)) throw refused('headerSecret', 'the header\'s secret must be 1 to 2000 characters without line breaks');
  }
  if (auth.kind === 'oauth' && auth.clientId === '') throw refused('clientId', 'OAuth client credentials need a client id');
  if (auth.kind === 'oauth' && auth.clientSecret === '') throw refused('clientSecret', 'OAuth client credentials need a client secret');
  if (auth.kind === 'clientCert') {
    try {
      new X509Certificate(auth.pem);
      createPrivateKey(auth.pem);
    } catch {
      throw refused('clientCert', 'the client certificate file must hold the certificate and its private key in PEM');
    }
  }
}
