// From the operation descriptors; paths relative to `/v1`.
import { type ApiOperation, operations } from './operations.ts';
import type { HttpMethod } from './operations/operation.ts';

export type { HttpMethod };
export { API_BASE_PATH } from './http/urls.ts';

/** Where the OpenAPI document is served, relative to the base address (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** The methods of the public documents (the OpenAPI document, the reference page): HEAD wherever GET is. */
export const PUBLIC_DOCUMENT_METHODS = ['GET', 'HEAD'] as const;

export type Route = Pick<ApiOperation, 'operationId' | 'method' | 'resource' | 'functionId'>;

export const routes: readonly Route[] = operations;

export const resources: readonly string[] = [...new Set(routes.map((r) => r.resource))];

/** The methods a resource allows, for the `Allow` header of a 405. */
export function allowedMethods(resource: string): HttpMethod[] {
  return routes.filter((r) => r.resource === resource).map((r) => r.method);
}
