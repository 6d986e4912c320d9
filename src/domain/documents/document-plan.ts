import type { DocumentTemplate } from '../../model/document.ts';
import type { AttachmentDefinition, Program } from '../../model/model.ts';

/** The template of a program by customId, or null when the program has none by that name. */
export function findDocumentTemplate(program: Pick<Program, 'documents'>, customId: string): DocumentTemplate | null {
  return program.documents?.find((t) => t.customId === customId) ?? null;
}

/** Whether an attachment definition holds a document's generated files (people cannot upload to it). */
export function isDocumentAttachment(definition: Pick<AttachmentDefinition, 'document'>): boolean {
  return definition.document !== undefined;
}
