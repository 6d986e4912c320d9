import type { ConnectionAuth } from '../../model/connection.ts';
import type { Program } from '../../model/model.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { ConnectionSettingsService, ConnectionSettingsView } from '../connections/connection-settings-service.ts';
import { requireAdministeredProgram } from './console-scope.ts';
import type { ConsoleService } from './console-service.ts';

/** One program of the Connections page: its declared connections with their settings (never a secret). */
export interface ProgramConnections { program: Program; connections: ConnectionSettingsView[] }

/** The console's Connections page: the programs, the agency's allowlist of hosts (read only here). */
export interface ConnectionsOverview { programs: ProgramConnections[]; hosts: string[] }

/** What the console's Connections area needs: the console's scope and the settings service the CLI uses too. */
export interface ConnectionConsoleDeps { console: Pick<ConsoleService, 'scope'>; settings: ConnectionSettingsService }

/**
 * The console's Connections area (`apas connection set|list|remove` on a page): where each program's connections go and
 * how they sign in, for the programs the caller administers (an agency admin: all of the agency's, test copies
 * included). Every change is ConnectionSettingsService's, so the address rules and the audit rows are the CLI's, with
 * the caller as the actor.
 */
export class ConnectionConsoleService {
  readonly #deps: ConnectionConsoleDeps;

  constructor(deps: ConnectionConsoleDeps) {
    this.#deps = deps;
  }

  /** The administered programs that declare connections (each test copy after its live program), and the allowlist. */
  async overview(caller: Caller): Promise<ConnectionsOverview> {
    const scope = await this.#deps.console.scope(caller);
    const declaring = scope.programs.filter((p) => (p.connections ?? []).length > 0);
    const ordered = declaring.filter((p) => p.testOf === undefined).flatMap((live) => [live, ...declaring.filter((p) => p.testOf === live.id)]);
    const programs = [...ordered, ...declaring.filter((p) => !ordered.includes(p))];
    const views = await this.#deps.settings.list(programs);
    return {
      programs: programs.map((program) => ({ program, connections: views.filter((v) => v.programId === program.id) })),
      hosts: await this.#deps.settings.hosts(scope.agencyId),
    };
  }

  /** One connection of an administered program with its settings; NOT_FOUND when the program declares no such connection. */
  async connection(caller: Caller, programRef: string, connectionId: string): Promise<{ program: Program; view: ConnectionSettingsView; hosts: string[] }> {
    const program = await this.#program(caller, programRef);
    const view = (await this.#deps.settings.list([program])).find((v) => v.connectionId === connectionId);
    if (!view) throw new ApiError('NOT_FOUND', `program ${program.customId} has no connection "${connectionId}"`);
    return { program, view, hosts: await this.#deps.settings.hosts(program.agencyId) };
  }

  /** Sets where the connection goes and how it signs in (replacing what was set), as `apas connection set`. */
  async set(caller: Caller, programRef: string, connectionId: string, url: string, auth: ConnectionAuth): Promise<ConnectionSettingsView> {
    return this.#deps.settings.set(await this.#program(caller, programRef), connectionId, url, auth, caller.user.id);
  }

  /** Clears the connection's settings, as `apas connection remove`: its calls wait, its lookups say it is not set. */
  async clear(caller: Caller, programRef: string, connectionId: string): Promise<void> {
    await this.#deps.settings.remove(await this.#program(caller, programRef), connectionId, caller.user.id);
  }

  async #program(caller: Caller, programRef: string): Promise<Program> {
    return requireAdministeredProgram(await this.#deps.console.scope(caller), programRef);
  }
}
