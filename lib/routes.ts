/**
 * The route table: which operation answers which method on which resource. The CDK app builds the
 * API Gateway resources from it, and local mode routes by the template those resources become
 * (infra/local/gateway/). Paths are relative to the `/v1` base.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface Route {
  /** The spec's operation name (the OpenAPI operationId). */
  readonly operationId: 'listPets' | 'createPet' | 'getPet';
  readonly method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders. */
  readonly resource: string;
  /** Module under `functions/` that exports the Lambda `handler`, without extension. */
  readonly functionName: 'list-pets' | 'create-pet' | 'get-pet';
  readonly deprecated?: boolean;
  /** For a deprecated route: the day it stops working (UTC), per spec §4.3. */
  readonly sunset?: string;
  /** For a deprecated route: the resource that replaces it. */
  readonly successor?: string;
}

/** The stage path prefix every base address ends with. */
export const API_BASE_PATH = '/v1';

/** Where the OpenAPI document is served, relative to the base address (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

export const routes: readonly Route[] = [
  { operationId: 'listPets', method: 'GET', resource: '/pets', functionName: 'list-pets' },
  { operationId: 'createPet', method: 'POST', resource: '/pets', functionName: 'create-pet' },
  {
    operationId: 'getPet',
    method: 'GET',
    resource: '/pets/{petId}',
    functionName: 'get-pet',
    deprecated: true,
    sunset: '2030-12-05',
    successor: '/pets',
  },
];

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
