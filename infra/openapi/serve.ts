/**
 * Serving the OpenAPI document at `GET /v1/openapi.json`, without authentication (it is public documentation): the mapping template a
 * stage's MOCK integration answers with, deployed and in local mode alike (docs/openapi.md).
 */
import { buildOpenApiDocument } from './document.ts';

/** API Gateway's limit on one mapping template (REST API quotas: 300 KB). */
export const MAPPING_TEMPLATE_MAX_BYTES = 300 * 1024;

/**
 * The document as an API Gateway mapping template (Velocity), what a stage and local mode serve: the committed document as compact JSON
 * in which every `$` and `#` (they occur only inside JSON strings, e.g.
 */
export function openApiMappingTemplate(): string {
  const template = JSON.stringify(buildOpenApiDocument()).replace(/\$/g, '\\u0024').replace(/#/g, '\\u0023');
  if (Buffer.byteLength(template) > MAPPING_TEMPLATE_MAX_BYTES) {
    throw new Error(`The OpenAPI document (${Buffer.byteLength(template)} bytes) exceeds API Gateway's mapping template limit`);
  }
  return template;
}
