/**
 * The requests the benchmark sends: the same for the local API, the baseline server, the handler
 * timings and the cold-start first invocation.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { toProxyEvent } from '../local/gateway/proxy-event.ts';
import { lambdaContext as localLambdaContext } from '../local/lambda/lambda-context.ts';
import type { Route } from '#lib/routes.ts';

export type ScenarioId = 'list' | 'list-status' | 'create' | 'get';

export interface Scenario {
  readonly id: ScenarioId;
  readonly label: string;
  readonly functionId: Route['functionId'];
}

export const SCENARIOS: readonly Scenario[] = [
  { id: 'list', label: 'list `GET /pets`', functionId: 'list-pets' },
  { id: 'list-status', label: 'list `GET /pets?status=available`', functionId: 'list-pets' },
  { id: 'get', label: 'get `GET /pets/{id}`', functionId: 'get-pet' },
  { id: 'create', label: 'create `POST /pets`', functionId: 'create-pet' },
];

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  /** Under the base path `/v1`, with the query string. */
  readonly path: string;
  readonly body?: string;
}

/** The n-th request of a scenario; `get` asks for a random pet among `ids`. */
export function requestFor(scenario: ScenarioId, ids: readonly number[], n: number): RequestSpec {
  switch (scenario) {
    case 'list':
      return { method: 'GET', path: '/pets' };
    case 'list-status':
      return { method: 'GET', path: '/pets?status=available' };
    case 'get':
      return { method: 'GET', path: `/pets/${ids[Math.floor(Math.random() * ids.length)] ?? 1}` };
    case 'create':
      return { method: 'POST', path: '/pets', body: JSON.stringify({ name: `bench-pet-${n}`, categoryId: 3, status: 'available' }) };
  }
}

export function requestHeaders(apiKey: string, spec: RequestSpec): Record<string, string> {
  return {
    Authorization: `Bearer ${apiKey}`,
    Accept: 'application/json',
    ...(spec.body === undefined ? {} : { 'Content-Type': 'application/json' }),
  };
}

/** The REST proxy event API Gateway would send for `spec`, built by the local API's own adapter. */
export function proxyEvent(spec: RequestSpec, apiKey: string, requestId: string): APIGatewayProxyEvent {
  const [pathOnly = '', search = ''] = spec.path.split('?');
  const petId = /^\/pets\/([^/]+)$/.exec(pathOnly)?.[1];
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
    resource: petId === undefined ? '/v1/pets' : '/v1/pets/{petId}',
    pathParameters: petId === undefined ? null : { petId },
  });
}

/** The Lambda context of a deployed function (the local API's), named for the benchmark. */
export function lambdaContext(functionName: string, requestId: string): Context {
  return localLambdaContext(requestId, functionName, 'bench');
}
