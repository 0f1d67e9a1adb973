/**
 * Outermost middleware: stamps every response (success or error) with the request id and the
 * headers every answer carries, and writes one JSON access-log line per request.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { log } from './log.ts';
import type { ApiResult } from './response.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

type ApiRequest = Request<APIGatewayProxyEvent, ApiResult>;

export function accessLog(operationId: string): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const started = new WeakMap<object, number>();

  const finish = (request: ApiRequest): void => {
    const response = request.response;
    if (!response) return;
    const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
    response.headers = {
      ...response.headers,
      [REQUEST_ID_HEADER]: requestId,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    };
    const startedAt = started.get(request.event);
    log('info', 'request', {
      requestId,
      operationId,
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: response.statusCode,
      ...(startedAt === undefined ? {} : { durationMs: Math.round(performance.now() - startedAt) }),
    });
  };

  return {
    before: (request) => {
      started.set(request.event, performance.now());
    },
    after: finish,
    onError: finish,
  };
}
