import type { Program } from '../model/model.ts';

// Shared by every capability that shows or sends something of a project (a file at the top of src/domain imports no
// capability), so that asking whether a program is a test copy closes no circle between projects and programs.

/**
 * True for a test copy of a program (migration 053, src/domain/administration/test-program-service.ts): its mail is
 * never sent, and its pages and answers say it is a test.
 */
export function isTestProgram(program: Pick<Program, 'testOf'>): boolean {
  return program.testOf !== undefined;
}
