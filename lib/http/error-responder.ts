/**
 * The one place where errors become HTTP responses, in the spec's Error shape
 * `{code, message, status}` with `Content-Type: application/json`. Two middlewares:
 * `@middy/http-error-handler` writes every error response, and our mapping runs just inside it
 * (its onError first) and hands it an exposed error whose message is the JSON Error body.
 * Contract:
 * - an HttpError is a client mistake (or a deliberate refusal): its code, message, status and
 *   headers are exposed as they are;
 * - an IdempotencyKeyReusedError becomes 422 `idempotency_key_reused`;
 * - a DependencyUnavailableError (store throttled or unreachable), or the function running out of
 *   time while waiting on it (middy's early timeout), becomes 503
 *   `service_unavailable` with `Retry-After`: the client may retry (safely, for a create, with
 *   an Idempotency-Key);
 * - anything else is a bug: it is logged with its stack under the request id, and the client gets
 *   500 `internal_error` with a fixed message that reveals nothing about the cause;
 * - an error nobody mapped (a middleware placed outside the mapping) still gets that 500 body,
 *   through the handler's JSON `fallbackMessage`, never text/plain;
 * - a response already set by another middleware is left alone.
 */
import type { MiddlewareObj } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DependencyUnavailableError, IdempotencyKeyReusedError } from '../store/store-errors.ts';
import { HttpError, INTERNAL_ERROR_MESSAGE } from './errors.ts';
import { describeError, log } from '../log.ts';
import type { ApiResult } from './response.ts';

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof IdempotencyKeyReusedError) {
    return new HttpError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different pet. Send the original body, or use a new key for a new pet.',
    );
  }
  if (error instanceof DependencyUnavailableError || isFunctionTimeout(error)) {
    return new HttpError(
      'service_unavailable',
      'The service could not reach its data store in time. Retry after the Retry-After delay; send an Idempotency-Key header to make a create safe to retry.',
      { 'Retry-After': String(error instanceof DependencyUnavailableError ? error.retryAfterSeconds : 1) },
    );
  }
  return new HttpError('internal_error', INTERNAL_ERROR_MESSAGE);
}

/** middy's early-timeout error: the function is about to time out waiting on its dependencies. */
function isFunctionTimeout(error: unknown): boolean {
  return (
    error instanceof Error && error.name === 'TimeoutError' && (error.cause as { package?: string } | undefined)?.package === '@middy/core'
  );
}

/** What @middy/http-error-handler renders: the status, the headers and, as `message`, the JSON body. */
export interface ExposedHttpError extends Error {
  readonly statusCode: number;
  /** The handler hides every status ≥ 500 unless told to expose it; ours are all safe to show. */
  readonly expose: true;
  readonly headers: Record<string, string>;
}

export function exposedError(error: HttpError, cause?: unknown): ExposedHttpError {
  return Object.assign(new Error(JSON.stringify(error.toBody()), { cause }), {
    statusCode: error.status,
    expose: true as const,
    headers: { ...error.headers },
  });
}

/** Maps `request.error` to an exposed HttpError, logging bugs and outages. */
function errorMapping(): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  return {
    onError: (request) => {
      if (request.response !== undefined && request.response !== null) return;
      const httpError = toHttpError(request.error);
      const requestId = request.event.requestContext?.requestId;
      if (httpError.status === 503) {
        log('warn', 'dependency unavailable', { requestId, ...describeError(request.error, { stack: false }) });
      } else if (httpError.status >= 500) {
        log('error', 'unhandled error', { requestId, ...describeError(request.error) });
      }
      request.error = exposedError(httpError, request.error);
    },
  };
}

/** The error handler, then the mapping: middy runs onError handlers from the last used to the first. */
export function errorResponder(): MiddlewareObj<APIGatewayProxyEvent, ApiResult>[] {
  return [
    // Logging is ours (errorMapping), with the request id and without the Authorization header.
    httpErrorHandler({ logger: false, fallbackMessage: JSON.stringify(new HttpError('internal_error', INTERNAL_ERROR_MESSAGE).toBody()) }),
    errorMapping(),
  ];
}
