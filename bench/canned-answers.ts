/**
 * apas's answers as the bench captured them, for the baseline and floor servers to repeat: found by method, URL and
 * the body's hash, since reads that differ only in their body (GetProjectsByNumber with 1, 100 or 1,000 numbers)
 * share a method and URL.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** One captured answer and the request it answered. */
export interface Canned { method: string; url: string; requestBody?: string; status: number; contentType: string; body: string }

/** The key of a request with this method, URL and body (none for a GET). */
export function cannedKey(method: string, url: string, body: string | Buffer | undefined): string {
  return `${method} ${url} ${createHash('sha1').update(body ?? '').digest('hex')}`;
}

/** The answers of a canned file, by their request's key. */
export function readCanned(file: string): Map<string, Canned> {
  const canned = JSON.parse(fs.readFileSync(file, 'utf8')) as Canned[];
  return new Map(canned.map((c) => [cannedKey(c.method, c.url, c.requestBody), c]));
}
