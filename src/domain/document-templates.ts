import type { DocumentTemplate } from '../model/document.ts';
import type { ProgramModel } from '../model/model.ts';
import { ApiError } from './api-error.ts';

/**
 * The program's document templates (`documents:` in the program file). The one place generation, the attachment
 * paths and the review page read them, so that where the program keeps them is decided here alone. Shared at the top
 * of src/domain (importing no capability) because projects' attachment paths ask it too, and documents imports projects.
 */
export function documentTemplates(model: ProgramModel): readonly DocumentTemplate[] {
  return model.program.documents ?? [];
}

/** A template by customId; NOT_FOUND naming the program's documents otherwise. */
export function findTemplate(model: ProgramModel, ref: string): DocumentTemplate {
  const all = documentTemplates(model);
  const t = all.find((x) => x.customId === ref);
  if (!t) {
    const known = all.length > 0 ? `; its documents are ${all.map((x) => x.customId).join(', ')}` : '; it has none';
    throw new ApiError('NOT_FOUND', `Document "${ref}" was not found in program ${model.program.id}${known}.`);
  }
  return t;
}

/** The template whose generated files are versions of the attachment definition, if any. */
export function templateOfAttachment(model: ProgramModel, definitionId: string): DocumentTemplate | undefined {
  return documentTemplates(model).find((t) => t.attachmentId === definitionId);
}

/** True when a caller who is not staff may not see the definition's files: generated documents the template keeps from applicants. */
export function hiddenGenerated(model: ProgramModel, staff: boolean, definitionId: string): boolean {
  if (staff) return false;
  const t = templateOfAttachment(model, definitionId);
  return t !== undefined && !t.visibleToApplicant;
}

/** The attachment definitions of a form the caller sees: without the generated documents kept from applicants. */
export function seenDefinitions<T extends { id: string }>(model: ProgramModel, staff: boolean, definitions: readonly T[]): T[] {
  return definitions.filter((d) => !hiddenGenerated(model, staff, d.id));
}
