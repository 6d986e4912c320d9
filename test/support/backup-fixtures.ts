import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type ApiClient, ConnectionLost } from '../../scripts/faults/api-client.ts';
import { AttachmentNeeds, createProject, PROGRAM_PATH } from '../../scripts/faults/demo-steps.ts';
import { seededRandom } from '../../scripts/faults/seeded-random.ts';
import { openSqlReader, type SqlReader } from '../../scripts/faults/sql-reader.ts';
import { WriteJournal } from '../../scripts/faults/write-journal.ts';
import { runWriteLoad, type WriteLoadResult } from '../../scripts/faults/write-load.ts';
import type { DatabaseConfig } from '../../src/config.ts';
import { USAGE_MARK_COLUMNS } from '../../src/store/change-signal.ts';

/** A write load that runs until `stop()`: projects created, drafted and submitted, plus uploads of files of many sizes. */
export interface BackgroundLoad {
  /** Acknowledged writes so far. */
  acked(): number;
  /** Ends the load (started projects are finished) and resolves with what it did. */
  stop(): Promise<{ load: WriteLoadResult; uploads: number; unexpected: string[] }>;
}

/** Starts `workers` write-load clients and one uploader that gives its own projects 1–3 versions of a 1 B–384 KiB file. */
export function startBackgroundLoad(client: ApiClient, workers: number, seed: number): BackgroundLoad {
  const journal = new WriteJournal();
  const random = seededRandom(seed);
  const options = { clients: [client], workers, journal, needs: new AttachmentNeeds(), until: Number.MAX_SAFE_INTEGER, random, tokenPrefix: 'B' };
  const loading = runWriteLoad(options);
  let uploads = 0;
  const unexpected: string[] = [];
  const uploading = (async () => {
    while (Date.now() < options.until) {
      try {
        const { projectId } = await createProject(client, journal);
        if (!projectId) continue;
        for (let v = 0, n = 1 + Math.floor(random() * 3); v < n; v++) {
          const body = randomBytes(1 + Math.floor(random() * 384 * 1024));
          const answer = await client.send('POST', `${PROGRAM_PATH}/Projects/${projectId}/Forms/Application/Attachments/SingleLineDiagram`, {
            body, contentType: 'application/pdf', headers: { 'content-disposition': `attachment; filename="sld-${v}.pdf"` },
          });
          if (answer.status === 200) uploads++;
          else unexpected.push(`upload ${projectId}: ${answer.status} ${answer.body.slice(0, 200)}`);
        }
      } catch (error) {
        if (!(error instanceof ConnectionLost)) throw error;
        unexpected.push(String(error));
        return;
      }
    }
  })();
  return {
    acked: () => journal.all().filter((r) => r.outcome === 'acked').length + uploads,
    stop: async () => {
      options.until = 0;
      const [load] = await Promise.all([loading, uploading]);
      return { load, uploads, unexpected: [...load.unexpected, ...unexpected] };
    },
  };
}

/**
 * One installation to compare: its database and, for the local blob store, its blob directory; `readBlob` reads a
 * blob of any other store (an S3 bucket), null when it is missing.
 */
export interface Installation { database: DatabaseConfig; blobDir: string | null; readBlob?: (key: string) => Promise<Buffer | null> }

/** How a restored copy compares with its source. */
export interface Comparison {
  /** Projects of the copy identical, row for row and file for file, to the source. */
  identical: number;
  /** Projects the source changed after the snapshot: the copy holds a consistent earlier state of them. */
  changedLater: number;
  attachments: number;
  problems: string[];
}

// Every table with a project's state, and the ones a project write only ever appends to.
const PROJECT_TABLES = ['project_drafts', 'project_values', 'project_value_items', 'form_submissions', 'status_history', 'attachments', 'inquiry_threads', 'audit_log'];
const APPEND_ONLY = ['form_submissions', 'status_history', 'attachments', 'audit_log'];
// Tables the load never writes: they must be equal whole.
const STATIC_TABLES = ['agencies', 'users', 'api_keys', 'custom_lists', 'custom_list_choices', 'statuses', 'status_transitions', 'data_fields', 'forms', 'form_statuses', 'form_fields', 'attachment_definitions', 'program_grants'];

function canonical(row: Record<string, unknown>): string {
  // Usage marks (an API key's last use, at most once a minute) record the load's requests, which go on after a
  // snapshot: a key the load used a minute later differs from its copy there, though nothing was lost.
  return JSON.stringify(Object.keys(row).filter((k) => !USAGE_MARK_COLUMNS.has(k)).sort().map((k) => [k, Buffer.isBuffer(row[k]) ? (row[k] as Buffer).toString('base64') : String(row[k])]));
}

async function rowsOf(sql: SqlReader, table: string, projectId?: string): Promise<string[]> {
  const where = projectId === undefined ? '' : ` where ${table === 'projects' ? 'id' : 'project_id'} = ?`;
  return (await sql.all(`select * from ${table}${where}`, projectId === undefined ? [] : [projectId])).map(canonical).sort();
}

/** The bytes of one blob: a file of the local store, or the chunks of the database store. */
async function blobBytes(where: Installation, sql: SqlReader, key: string): Promise<Buffer | null> {
  if (where.readBlob) return where.readBlob(key);
  if (where.blobDir) {
    try {
      return fs.readFileSync(path.join(where.blobDir, key.slice(0, 2), key.slice(2, 4), key));
    } catch {
      return null;
    }
  }
  const chunks = await sql.all<{ data: Buffer }>('select data from blob_chunks where blob_key = ? order by seq', [key]);
  return chunks.length === 0 ? null : Buffer.concat(chunks.map((c) => c.data));
}

/**
 * Compares a restored copy with the source it was backed up from, after the load has stopped. A project whose
 * version is the same on both must be identical in every table and file; one the source changed after the snapshot
 * must be an earlier state (its appended rows a subset of the source's). Every attachment of the copy must have its
 * file with the right size and SHA-256, every numbered project a number below the program's next one, and the
 * tables the load never writes must be equal (but for their usage marks).
 */
export async function compareInstallations(source: Installation, copy: Installation): Promise<Comparison> {
  const out: Comparison = { identical: 0, changedLater: 0, attachments: 0, problems: [] };
  const src = await openSqlReader(source.database);
  const cpy = await openSqlReader(copy.database);
  try {
    for (const table of STATIC_TABLES) {
      if ((await rowsOf(src, table)).join('\n') !== (await rowsOf(cpy, table)).join('\n')) out.problems.push(`table ${table} differs`);
    }
    const srcVersions = new Map((await src.all<{ id: string; version: number | string }>('select id, version from projects')).map((p) => [p.id, Number(p.version)]));
    for (const p of await cpy.all<{ id: string; version: number | string }>('select id, version from projects')) {
      const srcVersion = srcVersions.get(p.id);
      const version = Number(p.version);
      if (srcVersion === undefined) out.problems.push(`project ${p.id} is not in the source`);
      else if (srcVersion === version) {
        const differs = [];
        for (const table of ['projects', ...PROJECT_TABLES]) if ((await rowsOf(src, table, p.id)).join('\n') !== (await rowsOf(cpy, table, p.id)).join('\n')) differs.push(table);
        if (differs.length > 0) out.problems.push(`project ${p.id} (version ${version}) differs in ${differs.join(', ')}`);
        else out.identical++;
      } else if (srcVersion > version) {
        for (const table of APPEND_ONLY) {
          const later = new Set(await rowsOf(src, table, p.id));
          if ((await rowsOf(cpy, table, p.id)).some((r) => !later.has(r))) out.problems.push(`project ${p.id}: a ${table} row of the copy is not in the source`);
        }
        out.changedLater++;
      } else out.problems.push(`project ${p.id} is at version ${version} in the copy but ${srcVersion} in the source`);
    }
    const attachments = await cpy.all<{ blob_key: string; size_bytes: number | string; sha256: string; project_id: string }>('select blob_key, size_bytes, sha256, project_id from attachments');
    for (const a of attachments) {
      const bytes = await blobBytes(copy, cpy, a.blob_key);
      const sha256 = bytes ? createHash('sha256').update(bytes).digest('hex') : null;
      if (!bytes || bytes.length !== Number(a.size_bytes) || sha256 !== a.sha256) out.problems.push(`attachment file ${a.blob_key} of project ${a.project_id} is ${bytes ? 'damaged' : 'missing'} in the copy`);
      else if (!(await blobBytes(source, src, a.blob_key))?.equals(bytes)) out.problems.push(`attachment file ${a.blob_key} differs from the source's`);
    }
    out.attachments = attachments.length;
    for (const program of await cpy.all<{ id: string; next_number: number | string }>('select id, next_number from programs')) {
      const numbered = await cpy.all<{ number: string }>('select number from projects where program_id = ? and number is not null', [program.id]);
      if (numbered.length !== Number(program.next_number) - 1 || new Set(numbered.map((n) => n.number)).size !== numbered.length) {
        out.problems.push(`program ${program.id}: ${numbered.length} numbered projects, but next_number ${program.next_number}`);
      }
    }
  } finally {
    await src.close();
    await cpy.close();
  }
  return out;
}

/** The files under a directory (recursively), relative to it. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}
