import { randomFillSync } from 'node:crypto';

/** Makes new opaque identifiers; an interface so tests can make them predictable. */
export interface IdGenerator {
  /** A new identifier: 12 characters of the Crockford base-32 alphabet (60 random bits). */
  next(): string;
}

// Crockford's alphabet leaves out I, L, O and U so ids survive being read aloud or retyped.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random ids from the operating system's CSPRNG, so they cannot be guessed from one another. */
export class RandomIdGenerator implements IdGenerator {
  next(): string {
    return randomToken(12);
  }
}

// CSPRNG bytes are taken from the operating system 4 KiB at a time and each byte is used once: a call per id was
// 4 % of a cached read's CPU (every request gets an id), as Node does for randomUUID.
const pool = Buffer.alloc(4096);
let used = pool.length;

/** A string of `length` random characters from the id alphabet. */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    out += ALPHABET[(pool[used++] as number) & 31];
  }
  return out;
}

/** True for a string that can be an identifier in a path: URL-safe, bounded length. */
export function isIdLike(value: string): boolean {
  return /^[A-Za-z0-9_.~-]{1,64}$/.test(value);
}
