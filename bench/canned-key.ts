/**
 * How the baseline and floor servers find a canned answer: by method, URL and the body's hash, since reads that
 * differ only in their body (GetProjectsByNumber with 1, 100 or 1,000 numbers) share a method and URL.
 */
import { createHash } from 'node:crypto';

/** The key of a request with this method, URL and body (none for a GET). */
export function cannedKey(method: string, url: string, body: string | Buffer | undefined): string {
  return `${method} ${url} ${createHash('sha1').update(body ?? '').digest('hex')}`;
}
