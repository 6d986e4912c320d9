import type { EventData, EventType, StoredEvent } from '../../model/event.ts';
import type { ProgramGrant } from '../../model/model.ts';
import type { FeedScope } from '../../store/event-queries.ts';
import { PRUNED_MARK } from '../../store/event-queries.ts';
import type { Store } from '../../store/store.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { loadProgram } from '../projects/project-context.ts';
import { groupLimit, isStaff, roleNamed } from '../roles/access.ts';

/** An event as the feed and webhooks show it: users by e-mail address instead of id. */
export interface EventView {
  seq: number; id: string; type: EventType; at: number; programId: string; projectId: string;
  actorEmail: string | null; fromUserEmail: string | null; toUserEmail: string | null;
  data: Omit<EventData, 'fromUserId' | 'toUserId'>;
}

/** One page of the change feed; `nextCursor` is the `after` of the next page. */
export interface EventFeedView { events: EventView[]; nextCursor: number; hasMore: boolean }

/** What a reader of the feed asks for. */
export interface FeedQuery { after: number; limit: number; programRef?: string; types?: EventType[] }

/** What the feed needs: the outbox, the programs (for a program filter) and the users (for e-mail addresses). */
export type EventServiceDeps = Pick<ServiceDeps<'events' | 'programs' | 'accounts'>, 'store'>;

/** Shows stored events with e-mail addresses; users that no longer exist show as null. */
export async function eventViews(accounts: Pick<Store['accounts'], 'usersByIds'>, events: StoredEvent[]): Promise<EventView[]> {
  const ids = events.flatMap((e) => [e.actorId, e.data.fromUserId, e.data.toUserId]).filter((id): id is string => typeof id === 'string');
  const emails = new Map((await accounts.usersByIds(ids)).map((u) => [u.id, u.email]));
  const email = (id: string | null | undefined) => (id ? emails.get(id) ?? null : null);
  return events.map((e) => {
    const { fromUserId, toUserId, ...data } = e.data;
    return {
      seq: e.seq, id: e.id, type: e.type, at: e.at, programId: e.programId, projectId: e.projectId,
      actorEmail: email(e.actorId), fromUserEmail: email(fromUserId), toUserEmail: email(toUserId), data,
    };
  });
}

/** The change feed: the outbox's events after a cursor, as far as the caller may read them. */
export class EventService {
  readonly #deps: EventServiceDeps;

  constructor(deps: EventServiceDeps) {
    this.#deps = deps;
  }

  /**
   * GetEvents: the events after `after` in sequence order. Staff read every event of their programs, applicants the
   * events of projects they own that do not concern internal notes. A cursor older than the retention mark is
   * refused, since events after it may be gone, and so is one beyond the last sequence, which the feed never gave.
   */
  async feed(caller: Caller, query: FeedQuery): Promise<EventFeedView> {
    const { store } = this.#deps;
    const scope = await this.#scope(caller, query);
    const pruned = await store.events.readCursor(PRUNED_MARK);
    if (query.after < pruned) {
      throw new ApiError('EVENTS_EXPIRED',
        `Events up to sequence ${pruned} are past their retention and may be gone, so a feed after ${query.after} could miss some. Start again from after=${pruned} and reconcile with GetProjects.`);
    }
    const events = await store.events.listFeed(scope, query.after, query.limit);
    // Cursors are sequences, so one this feed never gave (of another installation, or of this one before a restore
    // from backup) cannot be told apart when it is below the head; above it, it is refused rather than answered with
    // empty pages that silently skip whatever the feed holds up to it. Checked only on an empty page, which is
    // where such a cursor lands, so a page with events costs no extra read.
    if (events.length === 0 && query.after > pruned) {
      const head = Math.max(await store.events.lastSequence(), pruned);
      if (query.after > head) {
        throw new ApiError('EVENTS_CURSOR_UNKNOWN',
          `This feed never gave the cursor ${query.after}: its last sequence is ${head}. The cursor belongs to another installation or to this one before a restore from backup, so events may have been missed. Reconcile with GetProjects and start again from after=${head}.`);
      }
    }
    const last = events.at(-1);
    return { events: await eventViews(store.accounts, events), nextCursor: last ? last.seq : query.after, hasMore: events.length === query.limit };
  }

  async #scope(caller: Caller, query: FeedQuery): Promise<FeedScope> {
    const types = query.types;
    const { user } = caller;
    if (query.programRef !== undefined) {
      const { program, role } = await loadProgram(this.#deps, caller, query.programRef);
      // Staff (readProjects) follow the whole program; every other role only its own projects' events.
      const applicant = !isStaff(role);
      const groups = groupLimit(role);
      const owner = { ownerId: user.id, organizationIds: caller.organizationIds ?? [], ...(groups && applicant ? { groups } : {}) };
      // Staff limited to access groups follow only their groups' projects.
      if (!applicant && groups) return { staffProgramIds: [], applicantProgramIds: [], limitedPrograms: [{ programId: program.id, groups }], owner, programId: program.id, types };
      return { staffProgramIds: applicant ? [] : [program.id], applicantProgramIds: applicant ? [program.id] : [], owner, programId: program.id, types };
    }
    // A built-in role says by its name whether it is staff; a program's own role needs the program that defines it.
    const programs = caller.grants.every((g) => roleNamed({}, g.role) !== null) ? [] : await this.#deps.store.programs.listPrograms(user.agencyId);
    const staffIn = (programId: string, role: string) => isStaff(roleNamed(programs.find((p) => p.id === programId) ?? {}, role));
    const limited = (g: ProgramGrant) => !user.agencyAdmin && (g.accessGroups ?? null) !== null;
    return {
      ...(user.agencyAdmin ? { staffAgencyId: user.agencyId } : {}),
      staffProgramIds: caller.grants.filter((g) => staffIn(g.programId, g.role) && !limited(g)).map((g) => g.programId),
      limitedPrograms: caller.grants.filter((g) => staffIn(g.programId, g.role) && limited(g)).map((g) => ({ programId: g.programId, groups: g.accessGroups! })),
      // An applicant grant limited to groups reads its own projects of those groups only: the feed leaves it out.
      applicantProgramIds: caller.grants.filter((g) => !staffIn(g.programId, g.role) && !limited(g)).map((g) => g.programId),
      owner: { ownerId: user.id, organizationIds: caller.organizationIds ?? [] },
      types,
    };
  }
}
