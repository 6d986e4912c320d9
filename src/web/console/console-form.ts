import { ApiError } from '../../domain/api-error.ts';
import { formField } from '../form-field.ts';

/** One text field of a parsed form or query; '' when absent or not text (the pages' one reader, form-field.ts). */
export const formText = formField;

/**
 * The notice a page's `notice` parameter names among `notices`, or null: the address names a notice, so a crafted
 * link cannot put words on the page.
 */
export function noticeOf<K extends string>(notices: Readonly<Record<K, string>>, query: unknown): string | null {
  const key = formField(query, 'notice');
  return Object.hasOwn(notices, key) ? notices[key as K] : null;
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
