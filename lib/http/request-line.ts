/**
 * Outermost middleware: stamps every response with the request id and the headers every answer carries, and writes the function's
 * request line (the gateway's access line is another), one JSON line per request: `operationId`, `status`, `durationMs`, `coldStart`
 * (its instance's first request), `keyId` (the public id of the key that authenticated it, never the key or its hash), `functionVersion`
 * (the canary's alarms count by it), `traceId` (X-Ray's, in the access line too) and the business counters CloudWatch extracts from it
 * as embedded metrics. What the function's own log group says for every line (its name, method, resource) is left out (docs/operators.md, Logs).
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticatedKeyId } from './bearer-auth.ts';
import { ENV } from '../config.ts';
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
    log('info', 'request', { ...fields, ...embeddedMetrics(response.statusCode, response.headers['Idempotent-Replayed'] === 'true') });
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

/**
 * Counters of one request in CloudWatch's embedded metric format, each 1, by operation in the stack's namespace. CloudWatch extracts
 * them from a Standard-class group only: production's route functions (docs/operators.md, Logs).
 */
function embeddedMetrics(status: number, replayed: boolean): Record<string, unknown> {
  const counts = { PetsCreated: status === 201 && !replayed, IdempotentReplays: replayed, RefusedKeys: status === 401 };
  const names = Object.entries(counts).flatMap(([name, counted]) => (counted ? [name] : []));
  const Namespace = process.env[ENV.metricsNamespace];
  if (names.length === 0 || !Namespace) return {};
  const CloudWatchMetrics = [{ Namespace, Dimensions: [['operationId']], Metrics: names.map((Name) => ({ Name, Unit: 'Count' })) }];
  return { _aws: { Timestamp: Date.now(), CloudWatchMetrics }, ...Object.fromEntries(names.map((name) => [name, 1])) };
}
