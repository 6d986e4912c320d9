/** A seed from the environment variable `name` (a whole number), else a fresh one. */
export function seedFrom(name: string): number {
  const raw = process.env[name];
  if (raw !== undefined && /^\d+$/.test(raw.trim())) return Number(raw.trim()) >>> 0;
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

/** Random numbers in [0, 1) from a 32-bit seed (mulberry32), so a run can be repeated exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
