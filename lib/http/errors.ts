/**
 * The Error body (`{code, message, status}`, docs/behaviour.md) and the small, documented set of
 * codes the service uses.
 * Anything thrown as an HttpError is exposed to the client as is; anything else becomes a 500
 * whose message reveals nothing (see error-responder.ts).
 */

export const ERROR_CODES = {
  validation_failed: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  /** Only from the gateway: a request its own checks refuse (e.g. a WAF rule). */
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  too_many_requests: 429,
  internal_error: 500,
  service_unavailable: 503,
  /** Only from the gateway: the function did not answer within the integration timeout. */
  gateway_timeout: 504,
} as const;

/** The message of every 500, from a function or the gateway: it reveals nothing of the cause. */
export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred. It has been logged; quote the request id if you report it.';

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  readonly code: ErrorCode;
  readonly message: string;
  readonly status: number;
}

export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}
