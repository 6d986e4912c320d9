import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { User } from '../../model/model.ts';
import type { SignOnSettings } from '../../model/sign-on.ts';
import type { Store } from '../../store/store.ts';
import { type ConsoleScope, requireAgencyAdmin } from '../administration/console-scope.ts';
import { ApiError } from '../api-error.ts';
import { formatGroupGrants, isStaffGrant, parseGroupGrants } from './group-grants.ts';
import { isLoopbackIssuer } from './openid-provider-client.ts';

/** What an agency admin (console) or operator (CLI) sets; a blank client secret keeps the stored one. */
export interface SignOnInput {
  label: string; issuer: string; clientId: string; clientSecret: string; scopes: string; emailClaim: string; groupsClaim: string;
  /** The mapping as text (group-grants.ts, parseGroupGrants). */
  groupGrants: string;
  allowPasswords: boolean; enabled: boolean;
}

/** The settings as the console and `apas agency sso show` show them: everything but the client secret. */
export type SignOnView = Omit<SignOnSettings, 'clientSecret'> & { groupGrantsText: string };

/** The defaults of a new configuration. */
export const SIGN_ON_DEFAULTS = { scopes: 'openid email profile groups', emailClaim: 'email', groupsClaim: 'groups' } as const;

const CLAIM = /^[A-Za-z0-9_:.\-/]{1,100}$/;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/;

function invalid(message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', message);
}

function bounded(value: string, what: string, max: number): string {
  const v = value.trim();
  if (v === '' || v.length > max) throw invalid(`${what} must be 1 to ${max} characters`);
  return v;
}

/** The issuer URL: https (plain http only on this machine's loopback), no query or fragment, without a trailing slash. */
export function checkIssuer(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalid(`the issuer "${text.trim()}" is not a URL`);
  }
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackIssuer(url));
  if (!ok || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw invalid('the issuer must be an https URL without query or fragment (http only on localhost)');
  }
  return url.href.replace(/\/$/, '');
}

function scopesOf(text: string): string[] {
  const scopes = text.trim() === '' ? SIGN_ON_DEFAULTS.scopes.split(' ') : text.trim().split(/\s+/);
  for (const s of scopes) if (!SCOPE.test(s)) throw invalid(`"${s}" is not a scope`);
  return scopes.includes('openid') ? [...new Set(scopes)] : ['openid', ...new Set(scopes)];
}

function claimOf(text: string, fallback: string, what: string): string {
  const claim = text.trim() === '' ? fallback : text.trim();
  if (!CLAIM.test(claim)) throw invalid(`the ${what} claim must be 1 to 100 characters of letters, digits, "_", ":", ".", "-" or "/"`);
  return claim;
}

/**
 * An agency's single sign-on settings: shown without the secret, set and disabled with an audit row (never the secret
 * in it). The console's methods take the caller's ConsoleScope (agency admins only); the CLI's take the agency.
 */
export class SignOnSettingsService {
  constructor(private readonly deps: { store: Pick<Store, 'signOn' | 'programs' | 'accounts' | 'transaction'>; clock: Clock; ids: IdGenerator }) {}

  /** The console: the caller's agency's settings, or null when none are set. FORBIDDEN unless an agency admin. */
  showFor(scope: ConsoleScope): Promise<SignOnView | null> {
    requireAgencyAdmin(scope, 'Single sign-on');
    return this.show(scope.agencyId);
  }

  /** The console: sets the caller's agency's settings. */
  saveFor(scope: ConsoleScope, input: SignOnInput, actorId: string, requestId?: string): Promise<SignOnView> {
    requireAgencyAdmin(scope, 'Single sign-on');
    return this.save(scope.agencyId, input, actorId, requestId);
  }

  /** The console: turns the caller's agency's single sign-on off. */
  disableFor(scope: ConsoleScope, actorId: string): Promise<void> {
    requireAgencyAdmin(scope, 'Single sign-on');
    return this.disable(scope.agencyId, actorId);
  }

  /** An agency's settings without the secret, or null. */
  async show(agencyId: string): Promise<SignOnView | null> {
    const s = await this.deps.store.signOn.findSettings(agencyId);
    return s ? this.#view(s) : null;
  }

  /** Sets an agency's settings (all of them; a blank secret keeps the stored one). INVALID_PARAMETER names what is wrong. */
  async save(agencyId: string, input: SignOnInput, actorId: string | null, requestId?: string): Promise<SignOnView> {
    const programs = await this.deps.store.programs.listPrograms(agencyId);
    const draft = {
      label: bounded(input.label, 'the provider name', 100), issuer: checkIssuer(input.issuer), clientId: bounded(input.clientId, 'the client id', 500),
      scopes: scopesOf(input.scopes), emailClaim: claimOf(input.emailClaim, SIGN_ON_DEFAULTS.emailClaim, 'e-mail'),
      groupsClaim: claimOf(input.groupsClaim, SIGN_ON_DEFAULTS.groupsClaim, 'groups'), groupGrants: parseGroupGrants(input.groupGrants, programs),
      allowPasswords: input.allowPasswords, enabled: input.enabled,
    };
    const secret = input.clientSecret.trim();
    if (secret.length > 1000) throw invalid('the client secret must be at most 1000 characters');
    return this.deps.store.transaction(async (tx) => {
      const before = await tx.signOn.findSettings(agencyId);
      if (!before && secret === '') throw invalid('enter the client secret the provider gave for this client');
      const now = this.deps.clock.now();
      const settings: SignOnSettings = { agencyId, ...draft, clientSecret: secret === '' ? before!.clientSecret : secret, updatedAt: now, updatedBy: actorId };
      await tx.signOn.saveSettings(settings);
      const { clientSecret: _secret, groupGrants, ...shown } = settings;
      await tx.audit.write({
        action: 'agency.sign_on.set', actorId, agencyId, requestId,
        detail: { ...shown, groupGrants: groupGrants.length, secretChanged: secret !== '' },
      }, now, this.deps.ids.next());
      return this.#view(settings, programs);
    });
  }

  /** Turns an agency's single sign-on off (local passwords work again for everyone); NOT_FOUND when none is set. */
  async disable(agencyId: string, actorId: string | null): Promise<void> {
    await this.deps.store.transaction(async (tx) => {
      const before = await tx.signOn.findSettings(agencyId);
      if (!before) throw new ApiError('NOT_FOUND', 'This agency has no single sign-on configured.');
      const now = this.deps.clock.now();
      await tx.signOn.saveSettings({ ...before, enabled: false, updatedAt: now, updatedBy: actorId });
      await tx.audit.write({ action: 'agency.sign_on.disable', actorId, agencyId, detail: {} }, now, this.deps.ids.next());
    });
  }

  /**
   * Whether `user` may sign in with a local password: yes, unless the user is staff (an agency admin or holding a
   * staff role: group-grants.ts, isStaffGrant) of an agency whose enabled single sign-on has turned local passwords off for staff.
   */
  async passwordAllowed(user: Pick<User, 'id' | 'agencyId' | 'agencyAdmin'>): Promise<{ allowed: true } | { allowed: false; label: string }> {
    const s = await this.deps.store.signOn.findPolicy(user.agencyId);
    if (!s || !s.enabled || s.allowPasswords) return { allowed: true };
    const staff = user.agencyAdmin || await this.#holdsStaffGrant(user);
    return staff ? { allowed: false, label: s.label } : { allowed: true };
  }

  async #holdsStaffGrant(user: Pick<User, 'id' | 'agencyId'>): Promise<boolean> {
    const grants = await this.deps.store.accounts.listGrants(user.id);
    if (grants.length === 0) return false;
    const programs = await this.deps.store.programs.listPrograms(user.agencyId);
    return grants.some((g) => isStaffGrant(g, programs));
  }

  async #view(s: SignOnSettings, programs?: Awaited<ReturnType<Store['programs']['listPrograms']>>): Promise<SignOnView> {
    const all = programs ?? (await this.deps.store.programs.listPrograms(s.agencyId));
    const { clientSecret: _secret, ...rest } = s;
    return { ...rest, groupGrantsText: formatGroupGrants(s.groupGrants, all) };
  }
}
