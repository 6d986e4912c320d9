import type { Program } from '../../model/model.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import type { TestOutboxMail } from '../../store/test-program-queries.ts';
import type { StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { programFileOf } from '../programs/program-export.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import { type ImportReport, importProgram, type ProgramImportDeps } from '../programs/program-import.ts';
import { staffRoles } from '../roles/access.ts';
import { isTestProgram } from '../test-program.ts';
import { testCustomId, testNumberPrefix } from '../programs/test-program.ts';
import { type ConsoleScope, requireAdministeredProgram } from './console-scope.ts';
import type { ConsoleService } from './console-service.ts';

/** Projects deleted per transaction by a reset: each transaction stays short, however many projects a test copy has. */
export const RESET_BATCH = 50;

/** The most mails the test outbox lists. */
export const TEST_OUTBOX_LIMIT = 100;

/** A live program and its test copy (null when it has none), as the console's Test programs page lists them. */
export interface TestProgramRow { live: Program; test: Program | null }

/** A test copy's console page: the copy, its live program (null once deleted) and its outbox, newest first. */
export interface TestProgramView { test: Program; live: Program | null; mails: TestOutboxMail[] }

/** What a reset did: how many projects it deleted. */
export interface ResetReport { projects: number }

/** What the service needs: an import's dependencies, the console's scope, and the blob store a reset releases files in. */
export interface TestProgramDeps extends ProgramImportDeps { console: Pick<ConsoleService, 'scope'>; blobs: BlobStore }

/**
 * Test copies of programs (the commercial product's test environment): a program row of its own marked `test_of` its
 * live program, with the live definition imported through the normal import, its own custom id and numbering, and the
 * live program's staff grants. Its mail stays in its outbox (mail-sender.ts), and a reset empties it. An agency admin,
 * or an admin of the live program, acts on it; the copy's own admins too.
 */
export class TestProgramService {
  readonly #deps: TestProgramDeps;

  constructor(deps: TestProgramDeps) {
    this.#deps = deps;
  }

  /** The live programs the caller administers, each with its test copy (when the caller administers it too). */
  async list(caller: Caller): Promise<TestProgramRow[]> {
    const scope = await this.#deps.console.scope(caller);
    const all = await this.#deps.store.programs.listPrograms(scope.agencyId);
    return scope.programs.filter((p) => !isTestProgram(p)).map((live) => ({ live, test: all.find((p) => p.testOf === live.id) ?? null }));
  }

  /**
   * Creates the test copy of a live program the caller administers: the live definition exported and imported as
   * `<customId>-test` with its own number prefix, the live program's grants of staff roles and the rows of its long
   * lists copied, in one transaction. CONFLICT when the program is itself a test copy, already has one, or its custom id is taken.
   */
  async create(caller: Caller, liveRef: string): Promise<Program> {
    const scope = await this.#deps.console.scope(caller);
    const live = requireAdministeredProgram(scope, liveRef);
    if (isTestProgram(live)) throw new ApiError('CONFLICT', `Program ${live.customId} is a test copy; make test copies of live programs only.`);
    const taken = await this.#deps.store.programs.findProgram(testCustomId(live));
    if (taken) {
      throw new ApiError('CONFLICT', taken.testOf === live.id
        ? `Program ${live.customId} already has a test copy (${taken.customId}).`
        : `The custom id ${taken.customId} is taken by another program.`);
    }
    const report = await this.#import(caller, live, async (tx, r) => {
      const staff = new Set(staffRoles(live));
      for (const g of await tx.accounts.listGrantDetails({ programId: live.id })) {
        if (staff.has(g.role)) await tx.accounts.setGrant({ userId: g.userId, programId: r.programId, role: g.role, sensitive: g.sensitive, accessGroups: g.accessGroups ?? null });
      }
      await copyLiveListRows(tx, live.id, r.programId, this.#deps.clock.now());
    });
    return this.#program(report.programId);
  }

  /**
   * Imports the live program's definition into its test copy again ("update from live"); what changed. A long list
   * of the copy holding no rows (one the update adds, or one the live program loaded only since) gets the live list's
   * rows; one loaded in the copy keeps its own.
   */
  async updateFromLive(caller: Caller, testRef: string): Promise<ImportReport> {
    const { test } = await this.#testOf(caller, testRef);
    const live = await this.#deps.store.programs.findProgram(test.testOf!);
    if (!live) throw new ApiError('NOT_FOUND', `The live program of ${test.customId} no longer exists.`);
    const fill = (tx: StoreWriter) => copyLiveListRows(tx, live.id, test.id, this.#deps.clock.now());
    const report = await this.#import(caller, live, fill);
    // An unchanged definition commits nothing, yet the live program may have loaded a list the copy still lacks.
    if (!report.changed) await this.#deps.store.transaction(fill);
    return report;
  }

  /**
   * Empties a test copy: deletes its projects with their files, events, deadlines and mail, RESET_BATCH projects per
   * transaction (each file's blob released after its transaction commits), then its dashboards' counts, and restarts
   * its numbering at 1. One audit row says who reset it and how many projects went.
   */
  async reset(caller: Caller, testRef: string): Promise<ResetReport> {
    const { test } = await this.#testOf(caller, testRef);
    const { store, blobs, clock, ids } = this.#deps;
    let projects = 0;
    for (;;) {
      const batch = await store.programs.projectIdsOfProgram(test.id, RESET_BATCH);
      if (batch.length === 0 && (await store.transaction((tx) => tx.programs.finishProgramReset(test.id)))) break;
      const keys = await store.transaction(async (tx) => {
        const released: string[] = [];
        for (const id of batch) {
          // Locked first, so a change running on the project finishes before its rows go.
          if (!(await tx.projects.lockProject(test.id, id))) continue;
          released.push(...(await tx.programs.deleteTestProjectRows(id)));
          projects++;
        }
        return released;
      });
      // Released once committed; one that fails here stays an orphan, which the next orphan sweep removes.
      for (const key of keys) await blobs.delete(key).catch(() => {});
    }
    await store.transaction((tx) => tx.audit.write({
      action: 'program.test.reset', actorId: caller.user.id, agencyId: test.agencyId, programId: test.id, requestId: caller.requestId ?? null, detail: { projects },
    }, clock.now(), ids.next()));
    return { projects };
  }


  /** A test copy, its live program and the newest mails of its projects (none was sent), with their text, for its console page. */
  async view(caller: Caller, testRef: string): Promise<TestProgramView> {
    const { test } = await this.#testOf(caller, testRef);
    const [live, mails] = await Promise.all([
      this.#deps.store.programs.findProgram(test.testOf!), this.#deps.store.programs.listProgramMail(test.id, TEST_OUTBOX_LIMIT),
    ]);
    return { test, live, mails };
  }

  async #testOf(caller: Caller, ref: string): Promise<{ scope: ConsoleScope; test: Program }> {
    const scope = await this.#deps.console.scope(caller);
    const test = requireAdministeredProgram(scope, ref);
    if (!isTestProgram(test)) throw new ApiError('CONFLICT', `Program ${test.customId} is a live program, not a test copy.`);
    return { scope, test };
  }

  // The test copy keeps its own custom id, name and prefix whatever the live program's file says.
  async #import(caller: Caller, live: Program, alsoIn?: (tx: StoreWriter, report: ImportReport) => Promise<void>): Promise<ImportReport> {
    const model = await this.#deps.store.programs.loadProgramModel(live);
    const file: ProgramFile = {
      ...programFileOf(model), customId: testCustomId(live), name: `${live.name} (test)`, numberPrefix: testNumberPrefix(live),
    };
    return importProgram(this.#deps, live.agencyId, file, {
      actorId: caller.user.id, requestId: caller.requestId ?? null, testOf: live.id, source: `test copy of ${live.customId}`, ...(alsoIn ? { alsoIn } : {}),
    });
  }

  async #program(id: string): Promise<Program> {
    const program = await this.#deps.store.programs.findProgram(id);
    if (!program) throw new Error(`test program ${id} vanished after its creation`);
    return program;
  }
}

/**
 * Copies the rows of the live program's long lists (`rows: csv`) into the lists of the same customId of its test copy
 * that hold none (at creation, all of them), in the import's transaction, so that the copy's choices, lookups and
 * rules find what the live program's do. From then on each list is its own: a load into either leaves the other alone.
 */
async function copyLiveListRows(tx: StoreWriter, liveId: string, testId: string, now: number): Promise<void> {
  const live = await tx.programs.loadProgramDefinition(liveId);
  const test = await tx.programs.loadProgramDefinition(testId);
  const usable = (def: typeof live) => (def?.lists ?? []).filter((l) => l.rows && !def!.retired.includes(l.id));
  const sources = usable(live);
  for (const list of usable(test)) {
    const from = sources.find((l) => l.customId !== null && l.customId === list.customId);
    if (!from || (await tx.listRows.countListRows(list.id)) > 0) continue;
    await tx.listRows.copyListRows(from.id, list.id, now);
  }
}
