import { ApiError } from '../api-error.ts';
import { INQUIRY_MOVES, type InquiryStatus } from '../../model/inquiry.ts';

/** The most characters a note's text may have. */
export const MAX_NOTE_LENGTH = 20_000;

// C0 controls other than tab, line feed and carriage return cannot travel in XML 1.0, nor can lone surrogates;
// refusing them keeps every stored note exactly reproducible in the XML answers.
function hasUnsendable(text: string): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) return true;
  }
  return false;
}

/** Throws INVALID_REQUEST unless `text` is 1–20000 characters with something besides whitespace; never changes it. */
export function requireNoteText(text: string): void {
  const length = [...text].length;
  if (length === 0 || text.trim() === '') throw new ApiError('INVALID_REQUEST', 'A note needs some text.');
  if (length > MAX_NOTE_LENGTH) throw new ApiError('INVALID_REQUEST', `A note may have at most ${MAX_NOTE_LENGTH} characters; this one has ${length}.`);
  if (hasUnsendable(text)) throw new ApiError('INVALID_REQUEST', 'The note contains control characters that cannot be stored.');
}

/** Throws TRANSITION_NOT_ALLOWED unless SetInquiryThreadStatus may move a thread from `from` to `to`. */
export function requireInquiryMove(from: InquiryStatus, to: InquiryStatus): void {
  if (INQUIRY_MOVES[from].includes(to)) return;
  throw new ApiError('TRANSITION_NOT_ALLOWED', `A thread in status ${from} cannot move to ${to}; allowed next: ${INQUIRY_MOVES[from].join(', ')}.`);
}

/**
 * The status a thread takes when a note is added: a staff note the applicant can see makes an Open thread
 * AwaitingResponse (the ball is in the applicant's court); the applicant's reply makes an AwaitingResponse or
 * Resolved thread Open again (staff have something to look at). Hidden notes change nothing.
 */
export function statusAfterNote(current: InquiryStatus, note: { byStaff: boolean; visibleToApplicant: boolean }): InquiryStatus {
  if (!note.visibleToApplicant) return current;
  if (note.byStaff) return current === 'Open' ? 'AwaitingResponse' : current;
  return current === 'AwaitingResponse' || current === 'Resolved' ? 'Open' : current;
}
