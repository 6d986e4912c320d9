import { accessGroupsChecker } from '../access-groups/check-access-groups.ts';
import { automationsChecker } from '../automations/check-automations.ts';
import { documentsChecker } from '../documents/document-check.ts';
import { connectionsChecker } from '../connections/connection-check.ts';
import type { ProgramChecker } from '../programs/program-parts.ts';
import { changeReactions } from './change-reactions.ts';
import { relationsChecker } from '../relations/relation-check.ts';
import { rulesChecker } from '../rules/rule-problems.ts';
import { statusMessagesChecker } from '../workflow/status-reasons.ts';

/**
 * The checks each capability adds to a program file's at import, in the order they run (and report): the
 * automations, the statuses' reasons and mail, the documents, the connections, then, once every reference resolved, the rules and formulas. Composed
 * once where the services are wired; the access groups' recount records its unassignments with the change step's reactions.
 */
export function programCheckers(): readonly ProgramChecker[] {
  return [automationsChecker, statusMessagesChecker, documentsChecker, relationsChecker, connectionsChecker, rulesChecker, accessGroupsChecker(changeReactions())];
}
