/**
 * The requests the benchmark sends, taken from the operation descriptors (lib/operations.ts): each
 * operation's valid request, and a listing's page of one status.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { toProxyEvent } from '../local/gateway/proxy-event.ts';
import { lambdaContext as localLambdaContext } from '../local/lambda/lambda-context.ts';
import { type ApiOperation, operations } from '#lib/operations.ts';
import { type OperationRequest, validRequest } from '../openapi/schemas.ts';

/** The one DynamoDB call that answers a request, the least any implementation of it makes. */
export type StoreCall = 'scan' | 'query' | 'get' | 'put' | 'update' | 'delete';

export interface Scenario {
  /** `listPets`, `listPets?status=available`. */
  readonly id: string;
  readonly label: string;
  readonly operation: ApiOperation;
  readonly query: string;
  readonly call: StoreCall;
}

/** The call of `operation` for a request with the query string `query`. */
export function storeCall({ method, resource }: ApiOperation, query: string): StoreCall {
  const item = resource.includes('{');
  if (method === 'GET') return item ? 'get' : query ? 'query' : 'scan';
  if (method === 'POST' && !item) return 'put';
  if ((method === 'PUT' || method === 'PATCH') && item) return 'update';
  if (method === 'DELETE' && item) return 'delete';
  throw new Error(`infra/bench/scenarios.ts: no store call for ${method} ${resource}`);
}

const scenario = (operation: ApiOperation, query = ''): Scenario => ({
  id: `${operation.operationId}${query ? `?${query}` : ''}`,
  label: `${operation.operationId} \`${operation.method} ${operation.resource}${query ? `?${query}` : ''}\``,
  operation,
  query,
  call: storeCall(operation, query),
});

/** A listing's page of one status: the status index's Query rather than a Scan. */
const LISTINGS = operations.filter((o) => storeCall(o, '') === 'scan').map((o) => scenario(o, 'status=available'));

export const SCENARIOS: readonly Scenario[] = [...operations.map((o) => scenario(o)), ...LISTINGS];

/** The n-th request of a scenario: a random pet among `ids`, a new pet named for `n`. */
export function requestFor(s: Scenario, ids: readonly number[], n: number): OperationRequest {
  const petId = ids[Math.floor(Math.random() * ids.length)] ?? 1;
  const request = validRequest(s.operation, { petId, name: `bench-pet-${n}` });
  return s.query ? { ...request, path: `${request.path}?${s.query}` } : request;
}

export function requestHeaders(apiKey: string, spec: Pick<OperationRequest, 'body'>): Record<string, string> {
  return {
    Authorization: `Bearer ${apiKey}`,
    Accept: 'application/json',
    ...(spec.body === undefined ? {} : { 'Content-Type': 'application/json' }),
  };
}

/** The operation that answers `method` on a path under `/v1`, with its path parameters. */
export function routeOf(
  method: string,
  path: string,
): { operation: ApiOperation; pathParameters: Record<string, string> | null } | undefined {
  for (const operation of operations) {
    const match = new RegExp(`^${operation.resource.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`).exec(path);
    if (match && operation.method === method) return { operation, pathParameters: match.groups ? { ...match.groups } : null };
  }
  return undefined;
}

/** The REST proxy event API Gateway would send for `spec`, built by the local API's own adapter. */
export function proxyEvent(
  spec: Pick<OperationRequest, 'method' | 'path' | 'body'>,
  apiKey: string,
  requestId: string,
): APIGatewayProxyEvent {
  const [pathOnly = '', search = ''] = spec.path.split('?');
  const route = routeOf(spec.method, pathOnly);
  if (!route) throw new Error(`no operation answers ${spec.method} ${pathOnly}`);
  const headers = { Host: 'bench.local', 'User-Agent': 'petstore-bench', ...requestHeaders(apiKey, spec) };
  return toProxyEvent({
    requestId,
    domainName: 'bench.local',
    method: spec.method,
    path: `/v1${pathOnly}`,
    search,
    rawHeaders: Object.entries(headers).flat(),
    body: Buffer.from(spec.body ?? '', 'utf8'),
    sourceIp: '127.0.0.1',
    httpVersion: '1.1',
    resource: `/v1${route.operation.resource}`,
    pathParameters: route.pathParameters,
  });
}

/** The Lambda context of a deployed function (the local API's), named for the benchmark. */
export function lambdaContext(functionName: string, requestId: string): Context {
  return localLambdaContext(requestId, functionName, 'bench');
}
