/** The statuses of an inquiry thread, in the order people read them. */
export const INQUIRY_STATUSES = ['Open', 'AwaitingResponse', 'Resolved', 'Closed'] as const;

/** One of INQUIRY_STATUSES. */
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

/** The statuses SetInquiryThreadStatus may move a thread to from each status; a Closed thread can only be reopened. */
export const INQUIRY_MOVES: Readonly<Record<InquiryStatus, readonly InquiryStatus[]>> = {
  Open: ['AwaitingResponse', 'Resolved', 'Closed'],
  AwaitingResponse: ['Open', 'Resolved', 'Closed'],
  Resolved: ['Open', 'Closed'],
  Closed: ['Open'],
};

/** A thread of notes about one project between the program's staff and the project's applicant. */
export interface InquiryThread {
  id: string; programId: string; projectId: string; subject: string; status: InquiryStatus; externalId: string | null;
  createdAt: number; createdBy: string; updatedAt: number; updatedBy: string;
}

/** One note of a thread; `seq` orders a thread's notes (1, 2, …) even within one millisecond. */
export interface InquiryNote {
  id: string; threadId: string; seq: number; authorId: string; createdAt: number; text: string; visibleToApplicant: boolean;
}
