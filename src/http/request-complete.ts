import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream/promises';
import { ApiError } from '../domain/api-error.ts';

/** The refusal of a request whose client went before its body was whole. */
export function bodyBrokeOff(): ApiError {
  return new ApiError('INVALID_REQUEST', 'The request body broke off before it was complete; nothing was changed.');
}

/**
 * Resolves once the request's body has arrived to its very end, reading and dropping what a parser left after the part
 * it wanted (a multipart body's closing boundary); throws INVALID_REQUEST when the client went before that. A change
 * that waits for this is made only for a request that was sent whole.
 */
export async function requestComplete(raw: IncomingMessage): Promise<void> {
  if (raw.complete === true || raw.readableEnded) return;
  raw.resume();
  try {
    // Its end, or a premature close (the client went) as the error.
    await finished(raw, { writable: false });
  } catch {
    throw bodyBrokeOff();
  }
}
