/**
 * The Error body (`{code, message, status}`, docs/behaviour.md) and every code the service uses, one record each: its status, what it
 * means (the OpenAPI document's and the README's words) and the response headers that come with it, whoever answers it.
 */
/** The largest request body a function reads; the 413 states it. */
export const MAX_BODY_BYTES = 64 * 1024;
/** The same limit as people read it: `64 KiB`. */
export const MAX_BODY_SIZE = `${MAX_BODY_BYTES / 1024} KiB`;

export interface ErrorRecord {
  readonly status: number;
  /** What the code means, as a sentence after "`code`: ". */
  readonly meaning: string;
  /** Ids of the response headers infra/openapi/contract.ts defines (HEADERS). */
  readonly headers?: readonly string[];
}

const RECORDS = {
  validation_failed: {
    status: 400,
    meaning: 'a part of the request the operation reads is invalid; the message names every offending field.',
  },
  invalid_cursor: { status: 400, meaning: 'the `cursor` is damaged, truncated, or belongs to another `status` filter.' },
  unauthorized: {
    status: 401,
    meaning: 'the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.',
    headers: ['WWWAuthenticate'],
  },
  forbidden: {
    status: 403,
    meaning:
      "the stage's web ACL blocks the source address: automatically, for a time, after many requests failing the key check, or by the operator. Do not retry.",
  },
  not_found: { status: 404, meaning: 'no animal exists for `petId`.' },
  method_not_allowed: { status: 405, meaning: 'the path exists, the method does not; `Allow` lists the methods.', headers: ['Allow'] },
  payload_too_large: { status: 413, meaning: `the request body is larger than ${MAX_BODY_BYTES} bytes (${MAX_BODY_SIZE}).` },
  unsupported_media_type: {
    status: 415,
    meaning:
      'the request body is not declared as JSON (`application/json` or `application/*+json`, UTF-8 or no charset), or is sent compressed (`Content-Encoding`).',
  },
  idempotency_key_reused: {
    status: 422,
    meaning: 'the `Idempotency-Key` was already used with another body; nothing was created.',
  },
  too_many_requests: {
    status: 429,
    meaning:
      "the stage's throttle (API Gateway) or a per-client limit of the stage's web ACL (AWS WAF) refused the request; retry after `Retry-After` seconds.",
    headers: ['RetryAfter'],
  },
  internal_error: {
    status: 500,
    meaning: 'an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.',
  },
  service_unavailable: {
    status: 503,
    meaning:
      'the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; a create is safe to retry with an `Idempotency-Key`.',
    headers: ['RetryAfter'],
  },
  gateway_timeout: {
    status: 504,
    meaning: 'the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).',
  },
} as const satisfies Record<string, ErrorRecord>;

export type ErrorCode = keyof typeof RECORDS;
export const ERRORS: Readonly<Record<ErrorCode, ErrorRecord>> = RECORDS;

/** Each code's status. */
export const ERROR_CODES = Object.fromEntries(Object.entries(ERRORS).map(([code, { status }]) => [code, status])) as Readonly<
  Record<ErrorCode, number>
>;

/** The message of every 500, from a function or the gateway: it reveals nothing of the cause. */
export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred. It has been logged; quote the request id if you report it.';

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
    this.status = ERRORS[code].status;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}
