import { consoleArea } from './console-paths.ts';

/** The Programs area's start: the list of programs and the upload form. */
export const PROGRAMS_PATH = consoleArea('programs').path;

/** Where a program file is posted (multipart). */
export const PROGRAM_UPLOAD_PATH = `${PROGRAMS_PATH}/Upload`;

/** The addresses of the Programs area's pages. */
export const programsPaths = {
  program: (programId: string) => `${PROGRAMS_PATH}/${encodeURIComponent(programId)}`,
  liveFile: (programId: string) => `${programsPaths.program(programId)}/File`,
  version: (programId: string, version: number) => `${programsPaths.program(programId)}/Versions/${version}`,
  versionFile: (programId: string, version: number) => `${programsPaths.version(programId, version)}/File`,
  form: (programId: string, formId: string) => `${programsPaths.program(programId)}/Forms/${encodeURIComponent(formId)}`,
  mails: (programId: string) => `${programsPaths.program(programId)}/Mails`,
  document: (programId: string, documentId: string) => `${programsPaths.program(programId)}/Documents/${encodeURIComponent(documentId)}`,
  calendar: (programId: string) => `${programsPaths.program(programId)}/Calendar`,
  review: (uploadId: string) => `${PROGRAMS_PATH}/Uploads/${encodeURIComponent(uploadId)}`,
  publish: (uploadId: string) => `${programsPaths.review(uploadId)}/Publish`,
  list: (programId: string, listId: string) => `${programsPaths.program(programId)}/Lists/${encodeURIComponent(listId)}`,
};
