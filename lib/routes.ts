/**
 * The route table: which operation answers which method on which resource. The CDK app builds the
 * API Gateway resources from it, and local mode routes by the template those resources become
 * (infra/local/gateway/). Paths are relative to the `/v1` base.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

interface RouteDefinition {
  /** The spec's operation name (the OpenAPI operationId). */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders. */
  readonly resource: string;
  /** Module under `functions/` that exports the Lambda `handler`, without extension. */
  readonly functionName: string;
  readonly deprecated?: boolean;
  /**
   * For a deprecated route: when it stops working, as the HTTP date the `Sunset` header carries
   * (RFC 8594), e.g. `Thu, 05 Dec 2030 00:00:00 GMT`.
   */
  readonly sunset?: string;
  /** For a deprecated route: the resource that replaces it. */
  readonly successor?: string;
}

/** The stage path prefix every base address ends with. */
export const API_BASE_PATH = '/v1';

/** Where the OpenAPI document is served, relative to the base address (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** Midnight UTC of `day` (`2030-12-05`) as an HTTP date. */
const httpDate = (day: string): string => new Date(`${day}T00:00:00Z`).toUTCString();

const ROUTES = [
  { operationId: 'listPets', method: 'GET', resource: '/pets', functionName: 'list-pets' },
  { operationId: 'createPet', method: 'POST', resource: '/pets', functionName: 'create-pet' },
  {
    operationId: 'getPet',
    method: 'GET',
    resource: '/pets/{petId}',
    functionName: 'get-pet',
    deprecated: true,
    sunset: httpDate('2030-12-05'),
    successor: '/pets',
  },
] as const satisfies readonly RouteDefinition[];

export type OperationId = (typeof ROUTES)[number]['operationId'];
export type FunctionName = (typeof ROUTES)[number]['functionName'];

export interface Route extends RouteDefinition {
  readonly operationId: OperationId;
  readonly functionName: FunctionName;
}

export const routes: readonly Route[] = ROUTES;

export function routeFor(operationId: Route['operationId']): Route {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No route for ${operationId}`);
  return route;
}

/** Every distinct resource path, in route-table order. */
export const resources: readonly string[] = [...new Set(routes.map((r) => r.resource))];

/** The methods a resource allows, for the `Allow` header of a 405. */
export function allowedMethods(resource: string): HttpMethod[] {
  return routes.filter((r) => r.resource === resource).map((r) => r.method);
}
