import type { ApiError } from '../domain/api-error.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes an error answer: code, HTTP status, message, the request id when known, one FieldError per field problem. */
export function encodeErrorResponse(error: ApiError, ns: string, requestId?: string | null): string {
  const w = new XmlWriter(ns).start('ErrorResponse', {
    Code: error.code,
    Status: String(error.status),
    Message: error.message,
    RequestId: requestId,
  });
  for (const f of error.fields) {
    w.empty('FieldError', { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Code: f.code, Message: f.message });
  }
  return w.end().finish();
}
