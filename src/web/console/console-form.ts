import { ApiError } from '../../domain/api-error.ts';

/** One text field of a parsed form or query; '' when absent or not text. */
export function formText(source: unknown, name: string): string {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a field that may repeat (ticked checkboxes of one name). */
export function formList(source: unknown, name: string): string[] {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A text field that must be given; INVALID_PARAMETER naming it otherwise. */
export function requiredText(source: unknown, name: string): string {
  const value = formText(source, name);
  if (value === '') throw new ApiError('INVALID_PARAMETER', `${name} is required.`);
  return value;
}

/** The codes a console page explains above its forms (nothing was changed); the others go to the error pages. */
export const PAGE_REFUSALS: ReadonlySet<string> = new Set(['INVALID_REQUEST', 'INVALID_PARAMETER', 'CONFLICT', 'WEBHOOK_TARGET_NOT_ALLOWED']);

/** The refusal a page shows for `error`, or null when the error pages answer it. */
export function pageRefusal(error: unknown): ApiError | null {
  return error instanceof ApiError && PAGE_REFUSALS.has(error.code) ? error : null;
}
