import type { IncomingMessage } from 'node:http';

/** The most bytes of an unread body discarded after an early answer, and for how long, before the connection is cut. */
export const DRAIN_LIMITS = { bytes: 16 * 1024 * 1024, ms: 10_000 } as const;

/**
 * After an answer given before the whole body arrived (refused, or too large), reads and discards the rest of it.
 * Closing at once would leave unread bytes that make the kernel reset the connection, and a reset can destroy the
 * answer before the client reads it; a client still sending gets to finish and read the answer ("lingering close").
 * Past `DRAIN_LIMITS` the connection is cut. Does nothing for a body that was read to its end.
 */
export function drainRequest(raw: IncomingMessage, limits: { bytes: number; ms: number } = DRAIN_LIMITS): void {
  if (raw.complete !== false || raw.destroyed) return;
  let drained = 0;
  const cut = () => raw.socket?.destroy();
  const timer = setTimeout(cut, limits.ms);
  timer.unref();
  const done = () => clearTimeout(timer);
  raw.once('end', done);
  raw.once('close', done);
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.bytes) cut();
  });
  raw.resume();
}
