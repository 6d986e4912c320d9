import type { FastifyInstance } from 'fastify';
import type { Services } from './services.ts';
import { isTestProgram } from '../domain/test-program.ts';
import './fastify-types.ts';

/** The header that marks every answer about a test copy of a program (docs/interface.md, "Test programs"). */
export const TEST_PROGRAM_HEADER = 'Apas-Test-Program';

/**
 * Marks the successful answers of the operations under /Programs/{ProgramId} whose program is a test copy with
 * `Apas-Test-Program: true`, so that an integrator's client can tell test answers from live ones whatever the body.
 * Refused requests are not marked: they say nothing about a program the caller may not read.
 */
export function markTestProgramAnswers(api: FastifyInstance, services: Pick<Services, 'testPrograms'>): void {
  // Synchronous: every API request runs it. Most operations loaded their program through loadProgram, which told the
  // request (Caller.onProgram); only the others (webhooks, envelopes) look it up here.
  api.addHook('onSend', (request, reply, payload, done) => {
    const programRef = (request.params as Record<string, unknown> | undefined)?.ProgramId;
    if (typeof programRef !== 'string' || !request.caller || reply.statusCode >= 400) return done(null, payload);
    if (request.program) {
      if (isTestProgram(request.program)) reply.header(TEST_PROGRAM_HEADER, 'true');
      return done(null, payload);
    }
    services.testPrograms.isTest(request.caller, programRef).then((test) => {
      if (test) reply.header(TEST_PROGRAM_HEADER, 'true');
      done(null, payload);
    }, (error: Error) => done(error));
  });
}
