import type { FastifyReply, FastifyRequest } from 'fastify';

/** The two representations of every API document. */
export type AnswerFormat = 'xml' | 'json';

/** The media type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

// Parsed here rather than with negotiator (used before): negotiator breaks ties by the order of the Accept field, so
// `application/json;q=0.8, application/xml;q=0.8` gave JSON, and a media range's parameters had to match the offered
// type's, so `application/json; charset=utf-8` gave XML. Two types and one rule need no more than this.

/** One media range of an Accept field: type and subtype (lower case, `*` for a wildcard) and its weight. */
interface MediaRange { type: string; subtype: string; q: number }

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const WEIGHT = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

/** Splits on `sep` outside quoted strings (parameter values may be quoted and hold commas or semicolons). */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\') {
      current += c + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/**
 * The media ranges of an Accept field (RFC 9110 §12.5.1). Types are compared case-insensitively; parameters other
 * than the weight `q` do not restrict a match (`application/json; charset=utf-8` is JSON). An element that is not a
 * media range is skipped, as a malformed `q` makes its range count with weight 1 rather than fail the request.
 */
function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(accept, ',')) {
    const [range = '', ...params] = splitOutsideQuotes(element, ';').map((p) => p.trim());
    const slash = range.indexOf('/');
    const type = range.slice(0, slash).toLowerCase();
    const subtype = range.slice(slash + 1).toLowerCase();
    if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'q') {
        const value = param.slice(eq + 1).trim();
        if (WEIGHT.test(value)) q = Number(value);
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The weight Accept gives `type/subtype`: that of the most specific range that matches it (exact, then `type/*`, then
 * `*\/*`), as RFC 9110 §12.5.1 ranks them; 0 when no range matches.
 */
function weightOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      q = r.q;
    } else if (specificity === best && specificity >= 0) q = Math.max(q, r.q);
  }
  return q;
}

/**
 * The representation the request's Accept prefers (RFC 9110 §12.5.1): JSON only when Accept gives application/json a
 * higher weight than XML (application/xml or text/xml); XML when it names neither, weighs them equally, or there is no
 * Accept at all.
 */
export function answerFormat(request: FastifyRequest): AnswerFormat {
  const field = request.headers.accept;
  if (field === undefined) return 'xml';
  const ranges = mediaRanges(Array.isArray(field) ? field.join(',') : field);
  const json = weightOf(ranges, 'application', 'json');
  const xml = Math.max(weightOf(ranges, 'application', 'xml'), weightOf(ranges, 'text', 'xml'));
  return json > xml ? 'json' : 'xml';
}

/**
 * Says that the answer depends on the request's Accept (RFC 9110 §12.5.5), so that no cache hands a JSON answer to a
 * client that asked for XML, or the other way round.
 */
export function varyAccept(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  // The usual case, without splitting anything.
  if (current === undefined) {
    reply.header('Vary', 'Accept');
    return;
  }
  const names = String(current).split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (names.some((n) => n === '*' || n.toLowerCase() === 'accept')) return;
  reply.header('Vary', [...names, 'Accept'].join(', '));
}

/** True when the request body is declared JSON (application/json or an application/…+json type). */
export function isJsonBody(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/.test(type);
}
