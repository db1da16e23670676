/**
 * Errors as named values: every failure a caller can cause carries its HTTP status and a `detail`
 * that names the offending field, never its content. The API's error handler and the CLI map them.
 */
export type RequestErrorCode =
  | 'bad_json'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation'
  | 'rate_limited'
  | 'queue_unavailable';

const STATUS: Record<RequestErrorCode, number> = {
  bad_json: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation: 422,
  rate_limited: 429,
  queue_unavailable: 503,
};

export class RequestError extends Error {
  readonly status: number;
  constructor(
    readonly code: RequestErrorCode,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'RequestError';
    this.status = STATUS[code];
  }
}

/** A request body that failed validation (HTTP 422). `detail` names the field and why. */
export function validationError(detail: string): RequestError {
  return new RequestError('validation', detail);
}
