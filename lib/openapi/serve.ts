/**
 * Serving the OpenAPI document at `GET /v1/openapi.json`, without authentication (it is public
 * documentation): the local API's answer, and the mapping template a deployed stage's MOCK
 * integration answers with (docs/openapi.md).
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../http/access-log.ts';
import { HttpError } from '../http/errors.ts';
import { errorResult, JSON_CONTENT_TYPE } from '../http/response.ts';
import { API_BASE_PATH } from '../routes.ts';
import { buildOpenApiDocument, OPENAPI_DOCUMENT_PATH, serializeOpenApiDocument } from './document.ts';

export { OPENAPI_DOCUMENT_PATH };

/** API Gateway's limit on one mapping template (REST API quotas: 300 KB). */
export const MAPPING_TEMPLATE_MAX_BYTES = 300 * 1024;

let serialized: string | undefined;
const documentText = (): string => (serialized ??= serializeOpenApiDocument(buildOpenApiDocument()));

/**
 * The local API's answer for a request to the document's path, or undefined for any other path:
 * 200 with the document for GET, 405 for other methods.
 */
export function openApiDocumentResponse(method: string, path: string, requestId: string): APIGatewayProxyResult | undefined {
  // One trailing slash is ignored, as API Gateway and the route table (lib/routes.ts) ignore it.
  if (path.replace(/\/$/, '') !== `${API_BASE_PATH}${OPENAPI_DOCUMENT_PATH}`) return undefined;
  const common = { [REQUEST_ID_HEADER]: requestId, 'X-Content-Type-Options': 'nosniff' };
  if (method !== 'GET') {
    // As the deployed 405 mock answers: an error is never cached.
    const error = new HttpError('method_not_allowed', `Method ${method} is not allowed on ${path}. Allowed: GET.`, { Allow: 'GET' });
    const result = errorResult(error);
    return { ...result, headers: { ...result.headers, ...common, 'Cache-Control': 'no-store' } };
  }
  return { statusCode: 200, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...common, 'Cache-Control': 'no-cache' }, body: documentText() };
}

/**
 * The document as an API Gateway mapping template (Velocity): compact JSON in which every `$` and
 * `#` (they occur only inside JSON strings, e.g. `$ref` and `#/components/…`) is written as the JSON
 * escape `\u0024` / `\u0023`, so Velocity finds no reference or directive and outputs the text as
 * it is, and a client's JSON parser reads back exactly the document.
 */
export function openApiMappingTemplate(): string {
  const template = JSON.stringify(buildOpenApiDocument()).replace(/\$/g, '\\u0024').replace(/#/g, '\\u0023');
  if (Buffer.byteLength(template) > MAPPING_TEMPLATE_MAX_BYTES) {
    throw new Error(`The OpenAPI document (${Buffer.byteLength(template)} bytes) exceeds API Gateway's mapping template limit`);
  }
  return template;
}
