import type { FastifyInstance } from 'fastify';
import type { Services } from './services.ts';
import './fastify-types.ts';

/** The header that marks every answer about a test copy of a program (docs/interface.md, "Test programs"). */
export const TEST_PROGRAM_HEADER = 'Apas-Test-Program';

/**
 * Marks the successful answers of the operations under /Programs/{ProgramId} whose program is a test copy with
 * `Apas-Test-Program: true`, so that an integrator's client can tell test answers from live ones whatever the body.
 * Refused requests are not marked: they say nothing about a program the caller may not read.
 */
export function markTestProgramAnswers(api: FastifyInstance, services: Pick<Services, 'testPrograms'>): void {
  api.addHook('onSend', async (request, reply, payload) => {
    const programRef = (request.params as Record<string, unknown> | undefined)?.ProgramId;
    if (typeof programRef !== 'string' || !request.caller || reply.statusCode >= 400) return payload;
    if (await services.testPrograms.isTest(request.caller, programRef)) reply.header(TEST_PROGRAM_HEADER, 'true');
    return payload;
  });
}
