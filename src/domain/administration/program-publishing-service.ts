import path from 'node:path';
import type { Program } from '../../model/model.ts';
import type { ProgramUpload, ProgramVersion } from '../../model/program-version.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { exportProgram, formatProgramFile } from '../programs/program-export.ts';
import { formatOfPath, parseProgramFile, type ProgramFile } from '../programs/program-file.ts';
import { formatImportReport, type ImportReport, importProgram, sha256Of } from '../programs/program-import.ts';
import type { ProgramChecker } from '../programs/program-parts.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import { type ConsoleScope, requireAdministeredProgram, requireAgencyAdmin } from './console-scope.ts';

/** The largest program file the console takes (the demo program is about 30 KB). */
export const MAX_PROGRAM_FILE_BYTES = 2 * 1024 * 1024;

/** How long an uploaded file waits for its publication; older ones are dropped with the next upload. */
export const UPLOAD_LIFETIME_MS = 24 * 3_600_000;

/** A program file as the console received it. */
export interface UploadedProgramFile { fileName: string; bytes: Uint8Array }

/** A program of the console's list: the program and its newest recorded version (null before the first). */
export interface ProgramSummary { program: Program; live: ProgramVersion | null }

/** An upload under review: the file, what publishing it would change (as `program import --dry-run` prints it). */
export interface UploadReview {
  upload: Omit<ProgramUpload, 'content'>;
  customId: string;
  /** The program the file updates; null when it would create a new one. */
  program: Program | null;
  report: ImportReport;
  /** The report as `program import --dry-run` prints it, line by line. */
  lines: string[];
}

/** What a publication sends back: the reviewed upload, its file's SHA-256, and the live version it was reviewed against. */
export interface PublishRequest { uploadId: string; sha256: string; expectedVersion: number }

/** A program file to download: its name and text. */
export interface ProgramFileDownload { fileName: string; text: string }

/** What the service needs: the store (importProgram takes it whole), the time, ids, the import's checkers and the caller's scope. */
export interface ProgramConsoleDeps {
  store: Store; clock: Clock; ids: IdGenerator;
  checkers: readonly ProgramChecker[];
  /** The caller's console scope (services.console.scope). */
  scope(caller: Caller): Promise<ConsoleScope>;
}

/**
 * The console's Programs area, for a caller: upload a program file (checked and compared with the live version as
 * `program import --dry-run` does), publish exactly that file (importProgram, with its guards, recording a version),
 * download the live file and every recorded version. An agency admin uploads any program of the agency and new
 * ones; a program admin only new versions of the programs they administer.
 */
export class ProgramPublishingService {
  readonly #deps: ProgramConsoleDeps;
  constructor(deps: ProgramConsoleDeps) {
    this.#deps = deps;
  }

  /** The programs the caller administers, each with its live version. */
  async list(caller: Caller): Promise<ProgramSummary[]> {
    const scope = await this.#deps.scope(caller);
    return Promise.all(scope.programs.map(async (program) => ({ program, live: await this.#deps.store.programs.latestProgramVersion(program.id) })));
  }

  /** One program the caller administers and its recorded versions, newest first. */
  async program(caller: Caller, programRef: string): Promise<{ program: Program; versions: ProgramVersion[] }> {
    const program = requireAdministeredProgram(await this.#deps.scope(caller), programRef);
    return { program, versions: await this.#deps.store.programs.listProgramVersions(program.id) };
  }

  /**
   * Checks an uploaded file as `program import --dry-run` would (INVALID_REQUEST naming each problem's line and
   * column) and keeps it for its review; returns the upload's id. FORBIDDEN for a file of a program the caller does
   * not administer, or of a new program when the caller is not an agency admin.
   */
  async upload(caller: Caller, file: UploadedProgramFile): Promise<string> {
    const scope = await this.#deps.scope(caller);
    if (file.bytes.length > MAX_PROGRAM_FILE_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `A program file may be at most ${MAX_PROGRAM_FILE_BYTES / 1024 / 1024} MB.`);
    const fileName = path.basename(file.fileName.replace(/\\/g, '/')).slice(0, 200) || 'program.yaml';
    const content = decodeText(file.bytes, fileName);
    const parsed = parseProgramFile(content, formatOfPath(fileName), fileName);
    await this.#target(scope, parsed);
    await importProgram(this.#importDeps(), scope.agencyId, parsed, { dryRun: true, source: fileName });
    const now = this.#deps.clock.now();
    const upload: ProgramUpload = { id: this.#deps.ids.next(), agencyId: scope.agencyId, uploadedBy: caller.user.id, uploadedAt: now, fileName, sha256: sha256Of(content), content };
    await this.#deps.store.transaction(async (tx) => {
      await tx.programs.deleteProgramUploads(null, now - UPLOAD_LIFETIME_MS);
      await tx.programs.insertProgramUpload(upload);
    });
    return upload.id;
  }

  /** The caller's upload and what publishing it would change now, against the live version. */
  async review(caller: Caller, uploadId: string): Promise<UploadReview> {
    const scope = await this.#deps.scope(caller);
    const upload = await this.#upload(caller, uploadId);
    const parsed = parseProgramFile(upload.content, formatOfPath(upload.fileName), upload.fileName);
    const program = await this.#target(scope, parsed);
    const report = await importProgram(this.#importDeps(), scope.agencyId, parsed, { dryRun: true, source: upload.fileName });
    const { content: _content, ...meta } = upload;
    return { upload: meta, customId: parsed.customId, program, report, lines: formatImportReport(report).split('\n') };
  }

  /**
   * Publishes the caller's upload: refused (CONFLICT) when its file's SHA-256 is not the one reviewed or the program's
   * live version is no longer the one it was reviewed against; the import's own guards apply unchanged.
   */
  async publish(caller: Caller, request: PublishRequest): Promise<ImportReport> {
    const scope = await this.#deps.scope(caller);
    const upload = await this.#upload(caller, request.uploadId);
    if (upload.sha256 !== request.sha256) throw new ApiError('CONFLICT', `The file ${upload.fileName} is not the one that was reviewed; upload it again and review its changes.`);
    const parsed = parseProgramFile(upload.content, formatOfPath(upload.fileName), upload.fileName);
    await this.#target(scope, parsed);
    const report = await importProgram(this.#importDeps(), scope.agencyId, parsed, {
      actorId: caller.user.id, requestId: caller.requestId ?? null, source: upload.fileName, expectedVersion: request.expectedVersion,
      publication: { text: upload.content, fileName: upload.fileName, publisher: `${caller.user.name} <${caller.user.email}>` },
    });
    await this.#deps.store.transaction((tx) => tx.programs.deleteProgramUploads(upload.id, this.#deps.clock.now() - UPLOAD_LIFETIME_MS));
    return report;
  }

  /** The live definition of a program as `program export` writes it (YAML). */
  async liveFile(caller: Caller, programRef: string): Promise<ProgramFileDownload> {
    const program = requireAdministeredProgram(await this.#deps.scope(caller), programRef);
    const file = await exportProgram(this.#deps.store, program.agencyId, program.id);
    return { fileName: `${program.customId}.yaml`, text: formatProgramFile(file, 'yaml') };
  }

  /** A recorded version with the file it was published from; NOT_FOUND for a version never recorded. */
  async version(caller: Caller, programRef: string, version: number): Promise<{ program: Program; version: ProgramVersion; file: ProgramFileDownload }> {
    const program = requireAdministeredProgram(await this.#deps.scope(caller), programRef);
    const found = Number.isSafeInteger(version) ? await this.#deps.store.programs.findProgramVersion(program.id, version) : null;
    if (!found) throw new ApiError('NOT_FOUND', `Program ${program.customId} has no version ${version}.`);
    const { content, ...meta } = found;
    const ext = path.extname(found.fileName) || '.yaml';
    return { program, version: meta, file: { fileName: `${program.customId}-v${version}${ext}`, text: content } };
  }

  /** The program a file names, when the caller may publish it: theirs to administer, or a new one for an agency admin. */
  async #target(scope: ConsoleScope, file: ProgramFile): Promise<Program | null> {
    const existing = (await this.#deps.store.programs.listPrograms(scope.agencyId)).find((p) => p.customId === file.customId) ?? null;
    if (existing) return requireAdministeredProgram(scope, existing.id);
    requireAgencyAdmin(scope, `Creating a new program (${file.customId})`);
    return null;
  }

  /** The caller's own upload, not expired; NOT_FOUND otherwise (another person's upload is not theirs to publish). */
  async #upload(caller: Caller, uploadId: string): Promise<ProgramUpload> {
    const upload = await this.#deps.store.programs.findProgramUpload(uploadId);
    const fresh = upload !== null && upload.uploadedAt > this.#deps.clock.now() - UPLOAD_LIFETIME_MS;
    if (!upload || !fresh || upload.uploadedBy !== caller.user.id || upload.agencyId !== caller.user.agencyId) {
      throw new ApiError('NOT_FOUND', 'This upload is not there any more (it was published, or is older than a day); upload the file again.');
    }
    return upload;
  }

  #importDeps() {
    const { store, clock, ids, checkers } = this.#deps;
    return { store, clock, ids, checkers };
  }
}

function decodeText(bytes: Uint8Array, fileName: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('INVALID_REQUEST', `${fileName} is not a text file in UTF-8; a program file is YAML or JSON text.`);
  }
}
