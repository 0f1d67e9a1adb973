/**
 * The one place where errors become the Error body (`{code, message, status}`, JSON): an HttpError as it is; IdempotencyKeyReusedError
 * → 422; DependencyUnavailableError or middy's early timeout → 503 with `Retry-After`; anything else is a bug, logged with its stack
 * under the request id, and a 500 that reveals nothing.
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
