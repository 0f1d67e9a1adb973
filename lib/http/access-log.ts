/**
 * Outermost middleware: stamps every response (success or error) with the request id and the
 * headers every answer carries, and writes one JSON access-log line per request, with the
 * function's name and whether the request was its instance's first (`coldStart`), as Powertools
 * Logger marks them (there as `function_name` and `cold_start`; camelCase here, like every field),
 * the public id of the API key that authenticated it (`keyId`, as `npm run keys -- list` shows
 * it), so that abuse can be traced to a key, never the key or its hash; and the version that
 * answered (`functionVersion`), which the canary's alarms count by (infra/cdk/constructs/monitoring.ts).
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticatedKeyId } from './bearer-auth.ts';
import { isLogged, log } from './log.ts';
import { type ApiResult, COMMON_RESPONSE_HEADERS } from './response.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

type ApiRequest = Request<APIGatewayProxyEvent, ApiResult>;

export function accessLog(operationId: string): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const started = new WeakMap<object, { at: number; coldStart: boolean }>();
  // One chain per function instance: its first request paid for the cold start (init + first call).
  let coldStart = true;

  const finish = (request: ApiRequest): void => {
    const response = request.response;
    if (!response) return;
    const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
    response.headers = {
      ...response.headers,
      [REQUEST_ID_HEADER]: requestId,
      ...COMMON_RESPONSE_HEADERS,
    };
    // A stage at warn keeps only API Gateway's access line, which cannot name the key, and the
    // canary's per-version alarms see nothing: both stages log at info.
    if (!isLogged('info')) return;
    const start = started.get(request.event);
    const keyId = authenticatedKeyId(request.event);
    log('info', 'request', {
      requestId,
      operationId,
      functionName: request.context.functionName,
      functionVersion: request.context.functionVersion,
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: response.statusCode,
      ...(keyId === undefined ? {} : { keyId }),
      ...(start === undefined ? {} : { coldStart: start.coldStart, durationMs: Math.round(performance.now() - start.at) }),
    });
  };

  return {
    before: (request) => {
      started.set(request.event, { at: performance.now(), coldStart });
      coldStart = false;
    },
    after: finish,
    onError: finish,
  };
}
