import { Readable } from 'node:stream';
import { isoTimestamp } from '../model/clock.ts';
import type { ProjectsView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Characters gathered before a chunk is handed out: large enough to keep writes few, small enough to stream. */
const CHUNK_SIZE = 16 * 1024;

/** Writes SchemaVersion as `1.0`, `2.0`, `2.5` (an xs:float that keeps one decimal for whole versions). */
export function formatSchemaVersion(version: number): string {
  return Number.isInteger(version) ? version.toFixed(1) : String(version);
}

/**
 * Yields the ProjectsResponse document (GetProjects, GetProjectsByNumber) in chunks of about 16 KiB,
 * so a thousand projects never sit in one string. `view.extended` adds StatusCustomId and StatusPublicId.
 */
export function* projectsResponseChunks(view: ProjectsView, ns: string): Generator<string, void, undefined> {
  const w = new XmlWriter(ns);
  w.start('ProjectsResponse', {
    SchemaVersion: formatSchemaVersion(view.schemaVersion),
    RequestTimestamp: isoTimestamp(view.requestTimestamp),
  }).start('Projects');
  for (const p of view.projects) {
    w.empty('Project', {
      ProjectId: p.projectId,
      ProgramId: p.programId,
      ProjectNumber: p.projectNumber,
      Status: p.status,
      StatusTimestamp: isoTimestamp(p.statusTimestamp),
      LastChangeTimestamp: isoTimestamp(p.lastChangeTimestamp),
      ...(view.extended ? { StatusCustomId: p.statusCustomId, StatusPublicId: p.statusPublicId } : {}),
    });
    if (w.pending >= CHUNK_SIZE) yield w.take();
  }
  yield w.end().end().finish();
}

/** The whole ProjectsResponse document as one string (same text as the chunks joined). */
export function encodeProjectsResponse(view: ProjectsView, ns: string): string {
  return [...projectsResponseChunks(view, ns)].join('');
}

/** The ProjectsResponse document as a byte stream, for sending a large answer without buffering it. */
export function projectsResponseStream(view: ProjectsView, ns: string): Readable {
  return Readable.from(projectsResponseChunks(view, ns), { objectMode: false });
}
