/**
 * The one place where errors become HTTP responses, in the spec's Error shape
 * `{code, message, status}` with `Content-Type: application/json`. Contract:
 * - an HttpError is a client mistake (or a deliberate refusal): its code, message, status and
 *   headers are exposed as they are;
 * - a DependencyUnavailableError (store throttled or unreachable) becomes 503
 *   `service_unavailable` with `Retry-After`: nothing was written, the client may retry;
 * - anything else is a bug: it is logged with its stack under the request id, and the client gets
 *   500 `internal_error` with a fixed message that reveals nothing about the cause;
 * - a response already set by another middleware is left alone.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DependencyUnavailableError } from '../store/errors.ts';
import { HttpError } from './errors.ts';
import { describeError, log } from './log.ts';
import { type ApiResult, errorResult } from './response.ts';

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof DependencyUnavailableError) {
    return new HttpError(
      'service_unavailable',
      'The service is temporarily unable to reach its data store. Nothing was changed; retry after a short wait.',
      { 'Retry-After': String(error.retryAfterSeconds) },
    );
  }
  return new HttpError(
    'internal_error',
    'An unexpected error occurred. It has been logged; quote the request id if you report it.',
  );
}

export function errorResponder(): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  return {
    onError: (request) => {
      if (request.response !== undefined && request.response !== null) return;
      const httpError = toHttpError(request.error);
      if (httpError.status >= 500) {
        log('error', httpError.status === 503 ? 'dependency unavailable' : 'unhandled error', {
          requestId: request.event.requestContext?.requestId,
          ...describeError(request.error),
        });
      }
      request.response = errorResult(httpError);
    },
  };
}
