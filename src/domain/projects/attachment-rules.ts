import { ApiError, type FieldProblem } from '../api-error.ts';
import type { AttachmentDefinition, Form, ProgramModel } from '../../model/model.ts';

/** The name a file gets when the upload names none (or only an unusable one). */
export const DEFAULT_FILE_NAME = 'attachment';

/** The most characters a stored file name has. */
export const MAX_FILE_NAME_LENGTH = 255;

const TOKEN = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** The media type of a Content-Type header, lower-cased and without parameters (`text/csv; charset=utf-8` → `text/csv`); null when there is none. */
export function mediaTypeOf(header: string | null): string | null {
  if (header === null) return null;
  const essence = (header.split(';')[0] ?? '').trim().toLowerCase();
  const [type, subtype, ...rest] = essence.split('/');
  if (rest.length > 0 || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  return `${type}/${subtype}`;
}

/** True when a definition's allowed types (exact, or `image/*`-style) admit the media type. */
export function typeAllowed(mediaType: string, allowedTypes: readonly string[]): boolean {
  const [type] = mediaType.split('/');
  return allowedTypes.some((allowed) => {
    const a = allowed.toLowerCase();
    return a === mediaType || a === '*/*' || (a.endsWith('/*') && a.slice(0, -2) === type);
  });
}

// Controls (C0, DEL, C1), lone surrogates, and the bidirectional overrides that can make "exe.pdf" display as "fdp.exe".
const UNWANTED = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The file name to store for an upload: the last path segment of the name sent, without control characters, trimmed,
 * at most 255 characters (the extension kept when shortening); `attachment` when nothing usable is left.
 */
export function cleanFileName(raw: string | null): string {
  if (raw === null) return DEFAULT_FILE_NAME;
  const segment = raw.split(/[/\\]/).pop() ?? '';
  const name = segment.replace(UNWANTED, '').trim();
  if (name === '' || name === '.' || name === '..') return DEFAULT_FILE_NAME;
  const chars = [...name];
  if (chars.length <= MAX_FILE_NAME_LENGTH) return name;
  const ext = /\.[^.\s]{1,16}$/.exec(name)?.[0] ?? '';
  return [...chars.slice(0, MAX_FILE_NAME_LENGTH - [...ext].length), ...ext].join('').trim();
}

/** The attachment definition of a form by generated or custom id. */
export function definitionOnForm(form: Form, ref: string): AttachmentDefinition {
  const definition = form.attachments.find((a) => a.id === ref) ?? form.attachments.find((a) => a.customId === ref);
  if (!definition) throw new ApiError('NOT_FOUND', `Form ${form.name} has no attachment "${ref}".`);
  return definition;
}

/**
 * An attachment definition of any form of the program, with its form. Custom ids are unique per form only, so a
 * custom id that two forms use is refused as ambiguous (the generated id always works).
 */
export function findDefinition(model: ProgramModel, ref: string): { form: Form; definition: AttachmentDefinition } {
  const all = model.forms.flatMap((form) => form.attachments.map((definition) => ({ form, definition })));
  const byId = all.find((x) => x.definition.id === ref);
  if (byId) return byId;
  const byCustomId = all.filter((x) => x.definition.customId === ref);
  if (byCustomId.length > 1) {
    const ids = byCustomId.map((x) => `${x.definition.id} (form ${x.form.customId ?? x.form.id})`).join(', ');
    throw new ApiError('INVALID_PARAMETER', `Attachment "${ref}" is on several forms; use its generated id: ${ids}.`);
  }
  if (!byCustomId[0]) throw new ApiError('NOT_FOUND', `Program ${model.program.id} has no attachment "${ref}".`);
  return byCustomId[0];
}

/** A FieldError for every required attachment definition of the form that has no file yet. */
export function attachmentProblems(form: Form, uploaded: ReadonlySet<string>): FieldProblem[] {
  return form.attachments.filter((a) => a.required && !uploaded.has(a.id)).map((a) => ({
    dataFieldId: a.id, customId: a.customId, name: a.name, code: 'ATTACHMENT_REQUIRED', message: `${a.name} must be uploaded.`,
  }));
}
