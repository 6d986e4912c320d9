import { type ApiError, ERROR_STATUS } from '../../domain/api-error.ts';
import { complex, type DocumentValue, enumeration, int, many, optional, positiveInteger, required, responseDocument, string } from '../wire-type.ts';

const ErrorCode = enumeration('ErrorCode', Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[],
  'The closed list of error codes (ERROR_STATUS in src/domain/api-error.ts); each maps to one HTTP status.');

/** Every error answer: a stable code, the HTTP status, a message and, for data problems, one FieldError per field. */
export const ErrorResponse = responseDocument('ErrorResponse', complex({
  attributes: { Code: required(ErrorCode), Status: required(int), Message: required(string), RequestId: optional(string) },
  children: {
    FieldError: many(complex({
      attributes: {
        DataFieldId: required(string), CustomId: optional(string), Name: optional(string), Code: required(string), Message: required(string),
        Row: optional(positiveInteger, { doc: 'For a cell of a table field: its row, from 1.' }),
        Column: optional(string, { doc: 'For a cell of a table field: its column\'s CustomId.' }),
      },
    })),
  },
}), 'Every error answer: a stable code, the HTTP status, a message and, for data problems, one FieldError per field.');

/** The ErrorResponse value of `error`, with the request id when known. */
export function errorValue(error: ApiError, requestId?: string | null): DocumentValue<typeof ErrorResponse> {
  return {
    Code: error.code, Status: error.status, Message: error.message, RequestId: requestId ?? null,
    FieldError: error.fields.map((f) => ({
      DataFieldId: f.dataFieldId, CustomId: f.customId ?? null, Name: f.name ?? null, Code: f.code, Message: f.message,
      Row: f.row ?? null, Column: f.column ?? null,
    })),
  };
}
