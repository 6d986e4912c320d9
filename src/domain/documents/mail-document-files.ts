import { buffer } from 'node:stream/consumers';
import type { BlobStore } from '../../store/blob-store.ts';
import type { MailAttachmentRef } from '../../store/mail-queries.ts';
import type { StoreReader } from '../../store/store.ts';
import type { MailFileSource, MailFiles } from '../mail/mail-sender.ts';
import type { MailFile } from '../mail/mailer.ts';

/** The most bytes of generated documents one mail carries (mail servers commonly refuse messages past 10–25 MB). */
export const MAX_MAIL_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The generated documents of a mail (a sendMail action's `attach`): a request still queued makes the mail wait, a
 * failed one fails it with the request's reason, and a generated version (or the version named) is read whole.
 */
export function mailDocumentFiles(store: Pick<StoreReader, 'documents' | 'attachments'>, blobs: BlobStore): MailFileSource {
  return {
    files: async (refs: readonly MailAttachmentRef[]): Promise<MailFiles> => {
      const ready: MailFile[] = [];
      let total = 0;
      for (const ref of refs) {
        let version = ref.version;
        if (ref.requestId !== null) {
          const request = await store.documents.getDocumentRequest(ref.requestId);
          if (!request) return { fail: `the document ${ref.documentId} it carries was never generated` };
          if (request.state === 'queued') return { wait: `the document ${ref.documentId} is still being generated` };
          if (request.state === 'failed') return { fail: `the document ${ref.documentId} it carries could not be generated: ${request.lastError ?? 'no reason given'}` };
          version = request.attachmentVersion;
        }
        const file = version === null ? null : await store.attachments.getAttachment(ref.projectId, ref.attachmentId, version);
        if (!file) return { fail: `the document ${ref.documentId} it carries is no longer stored` };
        total += file.sizeBytes;
        if (total > MAX_MAIL_FILE_BYTES) return { fail: `the documents it carries are over ${MAX_MAIL_FILE_BYTES} bytes together` };
        ready.push({ fileName: file.fileName, contentType: file.contentType, content: await buffer(await blobs.read(file.blobKey)) });
      }
      return { ready };
    },
  };
}
