import type { FieldValue, Project } from '../../model/model.ts';
import type { Caller } from '../caller.ts';
import type { ProgramContext } from './project-context.ts';

/**
 * What a lookup at save found for a written value (src/domain/connections/field-lookups.ts): verified (and the values
 * it prefills), unknown to the agency's system, or unverified because the system could not be asked. The value itself
 * is always kept.
 */
export interface FieldLookupOutcome {
  fieldId: string; state: 'verified' | 'notFound' | 'unavailable';
  /** What the person is told beside the field. */
  message: string;
  /** Verified: the values the connection's `set` gives (written only to fields of the form the request left alone). */
  prefill: FieldValue[];
}

/** Looks values up in the agency's systems before a save's change step (no lock held); the seam the connections fill in. */
export interface FieldLookups {
  lookUp(ctx: ProgramContext, caller: Caller, project: Project, written: FieldValue[]): Promise<FieldLookupOutcome[]>;
}
