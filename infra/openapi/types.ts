/**
 * The OpenAPI 3.1 types of the document: `openapi-types`' OpenAPIV3_1, narrowed where this document promises more (every operation has
 * responses, every component map the builder fills is there) and extended by the root `x-gateway-responses`.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { HttpMethod } from '#lib/operations/operation.ts';
import type { JsonSchema } from './schemas.ts';

export type Reference = OpenAPIV3_1.ReferenceObject;
export type HeaderObject = OpenAPIV3_1.HeaderObject;
export type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;
export type ResponseObject = OpenAPIV3_1.ResponseObject;
export type ParameterObject = OpenAPIV3_1.ParameterObject;
export type ServerObject = OpenAPIV3_1.ServerObject;
export type InfoObject = OpenAPIV3_1.InfoObject;
export type TagObject = OpenAPIV3_1.TagObject;
export type SecuritySchemeObject = OpenAPIV3_1.SecuritySchemeObject;
export type SchemaObject = OpenAPIV3_1.SchemaObject;

export type OperationObject = OpenAPIV3_1.OperationObject & { readonly responses: Record<string, ResponseObject | Reference> };
export type PathItemObject = Partial<Record<Lowercase<HttpMethod>, OperationObject>>;

/** Root extension: the answers of the gateway to requests that match no operation. */
export const GATEWAY_RESPONSES_EXTENSION = 'x-gateway-responses';

export interface GatewayResponsesExtension {
  readonly [GATEWAY_RESPONSES_EXTENSION]: { readonly unknownPath: Reference; readonly methodNotAllowed: Reference };
}

export type OpenApiDocument = Omit<OpenAPIV3_1.Document<GatewayResponsesExtension>, 'paths' | 'components'> &
  GatewayResponsesExtension & {
    readonly servers: ServerObject[];
    readonly paths: Record<string, PathItemObject>;
    readonly components: Required<Pick<OpenAPIV3_1.ComponentsObject, 'schemas' | 'responses' | 'headers' | 'securitySchemes'>>;
  };

/**
 * zod emits JSON Schema 2020-12, the dialect OpenAPI 3.1 embeds; openapi-types' SchemaObject is a
 * narrower TypeScript view of the same thing. The one place the two meet.
 */
export const asSchema = (schema: JsonSchema): SchemaObject => schema as SchemaObject;

/** The same, where openapi-types (12.1) types a schema with its OpenAPI 3.0 view: parameters and headers. */
export const asParameterSchema = (schema: JsonSchema): NonNullable<ParameterObject['schema']> =>
  schema as NonNullable<ParameterObject['schema']>;
