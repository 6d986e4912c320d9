import { readsOnly } from '../../model/model.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import { atLine } from '../programs/program-lines.ts';
import type { PartResolvers, ProgramChecker } from '../programs/program-parts.ts';

/** The relations' part of checking a program file at import (src/domain/wiring/program-checkers.ts lists it). */
export const relationsChecker: ProgramChecker = { part: 'relations', check: checkRelations };

/**
 * Checks the file's relations: unique customIds, and each `copy` source a field of this program that is neither
 * sensitive nor a table (a sensitive value is typed again, never carried into another project). The other program and
 * its fields are looked up when a related project is made: that program's file changes apart from this one. Gives,
 * per relation, the index of each copied field.
 */
export function checkRelations(file: ProgramFile, resolve: PartResolvers, problems: string[]): number[][] {
  const relations = file.relations ?? [];
  return relations.map((r, i) => {
    const where = `relation "${r.customId}"${atLine(file, ['relations', i])}`;
    if (relations.slice(0, i).some((x) => x.customId === r.customId)) problems.push(`${where}: another relation has the customId "${r.customId}"`);
    if (readsOnly(r.kind) && r.copy.length > 0) problems.push(`${where}: copy: a ${r.kind} relation creates no project, so it copies nothing`);
    return r.copy.map((c) => {
      const index = resolve.fields(c.from, `${where}: copy ${c.to}`);
      const field = index === null ? undefined : file.fields[index];
      if (field?.sensitive) problems.push(`${where}: copy ${c.to}: the field "${c.from}" is sensitive; a sensitive value is not copied into another project`);
      if (field?.table) problems.push(`${where}: copy ${c.to}: the field "${c.from}" is a table; tables are not copied`);
      return index ?? -1;
    });
  });
}
