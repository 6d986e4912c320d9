import { randomBytes } from 'node:crypto';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Program, ProgramGrant, User } from '../../model/model.ts';
import type { SignOnSettings } from '../../model/sign-on.ts';
import type { UserWithSecret } from '../../model/records.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import type { GrantFollower } from '../accounts/grant-follower.ts';
import { digest } from '../accounts/secrets.ts';
import type { WebSessionService } from '../accounts/web-session-service.ts';
import { ApiError } from '../api-error.ts';
import { grantsAnything, isStaffGrant, type MappedAccess, mappedAccess } from './group-grants.ts';
import type { OpenIdProviderClient } from './openid-provider-client.ts';

/** Where the provider sends the browser back (under the public URL). */
export const SIGN_ON_CALLBACK_PATH = '/MvcProjects/SignIn/Sso/Callback';

/** How long a sign-in may stay at the provider before its state is refused. */
export const SIGN_ON_ATTEMPT_MS = 10 * 60_000;

/**
 * How many sign-ins of one agency may be under way at once. Starting one is open to anybody and stores a row for ten
 * minutes, so without a bound a script could fill the database; a real morning of staff sign-ins stays far below it.
 */
export const MAX_LIVE_SIGN_ONS = 1000;

/**
 * The password hash of a user provisioned by single sign-on: not an argon2 hash, so no password ever matches it (the
 * user may be given one later with `apas user set-password` or a reset mail, where the agency allows passwords).
 */
export const NO_PASSWORD = '!single-sign-on';

/** A sign-in sent to the provider: where to send the browser, and the binding cookie's value and expiry. */
export interface BegunSignOn { url: string; browser: string; expiresAt: number }

/** A finished single sign-on: the session cookie and where to go. */
export interface FinishedSignOn { cookie: string; expiresAt: number; next: string; userId: string }

const random = () => randomBytes(32).toString('base64url');

type Outcome = { kind: 'in'; user: UserWithSecret } | { kind: 'refused'; message: string };

/**
 * Staff sign-in with an agency's OpenID Connect provider: the authorization code flow with PKCE, state and nonce, kept
 * server-side and bound to the browser by a cookie; provisioning on first sign-in and the grants matched to the
 * provider's groups at every sign-in (group-grants.ts).
 */
export class SignOnService {
  constructor(
    private readonly deps: {
      store: Pick<Store, 'signOn' | 'accounts' | 'programs' | 'transaction'>; clock: Clock; ids: IdGenerator; publicUrl: string;
      /** What follows a grant the mapping changed or removed (src/domain/wiring/grant-followers.ts); none when absent. */
      grantFollowers?: readonly GrantFollower[];
    },
    private readonly client: OpenIdProviderClient,
    private readonly sessions: Pick<WebSessionService, 'startSignedOn'>,
  ) {}

  /** The agencies offering single sign-on, for the sign-in page's buttons. */
  providers(): Promise<{ agencyId: string; label: string }[]> {
    return this.deps.store.signOn.listEnabled();
  }

  /** Starts a sign-in at the agency's provider; NOT_FOUND when the agency has no enabled single sign-on. */
  async begin(agencyId: string, next: string): Promise<BegunSignOn> {
    const settings = await this.#enabled(agencyId);
    if ((await this.deps.store.signOn.countLiveAttempts(agencyId, this.deps.clock.now())) >= MAX_LIVE_SIGN_ONS) {
      throw new ApiError('RATE_LIMITED', 'Too many single sign-ons of this agency are under way; try again in a few minutes.', {
        headers: { 'Retry-After': String(SIGN_ON_ATTEMPT_MS / 1000) },
      });
    }
    const checks = { state: random(), nonce: random(), codeVerifier: random() };
    const browser = random();
    const now = this.deps.clock.now();
    const url = await this.client.authorizationUrl(settings, this.#redirectUri(), checks);
    const expiresAt = now + SIGN_ON_ATTEMPT_MS;
    await this.deps.store.signOn.insertAttempt({
      id: digest(checks.state), agencyId, browserHash: digest(browser), nonce: checks.nonce, codeVerifier: checks.codeVerifier, next,
      createdAt: now, expiresAt,
    }, now);
    return { url: url.href, browser, expiresAt };
  }

  /**
   * The provider's answer: the state must name a live attempt of this browser (used once: a replay finds nothing), the
   * provider's answer and ID token must pass openid-client's checks, the e-mail must be verified, and the groups must
   * map to some access. A refusal changes no user or grant, except that a known user whose groups no longer map loses
   * the grants the mapping gave (and their sessions) before being refused.
   */
  async complete(callbackUrl: URL, browser: string | undefined, requestId?: string): Promise<FinishedSignOn> {
    const state = callbackUrl.searchParams.get('state');
    const attempt = state ? await this.deps.store.signOn.claimAttempt(digest(state)) : null;
    const again = 'start again from the sign-in page.';
    if (!state || !attempt) throw new ApiError('INVALID_REQUEST', `This single sign-on answer is unknown or was used already; ${again}`);
    if (attempt.expiresAt <= this.deps.clock.now()) throw new ApiError('INVALID_REQUEST', `This single sign-on took too long; ${again}`);
    if (browser === undefined || digest(browser) !== attempt.browserHash) {
      throw new ApiError('INVALID_REQUEST', `This single sign-on was started in another browser; ${again}`);
    }
    const settings = await this.#enabled(attempt.agencyId);
    const claims = await this.client.redeem(settings, callbackUrl, { state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
    const email = claims[settings.emailClaim];
    if (typeof email !== 'string' || !email.includes('@')) {
      throw new ApiError('FORBIDDEN', `The identity provider sent no e-mail address in the "${settings.emailClaim}" claim.`);
    }
    if (claims.email_verified !== true) throw new ApiError('FORBIDDEN', 'The identity provider does not say this e-mail address is verified, so it cannot sign you in here.');
    const outcome = await this.#provision(settings, email.trim().toLowerCase(), groupsOf(claims[settings.groupsClaim]), nameOf(claims, email), requestId);
    if (outcome.kind === 'refused') throw new ApiError('FORBIDDEN', outcome.message);
    const session = await this.sessions.startSignedOn(outcome.user.id);
    return { ...session, next: attempt.next, userId: outcome.user.id };
  }

  async #enabled(agencyId: string): Promise<SignOnSettings> {
    const settings = await this.deps.store.signOn.findSettings(agencyId);
    if (!settings || !settings.enabled) throw new ApiError('NOT_FOUND', 'This agency does not offer single sign-on.');
    return settings;
  }

  #redirectUri(): string {
    return new URL(SIGN_ON_CALLBACK_PATH, this.deps.publicUrl).href;
  }

  // One transaction: the user read, created or matched to the mapping, with an audit row for every change.
  async #provision(settings: SignOnSettings, email: string, groups: string[], name: string, requestId?: string): Promise<Outcome> {
    const { clock, ids } = this.deps;
    return this.deps.store.transaction(async (tx): Promise<Outcome> => {
      const programs = await tx.programs.listPrograms(settings.agencyId);
      const access = mappedAccess(groups, settings.groupGrants, programs);
      const existing = await tx.accounts.findUserByEmail(email);
      const audit = (action: string, detail: Record<string, unknown>, actorId: string | null) =>
        tx.audit.write({ action, actorId, agencyId: settings.agencyId, requestId, detail: { email, groups: groups.slice(0, 50), ...detail } }, clock.now(), ids.next());
      const noAccess = 'Your groups at the identity provider give you no access to this agency; ask its administrators to add you to a group it maps.';
      if (existing && existing.agencyId !== settings.agencyId) return { kind: 'refused', message: 'This e-mail address belongs to an account of another agency.' };
      if (existing?.disabled) return { kind: 'refused', message: 'This account is disabled; ask the agency\'s administrators.' };
      if (!grantsAnything(access)) {
        if (existing && (await this.#hadAccess(tx, existing, programs))) {
          await this.#match(tx, existing, access, programs);
          await tx.accountTokens.endUserSessions(existing.id, 'sessions-and-access-tokens', clock.now());
          await audit('user.sign_on.access_removed', { userId: existing.id }, existing.id);
        }
        return { kind: 'refused', message: noAccess };
      }
      if (existing) {
        const changes = await this.#match(tx, existing, access, programs);
        if (changes.length > 0) await audit('user.sign_on.grants_matched', { userId: existing.id, changes }, existing.id);
        return { kind: 'in', user: { ...existing, agencyAdmin: access.agencyAdmin } };
      }
      const user: User = { id: ids.next(), agencyId: settings.agencyId, email, name, agencyAdmin: access.agencyAdmin, disabled: false };
      await tx.accounts.insertUser(user, NO_PASSWORD, clock.now());
      for (const g of access.grants) await tx.accounts.setGrant({ ...g, userId: user.id });
      await audit('user.sign_on.provision', { userId: user.id, agencyAdmin: user.agencyAdmin, grants: access.grants }, user.id);
      return { kind: 'in', user: { ...user, passwordHash: NO_PASSWORD } };
    });
  }

  async #hadAccess(tx: StoreWriter, user: UserWithSecret, programs: Program[]): Promise<boolean> {
    return user.agencyAdmin || (await tx.accounts.listGrants(user.id)).some((g) => isStaffGrant(g, programs));
  }

  /**
   * Sets the user's agency admin flag and staff grants to exactly what the mapping gives (a grant as applicant is the
   * user's own and stays); the changes made, for the audit row.
   */
  async #match(tx: StoreWriter, user: UserWithSecret, access: MappedAccess, programs: Program[]): Promise<string[]> {
    const changes: string[] = [];
    // The programs where what the user reads may have narrowed: every one of the agency's when they stop being its admin.
    const narrowed = new Set<string>();
    const now = this.deps.clock.now();
    if (user.agencyAdmin !== access.agencyAdmin) {
      await tx.accounts.updateUser(user.id, { agencyAdmin: access.agencyAdmin }, now);
      changes.push(access.agencyAdmin ? 'agency admin added' : 'agency admin removed');
      if (!access.agencyAdmin) for (const p of programs) narrowed.add(p.id);
    }
    const held = await tx.accounts.listGrants(user.id);
    for (const g of held) {
      if (!isStaffGrant(g, programs) || access.grants.some((a) => a.programId === g.programId)) continue;
      await tx.accounts.deleteGrant(user.id, g.programId);
      changes.push(`grant removed in ${g.programId}`);
      narrowed.add(g.programId);
    }
    for (const mapped of access.grants) {
      const had = held.find((g) => g.programId === mapped.programId);
      // A mapping that names no access groups keeps the grant's limit (an administrator's, set in the console or the
      // CLI): a sign-in never widens it. One that names them sets them.
      const a = { ...mapped, accessGroups: mapped.accessGroups ?? had?.accessGroups ?? null };
      if (had && same(had, a)) continue;
      await tx.accounts.setGrant({ ...a, userId: user.id });
      changes.push(`grant ${a.role}${a.sensitive ? ' (sensitive)' : ''}${a.accessGroups ? ` limited to ${a.accessGroups.join(', ')}` : ''} in ${a.programId}`);
      narrowed.add(a.programId);
    }
    // As an administrator's grant change does: the projects they can no longer read are unassigned, by the system.
    for (const programId of narrowed) {
      for (const follower of this.deps.grantFollowers ?? []) await follower.grantChanged(tx, this.deps.ids, { userId: user.id, programId, actorId: null, at: now });
    }
    return changes;
  }
}

function same(a: Omit<ProgramGrant, 'userId'>, b: Omit<ProgramGrant, 'userId'>): boolean {
  const groups = (g: Omit<ProgramGrant, 'userId'>) => JSON.stringify(g.accessGroups ?? null);
  return a.programId === b.programId && a.role === b.role && a.sensitive === b.sensitive && groups(a) === groups(b);
}

/** The groups claim as a list: an array of strings, one string, or nothing (then no groups). */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

function nameOf(claims: Record<string, unknown>, email: string): string {
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  return name === '' ? email : name.slice(0, 200);
}
