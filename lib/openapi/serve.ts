/**
 * Serving the OpenAPI document at `GET /v1/openapi.json`, without authentication (it is public
 * documentation): the mapping template a stage's MOCK integration answers with, deployed and in
 * local mode alike (docs/openapi.md).
 */
import { buildOpenApiDocument, LOCAL_SERVER, type OpenApiDocument } from './document.ts';

/** API Gateway's limit on one mapping template (REST API quotas: 300 KB). */
export const MAPPING_TEMPLATE_MAX_BYTES = 300 * 1024;

/**
 * The document a stage serves: the committed one without local mode's server, which would point a
 * client of a deployed stage at its own machine. (Local mode serves this same template.)
 */
export function servedOpenApiDocument(): OpenApiDocument {
  const document = buildOpenApiDocument();
  return { ...document, servers: document.servers.filter((server) => server.url !== LOCAL_SERVER.url) };
}

/**
 * The document as an API Gateway mapping template (Velocity): compact JSON in which every `$` and
 * `#` (they occur only inside JSON strings, e.g. `$ref` and `#/components/…`) is written as the JSON
 * escape `\u0024` / `\u0023`, so Velocity finds no reference or directive and outputs the text as
 * it is, and a client's JSON parser reads back exactly the document.
 */
export function openApiMappingTemplate(): string {
  const template = JSON.stringify(servedOpenApiDocument()).replace(/\$/g, '\\u0024').replace(/#/g, '\\u0023');
  if (Buffer.byteLength(template) > MAPPING_TEMPLATE_MAX_BYTES) {
    throw new Error(`The OpenAPI document (${Buffer.byteLength(template)} bytes) exceeds API Gateway's mapping template limit`);
  }
  return template;
}
