/** The bench's scenarios as data, and the headers of the demo accounts they sign in as (scenarios.ts builds the list). */
import { DEMO_CREDENTIALS } from '../src/domain/programs/demo.ts';

/** One autocannon request of a chained scenario; `path` may depend on what earlier answers held. */
export interface Step {
  method: string; path: string; body?: string; headers?: Record<string, string>;
  /** Replaces {project} in the path with the id the first answer of the chain gave. */
  usesProject?: boolean;
}

/** A benchmark scenario: one request repeated, or a chain of steps (the applicant cycle). */
export interface Scenario { name: string; method: string; url: string; headers: Record<string, string>; body?: string; steps?: Step[] }

/** Basic + X-ApiKey headers of a demo account. */
export function demoHeaders(role: 'admin' | 'applicant' | 'reviewer'): Record<string, string> {
  const c = DEMO_CREDENTIALS.find((d) => d.role === role)!;
  return { authorization: `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`, 'x-apikey': c.apiKey };
}

