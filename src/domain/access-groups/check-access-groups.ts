import type { ChangeReaction } from '../projects/change-reaction.ts';
import type { PartResolvers, ProgramChecker, ResolvedProgram } from '../programs/program-parts.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import { atLine } from '../programs/program-lines.ts';
import { located } from '../rules/rule-problems.ts';
import { compileGroupCondition } from './access-group-rules.ts';
import { groupsChanged, regroupProgram } from './keep-access-groups.ts';
import { regroupTooLong } from './regroup-too-long.ts';

/**
 * The access groups' part of a program import: unique customIds and names, every condition compiled as a bool over
 * the fields and `project` (not `role`, not the project's age) within the rules' cost limit, and, once the definition
 * is saved, the recount of every project's membership when a condition changed, which unassigns the projects it moves
 * out of their assignee's reach with the change step's `reactions` (composed in src/domain/wiring/program-checkers.ts).
 */
export function accessGroupsChecker(reactions: readonly ChangeReaction[]): ProgramChecker {
  return {
    part: 'accessGroups',
    check: checkAccessGroups,
    checkResolved: (resolved: ResolvedProgram) => conditionProblems(resolved.file),
    saved: async (tx, s) => {
      if (groupsChanged(s.before, s.after)) await regroupProgram(tx, s.after.id, s.now, { ids: s.ids, reactions, actorId: s.actorId, requestId: s.requestId });
    },
    // A recount of an existing program's projects that did not fit in the transaction's time says why and what to do.
    rolledBack: async (reader, error, s, maxMs) => (s.before !== null && groupsChanged(s.before, s.after) ? regroupTooLong(reader, error, s.after, maxMs) : error),
  };
}

function checkAccessGroups(file: ProgramFile, _resolve: PartResolvers, problems: string[]): null {
  const groups = file.accessGroups ?? [];
  groups.forEach((g, i) => {
    for (const key of ['customId', 'name'] as const) {
      if (groups.slice(0, i).some((h) => h[key] === g[key])) problems.push(`access group "${g.customId}"${atLine(file, ['accessGroups', i, key])}: another access group has the ${key} "${g[key]}"`);
    }
  });
  return null;
}

function conditionProblems(file: ProgramFile): string[] {
  const problems: string[] = [];
  (file.accessGroups ?? []).forEach((g, i) => {
    const result = compileGroupCondition(g.if, file.fields);
    if ('problems' in result) {
      for (const p of result.problems) problems.push(`access group "${g.customId}": if ${located(file.locate?.(['accessGroups', i, 'if']) ?? null, p)}: ${p.message}`);
    }
  });
  return problems;
}
