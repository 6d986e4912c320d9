import { isoTimestamp } from '../model/clock.ts';
import type { ProgramView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetPrograms answer: `<ProgramsResponse RequestTimestamp><Program ProgramId ProgramName/>…`. */
export function encodeProgramsResponse(programs: readonly ProgramView[], requestTimestamp: number, ns: string): string {
  const w = new XmlWriter(ns).start('ProgramsResponse', { RequestTimestamp: isoTimestamp(requestTimestamp) });
  for (const p of programs) w.empty('Program', { ProgramId: p.programId, ProgramName: p.programName });
  return w.end().finish();
}
