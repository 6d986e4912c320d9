import { canRead, canWrite, isStaff } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { requireInquiryMove, requireNoteText, statusAfterNote } from './inquiry-thread.ts';
import type { InquiryNote, InquiryStatus, InquiryThread } from '../../model/inquiry.ts';
import type { Project } from '../../model/model.ts';
import { changeProject } from '../projects/change-project.ts';
import { landingUrl, loadProgramWith, loadProgram, loadReadableProject, loadReadableProjectByRef, versionOf } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type {
  AtVersion, InquiryNoteInput, InquiryNoteView, InquiryNotesView, InquiryThreadSetView, InquiryThreadsView, InquiryThreadView, LandingInquiriesView,
} from '../views.ts';
import type { StoreReader, } from '../../store/store.ts';

/** The most characters of a thread's subject. */
export const MAX_SUBJECT_LENGTH = 200;

/** The most characters of a thread's external id. */
export const MAX_EXTERNAL_ID_LENGTH = 100;

function threadView(t: InquiryThread & { noteCount: number }): InquiryThreadView {
  return { threadId: t.id, subject: t.subject, status: t.status, externalId: t.externalId, createdAt: t.createdAt, updatedAt: t.updatedAt, noteCount: t.noteCount };
}

async function noteViews(reader: Pick<StoreReader, 'accounts'>, notes: InquiryNote[]): Promise<InquiryNoteView[]> {
  const users = await reader.accounts.usersByIds([...new Set(notes.map((n) => n.authorId))]);
  return notes.map((n) => {
    const author = users.find((u) => u.id === n.authorId);
    return {
      noteId: n.id, author: author?.name ?? n.authorId, authorEmail: author?.email ?? n.authorId, timestamp: n.createdAt,
      visibleToApplicant: n.visibleToApplicant, text: n.text,
    };
  });
}

function requireLength(what: string, value: string, max: number): void {
  const length = [...value].length;
  if (length < 1 || length > max) throw new ApiError('INVALID_REQUEST', `${what} must have 1 to ${max} characters; got ${length}.`);
}

/**
 * Inquiry threads: admins of a program read and write a project's threads through the API; whoever may read the
 * project replies on its landing page to the threads that show notes to the applicant.
 */
export class InquiryService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'inquiries' | 'accounts'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'inquiries' | 'accounts'> & ReactingDeps) {
    this.#deps = deps;
  }

  /** GetInquiryThreads (privilege inquiries): the project's threads in creation order. */
  async getThreads(caller: Caller, programRef: string, projectId: string): Promise<AtVersion<InquiryThreadsView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'inquiries', 'GetInquiryThreads');
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectId);
    const threads = await this.#deps.store.inquiries.listThreads(project.id);
    return { projectId: project.id, threads: threads.map(threadView), projectVersion: versionOf(project) };
  }

  /** GetNotesInInquiryThread (privilege inquiries): the thread with every note, hidden ones included, oldest first. */
  async getNotes(caller: Caller, programRef: string, projectId: string, threadId: string): Promise<AtVersion<InquiryNotesView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'inquiries', 'GetNotesInInquiryThread');
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const thread = await this.#thread(this.#deps.store, project, threadId);
    const notes = await this.#deps.store.inquiries.listNotes(thread.id);
    return { projectId: project.id, thread: threadView(thread), notes: await noteViews(this.#deps.store, notes), projectVersion: versionOf(project) };
  }

  /** SetInquiryNote (privilege inquiries): adds a staff note to a thread, or opens a new thread with it when no thread is named. */
  async addNote(caller: Caller, programRef: string, projectId: string, input: InquiryNoteInput): Promise<AtVersion<InquiryNotesView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'inquiries', 'SetInquiryNote');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (input.threadId === null) {
      if (input.subject === null) throw new ApiError('INVALID_REQUEST', 'Send a Subject to open a new thread, or a ThreadId to add to one.');
      requireLength('Subject', input.subject, MAX_SUBJECT_LENGTH);
    } else if (input.subject !== null) {
      throw new ApiError('INVALID_REQUEST', 'Subject is only sent when opening a new thread; a thread keeps the subject it was opened with.');
    }
    requireNoteText(input.text);
    const { ids } = this.#deps;
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'inquiry.note.add', access: 'read',
      act: async ({ tx, project, now }) => {
        const existing = input.threadId === null ? null : await this.#thread(tx, project, input.threadId);
        if (existing?.status === 'Closed') throw closed(existing);
        const from: InquiryStatus = existing?.status ?? 'Open';
        const status = statusAfterNote(from, { byStaff: true, visibleToApplicant: input.visibleToApplicant });
        const thread = existing ?? {
          id: ids.next(), programId: ctx.program.id, projectId: project.id, subject: input.subject ?? '', status, externalId: null,
          createdAt: now, createdBy: caller.user.id, updatedAt: now, updatedBy: caller.user.id, noteCount: 0,
        };
        if (!existing) await tx.inquiries.insertThread(thread);
        const note = await tx.inquiries.insertNote({
          id: ids.next(), threadId: thread.id, authorId: caller.user.id, createdAt: now, text: input.text, visibleToApplicant: input.visibleToApplicant,
        });
        if (existing) await tx.inquiries.updateThread(thread.id, { ...(status !== from ? { status } : {}), updatedAt: now, updatedBy: caller.user.id });
        const after = { ...thread, status, updatedAt: now, updatedBy: caller.user.id, noteCount: thread.noteCount + 1 };
        return {
          action: existing ? 'inquiry.note.add' : 'inquiry.thread.open',
          // Never the text in the audit: notes may hold personal details that the audit log must not copy.
          detail: { threadId: thread.id, noteId: note.id, visibleToApplicant: note.visibleToApplicant, ...(status !== from || !existing ? { status } : {}) },
          result: async (updated) => ({ projectId: project.id, thread: threadView(after), notes: await noteViews(tx, [note]), projectVersion: versionOf(updated) }),
        };
      },
    });
  }

  /** SetInquiryThreadStatus (privilege inquiries): moves a thread to a status allowed next from its current one. */
  async setStatus(caller: Caller, programRef: string, projectId: string, threadId: string, status: InquiryStatus): Promise<AtVersion<InquiryThreadSetView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'inquiries', 'SetInquiryThreadStatus');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'inquiry.thread.status.set', access: 'read',
      act: async ({ tx, project, now }) => {
        const thread = await this.#thread(tx, project, threadId);
        requireInquiryMove(thread.status, status);
        await tx.inquiries.updateThread(thread.id, { status, updatedAt: now, updatedBy: caller.user.id });
        return {
          detail: { threadId: thread.id, from: thread.status, to: status },
          result: (updated) => ({ projectId: project.id, thread: threadView({ ...thread, status, updatedAt: now }), projectVersion: versionOf(updated) }),
        };
      },
    });
  }

  /** SetInquiryThreadExternalId (privilege inquiries): links a thread to an outside ticket id (unique in the program), or unlinks it with null. */
  async setExternalId(caller: Caller, programRef: string, projectId: string, threadId: string, externalId: string | null): Promise<AtVersion<InquiryThreadSetView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'inquiries', 'SetInquiryThreadExternalId');
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (externalId !== null) requireLength('ExternalId', externalId, MAX_EXTERNAL_ID_LENGTH);
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'inquiry.thread.external_id.set', access: 'read',
      act: async ({ tx, project, now }) => {
        const thread = await this.#thread(tx, project, threadId);
        // Sending the id the thread already has changes nothing, so a retried request is harmless.
        if (thread.externalId === externalId) return { changed: false, result: (same) => ({ projectId: project.id, thread: threadView(thread), projectVersion: versionOf(same) }) };
        const holder = externalId === null ? null : await tx.inquiries.findThreadByExternalId(ctx.program.id, externalId);
        if (holder) {
          // A thread of a project the caller may not read (a grant limited to access groups) is not named.
          const other = holder.projectId === project.id ? project : await tx.projects.getProject(ctx.program.id, holder.projectId);
          if (!other || !canRead(caller, ctx.role, other)) throw new ApiError('CONFLICT', `External id "${externalId}" is already used by another inquiry thread of program ${ctx.program.id}.`);
          throw new ApiError('CONFLICT', `External id "${externalId}" is already used by inquiry thread ${holder.id} of project ${holder.projectId}.`);
        }
        await tx.inquiries.updateThread(thread.id, { externalId, updatedAt: now, updatedBy: caller.user.id });
        return {
          detail: { threadId: thread.id, from: thread.externalId, to: externalId },
          result: (updated) => ({ projectId: project.id, thread: threadView({ ...thread, externalId, updatedAt: now }), projectVersion: versionOf(updated) }),
        };
      },
    });
  }

  /**
   * The landing page's inquiry section: threads with notes the applicant may see, with only those notes; a reply
   * form under the threads that are not closed when the caller may change the project.
   */
  async landingThreads(caller: Caller, programRef: string, projectId: string): Promise<LandingInquiriesView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const [threads, notes] = await Promise.all([this.#deps.store.inquiries.listThreads(project.id), this.#deps.store.inquiries.listVisibleNotes(project.id)]);
    const views = await noteViews(this.#deps.store, notes);
    const mayReply = canWrite(caller, ctx.role, project);
    return {
      replyUrl: `${this.#deps.publicUrl}/MvcProjects/InquiryReply`,
      threads: threads.map((t) => ({
        threadId: t.id, subject: t.subject, status: t.status, canReply: mayReply && t.status !== 'Closed',
        notes: views.filter((_v, i) => notes[i]!.threadId === t.id).map((v) => ({ author: v.author, timestamp: v.timestamp, text: v.text })),
      })).filter((t) => t.notes.length > 0),
    };
  }

  /**
   * A reply from the landing page by someone who may change the project (its applicant owner, editors, admins),
   * visible to the applicant; a reader gets FORBIDDEN. Only threads the applicant can see take replies; others are
   * reported as missing. Returns the landing page's address.
   */
  async reply(caller: Caller, programRef: string, projectId: string, threadId: string, text: string): Promise<string> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    if (!canWrite(caller, ctx.role, seen)) throw new ApiError('FORBIDDEN', `You may read but not change project ${seen.id} (privilege editData, or editOwnProjects on your own projects), so you cannot reply on it.`);
    const { ids } = this.#deps;
    await changeProject(this.#deps, caller, ctx, seen.id, {
      // Access is checked again on the locked project: an applicant who no longer owns it may not reply.
      action: 'inquiry.note.add', access: 'write', forbidden: `You may read but not change project ${seen.id} (privilege editData, or editOwnProjects on your own projects), so you cannot reply on it.`,
      act: async ({ tx, project, now }) => {
        const thread = await this.#thread(tx, project, threadId);
        if (!(await tx.inquiries.listNotes(thread.id)).some((n) => n.visibleToApplicant)) throw missingThread(threadId, project);
        if (thread.status === 'Closed') throw closed(thread);
        requireNoteText(text);
        // Staff who answer on the page speak to the applicant just as a visible staff note does.
        const status = statusAfterNote(thread.status, { byStaff: isStaff(ctx.role), visibleToApplicant: true });
        const note = await tx.inquiries.insertNote({ id: ids.next(), threadId: thread.id, authorId: caller.user.id, createdAt: now, text, visibleToApplicant: true });
        await tx.inquiries.updateThread(thread.id, { ...(status !== thread.status ? { status } : {}), updatedAt: now, updatedBy: caller.user.id });
        return {
          detail: { threadId: thread.id, noteId: note.id, visibleToApplicant: true, via: 'landing-page', ...(status !== thread.status ? { status } : {}) },
          result: () => undefined,
        };
      },
    });
    return landingUrl(this.#deps.publicUrl, seen);
  }

  async #thread(reader: Pick<StoreReader, 'inquiries'>, project: Project, threadId: string) {
    const thread = await reader.inquiries.getThread(project.id, threadId);
    if (!thread) throw missingThread(threadId, project);
    return thread;
  }
}

function missingThread(threadId: string, project: Project): ApiError {
  return new ApiError('NOT_FOUND', `Inquiry thread "${threadId}" was not found in project ${project.id}.`);
}

function closed(thread: InquiryThread): ApiError {
  return new ApiError('THREAD_CLOSED', `Inquiry thread ${thread.id} is closed and takes no new notes.`);
}
