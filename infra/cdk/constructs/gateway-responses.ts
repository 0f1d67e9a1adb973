/**
 * Every error API Gateway answers by itself, in the service's Error shape `{"code", "message", "status"}` with `Content-Type:
 * application/json`: the Gateway Responses (throttling, unknown paths, integration failures, …) and the bodies of the mock methods that
 * answer unknown paths (404) and wrong methods (405) exactly as local mode does (lib/http/gateway-errors.ts).
 */
import { BEARER_CHALLENGE } from '#lib/http/bearer-auth.ts';
import { type ErrorCode, HttpError, INTERNAL_ERROR_MESSAGE } from '#lib/http/errors.ts';
import { GATEWAY_TOO_LARGE_MESSAGE, NOT_FOUND_MESSAGE, methodNotAllowedMessage } from '#lib/http/gateway-errors.ts';

export interface GatewayError {
  readonly code: ErrorCode;
  readonly message: string;
  /** Extra static response headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Bodies several response types share. */
// A 401 always carries its challenge (RFC 9110 §15.5.2), whoever answers.
const UNAUTHORIZED = {
  code: 'unauthorized',
  message: 'API key missing or invalid. Send Authorization: Bearer <API key>.',
  headers: { 'WWW-Authenticate': BEARER_CHALLENGE },
} as const;
const DENIED = { code: 'forbidden', message: 'Access to this resource is denied.' } as const;
const NOT_FOUND = { code: 'not_found', message: NOT_FOUND_MESSAGE } as const;
const INTERNAL = { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } as const;

/**
 * One entry per API Gateway response type (the names of `ResponseType` in aws-cdk-lib, which are
 * the CloudFormation `ResponseType` values).
 */
export const GATEWAY_RESPONSES = {
  DEFAULT_4XX: { code: 'validation_failed', message: 'The request was rejected by the API gateway.' },
  DEFAULT_5XX: INTERNAL,
  // Unknown paths: API Gateway reports a resource/method it has no match for this way (also when
  // the request carries a Bearer token). The catch-all mocks normally answer first; same body.
  MISSING_AUTHENTICATION_TOKEN: NOT_FOUND,
  RESOURCE_NOT_FOUND: NOT_FOUND,
  // The API key is checked in the functions; these gateway-side auth failures cannot normally occur.
  UNAUTHORIZED,
  INVALID_API_KEY: UNAUTHORIZED,
  ACCESS_DENIED: DENIED,
  EXPIRED_TOKEN: DENIED,
  INVALID_SIGNATURE: DENIED,
  WAF_FILTERED: { code: 'forbidden', message: 'The request was blocked by the firewall.' },
  AUTHORIZER_FAILURE: INTERNAL,
  AUTHORIZER_CONFIGURATION_ERROR: INTERNAL,
  API_CONFIGURATION_ERROR: INTERNAL,
  BAD_REQUEST_PARAMETERS: { code: 'validation_failed', message: 'Invalid request parameters.' },
  BAD_REQUEST_BODY: { code: 'validation_failed', message: 'Invalid request body.' },
  REQUEST_TOO_LARGE: {
    code: 'payload_too_large',
    message: GATEWAY_TOO_LARGE_MESSAGE,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type. Send application/json.',
  },
  THROTTLED: {
    code: 'too_many_requests',
    message:
      "Too many requests: the operation's throttle (API Gateway's, shared by every client) is full. Retry after the Retry-After delay.",
    headers: { 'Retry-After': '1' },
  },
  // "The gateway response for the usage plan quota exceeded error" (AWS, https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.aws_apigateway.ResponseType.html):
  // the stages have no usage plan, so it cannot occur; should it, it is a 429 like any other, with Retry-After.
  QUOTA_EXCEEDED: { code: 'too_many_requests', message: 'The request quota for this period is used up.', headers: { 'Retry-After': '1' } },
  // The function could not be run: transient, nothing was done. A function over its reserved concurrency is the common case: Lambda
  // answers the invoke with 429 TooManyRequestsException, which API Gateway REST reports as this type ("Execution failed due to
  // configuration error: Rate Exceeded.") with a 500 unless set here. 503, not 429: the limit is the service's capacity, shared by
  // every client, not this client's rate.
  INTEGRATION_FAILURE: {
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable. Nothing was changed; retry after a short wait.',
    headers: { 'Retry-After': '1' },
  },
  INTEGRATION_TIMEOUT: {
    code: 'gateway_timeout',
    message: 'The service did not answer in time. The request may or may not have taken effect.',
  },
} as const satisfies Record<string, GatewayError>;

/** The Error body as a JSON template. `$context…` variables are substituted by API Gateway. */
export function errorBody(code: ErrorCode, message: string): string {
  return JSON.stringify(new HttpError(code, message).toBody());
}

/** Body of the 404 mock on unknown paths. */
export const NOT_FOUND_BODY = errorBody('not_found', NOT_FOUND_MESSAGE);

/**
 * Body of the 405 mock on `path` (as clients address it, `/v1/pets`), which allows `allowed`: the
 * mapping template fills in the method, e.g. "Method DELETE is not allowed on /v1/pets. Allowed: GET, POST."
 */
export function methodNotAllowedBody(path: string, allowed: readonly string[]): string {
  return errorBody('method_not_allowed', methodNotAllowedMessage('$context.httpMethod', path, allowed));
}
