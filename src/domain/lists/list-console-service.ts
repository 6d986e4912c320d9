import type { Caller } from '../caller.ts';
import type { Program } from '../../model/model.ts';
import { ApiError } from '../api-error.ts';
import { findLoadableList, type ListLoadDeps, type ListLoadReport, loadListRows } from './list-load.ts';

/** The largest CSV file the console takes (10,000 rows of an equipment list are about 1 MB). */
export const MAX_LIST_FILE_BYTES = 20 * 1024 * 1024;

/** A list of `rows: csv` of a program, as the console's program page shows it. */
export interface LoadableListView { listId: string; customId: string | null; name: string; key: string; columns: { name: string; type: string }[]; rows: number }

/** What the service needs: the store, time and ids, and the program the caller administers (FORBIDDEN otherwise). */
export interface ListConsoleDeps extends ListLoadDeps {
  administeredProgram(caller: Caller, programRef: string): Promise<Program>;
}

/**
 * The console's part of long lists (the Programs area): the lists of a program the caller administers, and loading a
 * list's rows from an uploaded CSV file, or only checking it, as `apas list load` does.
 */
export class ListConsoleService {
  readonly #deps: ListConsoleDeps;
  constructor(deps: ListConsoleDeps) {
    this.#deps = deps;
  }

  /** The program's lists of `rows: csv`, each with how many rows it holds. */
  async lists(caller: Caller, programRef: string): Promise<LoadableListView[]> {
    const program = await this.#deps.administeredProgram(caller, programRef);
    const def = await this.#deps.store.programs.loadProgramDefinition(program.id);
    const retired = new Set(def?.retired ?? []);
    const lists = (def?.lists ?? []).filter((l) => l.rows && !retired.has(l.id));
    return Promise.all(lists.map(async (l) => ({
      listId: l.id, customId: l.customId, name: l.name, key: l.rows!.key, columns: l.rows!.columns, rows: await this.#deps.store.listRows.countListRows(l.id),
    })));
  }

  /** Checks (`dryRun`) or loads an uploaded CSV file into a list of a program the caller administers. */
  async load(caller: Caller, programRef: string, listRef: string, file: { fileName: string; bytes: Uint8Array }, dryRun: boolean): Promise<ListLoadReport> {
    const program = await this.#deps.administeredProgram(caller, programRef);
    await findLoadableList(this.#deps.store, { programRef: program.id, listRef });
    if (file.bytes.length > MAX_LIST_FILE_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `A list's CSV file may be at most ${MAX_LIST_FILE_BYTES / 1024 / 1024} MB.`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
    } catch {
      throw new ApiError('INVALID_REQUEST', `${file.fileName} is not a text file in UTF-8; a list's rows are a CSV file in UTF-8.`);
    }
    return loadListRows(this.#deps, { programRef: program.id, listRef }, text, { dryRun, actorId: caller.user.id });
  }
}
