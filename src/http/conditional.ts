import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import type { VersionCondition } from '../domain/caller.ts';
import type { ProjectVersion } from '../domain/views.ts';
import type { DocumentValue, WireDocument } from '../wire/wire-type.ts';
import { type AnswerFormat, answerFormat, varyAccept } from './answer-format.ts';
import type { ApiCodec } from './api-codec.ts';

/** One entity tag of an If-Match or If-None-Match list: its opaque part (quotes included) and whether it is weak. */
export interface EntityTag { weak: boolean; opaque: string }

/** A parsed If-Match or If-None-Match field: `*`, or a list of entity tags (RFC 9110 §13.1.1, §13.1.2). */
export type EntityTagList = { any: true } | { any: false; tags: EntityTag[] };

/**
 * The ETag of an answer about one project: `"<project id>.<version>"` for XML, `"<project id>.<version>.json"` for
 * JSON, strong tags that change with every change of the project. The two representations of one version differ in
 * their bytes, so they must not share one strong tag (RFC 9110 §8.8.1). Clients treat it as opaque; only this module
 * reads it back.
 */
export function projectEtag(v: ProjectVersion, format: AnswerFormat = 'xml'): string {
  return `"${v.projectId}.${v.version}${format === 'json' ? JSON_SUFFIX : ''}"`;
}

const JSON_SUFFIX = '.json';

/** The project version an opaque tag of projectEtag names (either representation), or null for a tag this service did not make. */
function projectVersionOf(opaque: string): ProjectVersion | null {
  const m = /^"(.+?)\.(0|[1-9]\d{0,14})(?:\.json)?"$/.exec(opaque);
  return m ? { projectId: m[1]!, version: Number(m[2]) } : null;
}

/** The raw value of a conditional header, several fields of one name joined as one list (RFC 9110 §5.3). */
function fieldValue(request: FastifyRequest, name: 'if-match' | 'if-none-match'): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function malformed(name: string, why: string): ApiError {
  return new ApiError('INVALID_REQUEST',
    `The ${name} header is not valid: ${why}. Send "*" or a comma-separated list of entity tags as ETag gives them, such as "R3XE87VP6NB6.4".`);
}

/**
 * Parses an If-Match or If-None-Match value: `*`, or `1#entity-tag` where entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE
 * and etagc is any visible character but DQUOTE (or obs-text). Empty list elements are allowed, as RFC 9110 §5.6.1
 * asks; anything else that does not fit is a 400, never a silent mismatch.
 */
export function parseEntityTags(value: string, name: string): EntityTagList {
  if (value.trim() === '*') return { any: true };
  const tags: EntityTag[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    const c = value[i]!;
    if (c === ' ' || c === '\t' || c === ',') {
      i++;
      continue;
    }
    const weak = value.startsWith('W/', i);
    const start = weak ? i + 2 : i;
    if (value[start] !== '"') {
      throw malformed(name, c === '*' ? '"*" must stand alone' : 'an entity tag must be in double quotes');
    }
    let end = start + 1;
    while (end < n && value[end] !== '"') {
      const code = value.charCodeAt(end);
      if (code < 0x21 || code === 0x7f) throw malformed(name, 'an entity tag holds a space or control character');
      end++;
    }
    if (end >= n) throw malformed(name, 'an entity tag is not closed');
    tags.push({ weak, opaque: value.slice(start, end + 1) });
    i = end + 1;
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
    if (i < n && value[i] !== ',') throw malformed(name, 'entity tags must be separated by commas');
  }
  if (tags.length === 0) throw malformed(name, 'it is empty');
  return { any: false, tags };
}

/**
 * The request's If-Match as the change step checks it, or undefined when it sent none. If-Match compares strongly
 * (RFC 9110 §13.1.1): a weak tag, or a tag this service did not make, matches no version, so the change is refused.
 * The tag of either representation names its version: a JSON client may send the tag of a JSON answer, an XML client
 * that of an XML answer, and both mean the same state of the project.
 */
export function ifMatchCondition(request: FastifyRequest): VersionCondition | undefined {
  const value = fieldValue(request, 'if-match');
  if (value === undefined) return undefined;
  const list = parseEntityTags(value, 'If-Match');
  if (list.any) return { any: true };
  const versions = list.tags.flatMap((t) => (t.weak ? [] : [projectVersionOf(t.opaque)].filter((v) => v !== null)));
  return { any: false, versions };
}

/**
 * True when a GET's If-None-Match names the answer's ETag (weak comparison, RFC 9110 §13.1.2) or is `*` (the
 * project exists, or the answer would not have been built). Only the tag of the representation being answered
 * matches: a client holding the XML answer that now asks for JSON gets the JSON answer, not a 304.
 */
function notModified(request: FastifyRequest, etag: string): boolean {
  const value = fieldValue(request, 'if-none-match');
  if (value === undefined) return false;
  const list = parseEntityTags(value, 'If-None-Match');
  return list.any || list.tags.some((t) => t.opaque === etag);
}

/**
 * Refuses a read whose If-Match no longer names the project's version with 412 (RFC 9110 §13.1.1: the condition is
 * evaluated before the method, reads included). Writes are checked by the change step on the locked project instead.
 */
function checkReadIfMatch(request: FastifyRequest, version: ProjectVersion): void {
  const condition = ifMatchCondition(request);
  if (condition === undefined || condition.any) return;
  if (condition.versions.some((v) => v.projectId === version.projectId && v.version === version.version)) return;
  throw new ApiError('PRECONDITION_FAILED',
    `Project ${version.projectId} has changed since the version your If-Match names. Read it again without If-Match, or with its current ETag.`);
}

/**
 * The conditions of a download whose ETag is `etag` (a file's own strong tag): 412 when If-Match names another file
 * (strong comparison, RFC 9110 §13.1.1), true when If-None-Match names this one (weak comparison), so a 304 is due.
 */
export function fileNotModified(request: FastifyRequest, etag: string): boolean {
  const ifMatch = fieldValue(request, 'if-match');
  if (ifMatch !== undefined) {
    const list = parseEntityTags(ifMatch, 'If-Match');
    if (!list.any && !list.tags.some((t) => !t.weak && t.opaque === etag)) {
      throw new ApiError('PRECONDITION_FAILED', 'The file is no longer the one your If-Match names. Download it again without If-Match, or with its current ETag.');
    }
  }
  return notModified(request, etag);
}

/**
 * Sets the ETag of an answer about one project (the tag of the representation Accept chose) and tells whether a GET
 * (or HEAD) may be answered 304: its If-None-Match names the ETag. A read's If-Match is evaluated first (412 when it
 * names another version). The service has already decided access, so neither tells a caller more than the 200 would.
 * Writes ignore If-None-Match: their precondition is If-Match, which the change step checks.
 */
function tagProjectAnswer(request: FastifyRequest, reply: FastifyReply, version: ProjectVersion): boolean {
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (read) checkReadIfMatch(request, version);
  const etag = projectEtag(version, answerFormat(request));
  // Parsed before the ETag is set, so that a malformed If-None-Match is answered 400 without it.
  const unchanged = read && notModified(request, etag);
  reply.header('ETag', etag);
  return unchanged;
}

/**
 * Sends an answer about one project as document type `doc` (XML or JSON by Accept) with its ETag, or 304 with no
 * body when the client's copy is current. Either way the answer varies by Accept.
 */
export function sendProjectAnswer<V extends { projectVersion: ProjectVersion }, D extends WireDocument>(
  codec: ApiCodec, request: FastifyRequest, reply: FastifyReply, view: V, doc: D, toValue: (view: V) => DocumentValue<D>,
): FastifyReply {
  if (tagProjectAnswer(request, reply, view.projectVersion)) {
    varyAccept(reply);
    return reply.code(304).send();
  }
  return codec.send(request, reply, doc, toValue(view));
}
