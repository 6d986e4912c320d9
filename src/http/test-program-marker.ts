import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Program } from '../model/model.ts';
import { isTestProgram } from '../domain/test-program.ts';

/** The header that marks every answer about a test copy of a program (docs/interface.md, "Test programs"). */
export const TEST_PROGRAM_HEADER = 'Apas-Test-Program';

/**
 * What an operation under /Programs/{ProgramId} is told of the program its service loaded (Caller.onProgram): a test
 * copy's answers get `Apas-Test-Program: true`, so that an integrator's client can tell test answers from live ones
 * whatever the body. Undefined for the other operations. Set when the program is loaded rather than in a hook after
 * the answer, which every API request would run (docs/performance.md); sendError takes the header off a refusal,
 * which says nothing about a program the caller may not read.
 */
export function testProgramMarker(request: FastifyRequest, reply: FastifyReply): ((program: Program) => void) | undefined {
  if (typeof (request.params as Record<string, unknown> | undefined)?.ProgramId !== 'string') return undefined;
  return (program) => {
    if (isTestProgram(program)) reply.header(TEST_PROGRAM_HEADER, 'true');
  };
}
