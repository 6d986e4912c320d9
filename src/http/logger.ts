import pino from 'pino';
import { boundText } from '../domain/bounded-text.ts';
import { redactUrl } from '../domain/redact-secrets.ts';

/** The most characters a client-supplied text (a URL, a host, an error message) takes up in one log line. */
export const MAX_LOGGED_CHARS = 400;
// A stack is the service's own text, but begins with the message, which may quote a request.
const MAX_LOGGED_STACK_CHARS = 4000;

const REDACT = ['req.headers.authorization', 'req.headers["x-apikey"]', 'req.headers["x-mfa-totp"]', 'req.headers["x-mfa-session-token"]'];

interface RequestLike { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }

// Fastify's request serializer, with the texts a client chooses cut to size and the secrets in the URL redacted.
function request(req: RequestLike) {
  return {
    method: req.method, url: boundText(redactUrl(String(req.url ?? '')), MAX_LOGGED_CHARS), host: boundText(String(req.host ?? ''), MAX_LOGGED_CHARS),
    remoteAddress: req.ip, remotePort: req.socket?.remotePort,
  };
}

// pino's error serializer, with every text field cut to size (drivers put queries and values into their errors).
function error(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(pino.stdSerializers.err(err))) {
    out[key] = typeof value === 'string' ? boundText(value, key === 'stack' ? MAX_LOGGED_STACK_CHARS : MAX_LOGGED_CHARS) : value;
  }
  return out;
}

/** The service's logger: credentials redacted, and what clients sent bounded, so one request cannot write megabytes. */
export function createLogger(level: string, destination?: pino.DestinationStream): pino.Logger {
  const options = { level, redact: REDACT, serializers: { req: request, err: error } };
  return destination ? pino(options, destination) : pino(options);
}
