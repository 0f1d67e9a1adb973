/**
 * Outermost middleware: stamps every response (success or error) with the request id and the
 * headers every answer carries, and writes the function's request line (API Gateway's access log
 * is another line, written by the gateway), one JSON line per request: the operation, the status,
 * the duration, whether the request was its instance's first (`coldStart`, Powertools Logger's
 * `cold_start`; camelCase here, like every field), the public id of the API key that authenticated
 * it (`keyId`, as `npm run keys -- list` shows it), so that abuse can be traced to a key, never the
 * key or its hash; and the version that answered (`functionVersion`), which the canary's alarms
 * count by (infra/cdk/constructs/monitoring.ts); and the X-Ray trace id (`traceId`), which API
 * Gateway's access line carries too, so one id finds a request from the gateway to the function.
 *
 * Each function serves one operation and writes to its own log group, which names the function;
 * so the line leaves out what that group says for every line of it (the function's name, the
 * method and the resource), and `operationId` alone says which of them answered wherever lines of
 * several functions meet (local mode's output, a query over several groups).
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticatedKeyId } from './bearer-auth.ts';
import { isLogged, log } from '../log.ts';
import { type ApiResult, COMMON_RESPONSE_HEADERS, withHeaders } from './response.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

type ApiRequest = Request<APIGatewayProxyEvent, ApiResult>;

export function requestLine(
  operationId: string,
  rateLimitHeaders: () => Readonly<Record<string, string>> = () => ({}),
): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const started = new WeakMap<object, { at: bigint; coldStart: boolean }>();
  // One chain per function instance: its first request paid for the cold start (init + first call).
  let coldStart = true;

  const finish = (request: ApiRequest): void => {
    const response = request.response;
    if (!response) return;
    const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
    response.headers = withHeaders(response.headers, { ...COMMON_RESPONSE_HEADERS, ...rateLimitHeaders() });
    response.headers[REQUEST_ID_HEADER] = requestId;
    // A stage at warn keeps only API Gateway's access line, which cannot name the key, and the
    // canary's per-version alarms see nothing: both stages log at info.
    if (!isLogged('info')) return;
    const start = started.get(request.event);
    const keyId = authenticatedKeyId(request.event);
    const fields: Record<string, unknown> = {
      requestId,
      operationId,
      functionVersion: request.context.functionVersion,
      status: response.statusCode,
    };
    if (keyId !== undefined) fields.keyId = keyId;
    // Lambda sets the variable for each invocation; the gateway's header stands in where it does not (local mode).
    const traceId = /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? request.event.headers?.['X-Amzn-Trace-Id'] ?? '')?.[1];
    if (traceId !== undefined) fields.traceId = traceId;
    if (start !== undefined) {
      fields.coldStart = start.coldStart;
      fields.durationMs = Math.round(Number(process.hrtime.bigint() - start.at) / 1e6);
    }
    log('info', 'request', fields);
  };

  return {
    before: (request) => {
      // Not performance.now(): its first use loads perf_hooks, in the first invocation's time.
      started.set(request.event, { at: process.hrtime.bigint(), coldStart });
      coldStart = false;
    },
    after: finish,
    onError: finish,
  };
}
