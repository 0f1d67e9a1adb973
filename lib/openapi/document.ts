/**
 * The OpenAPI 3.1 document of the service, built in code: paths and operations from the route
 * table (lib/routes.ts), every schema from the zod schemas (schemas.ts), status codes and error
 * codes from what the handlers and the middleware chain actually answer (lib/http). The committed
 * `openapi.json` is this object, written by `npm run openapi`; a test keeps the two equal.
 */
import { LIST_LIMIT } from '../domain/pet.ts';
import { IdempotencyKeyHeader } from '../domain/requests.ts';
import { REQUEST_ID_HEADER } from '../http/access-log.ts';
import { DEPRECATED_SINCE } from '../http/deprecation.ts';
import { ERROR_CODES, type ErrorCode } from '../http/errors.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../http/idempotency-key.ts';
import { MAX_BODY_BYTES } from '../http/json-body.ts';
import { JSON_CONTENT_TYPE } from '../http/response.ts';
import { API_BASE_PATH, type HttpMethod, type Route, resources, routes } from '../routes.ts';
import { type ComponentId, componentRef, generateSchemas, type JsonSchema, type ParameterSchemaId, standaloneSchema } from './schemas.ts';

export const OPENAPI_VERSION = '3.1.1';
/** The interface version (spec §9); its major version is the `/v1` of the base addresses. */
export const API_VERSION = '1.0.0';
/** Where the document is served, relative to the base address (see docs/openapi.md). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';
/** Root extension: the answers of the gateway to requests that match no operation. */
export const GATEWAY_RESPONSES_EXTENSION = 'x-gateway-responses';

// ---- The shape of the document (the subset of OpenAPI 3.1 this service uses) ----

export interface Reference {
  readonly $ref: string;
}
export interface HeaderObject {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}
export interface MediaTypeObject {
  readonly schema: JsonSchema;
}
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, HeaderObject | Reference>;
  readonly content?: Record<string, MediaTypeObject>;
}
export interface ParameterObject {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly description: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}
export interface OperationObject {
  readonly operationId: Route['operationId'];
  readonly summary: string;
  readonly description: string;
  readonly tags: string[];
  readonly deprecated?: true;
  readonly security: Record<string, string[]>[];
  readonly parameters?: ParameterObject[];
  readonly requestBody?: { description: string; required: true; content: Record<string, MediaTypeObject> };
  readonly responses: Record<string, ResponseObject | Reference>;
}
export type PathItemObject = Partial<Record<Lowercase<HttpMethod>, OperationObject>>;
export interface ServerObject {
  readonly url: string;
  readonly description: string;
  readonly variables?: Record<string, { default: string; description: string }>;
}
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { title: string; version: string; summary: string; description: string };
  readonly servers: ServerObject[];
  readonly tags: { name: string; description: string }[];
  readonly paths: Record<string, PathItemObject>;
  readonly components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
  };
  readonly [GATEWAY_RESPONSES_EXTENSION]: { unknownPath: Reference; methodNotAllowed: Reference };
}

// ---- What the document says beyond the schemas ----

const SECURITY_SCHEME = 'bearerAuth';
const TAG = 'pets';

/** The deployed stages (infra/stages.ts's STAGE_NAMES; a test keeps them equal). */
const STAGES = [
  { stage: 'production', description: 'Production' },
  { stage: 'staging', description: 'Staging' },
] as const;

interface OperationContract {
  readonly summary: string;
  readonly description: string;
  readonly query?: ParameterSchemaId;
  readonly path?: ParameterSchemaId;
  readonly headers?: readonly ParameterObject[];
  readonly requestBody?: { readonly schema: ComponentId; readonly description: string };
  readonly success: {
    readonly status: 200 | 201;
    readonly description: string;
    readonly schema: ComponentId;
    readonly headers: readonly HeaderId[];
  };
  /** Every error code the operation's function can answer (the chain in lib/http/api-handler.ts). */
  readonly errors: readonly ErrorCode[];
}

const OPERATIONS: Record<Route['operationId'], OperationContract> = {
  listPets: {
    summary: 'List animals',
    description:
      'A page of animals, optionally filtered by availability status: in id (creation) order with `status`, in no ' +
      'particular order without it. Following the pages visits every animal that exists throughout, once. When more follow, the ' +
      '`Link` header with `rel="next"` gives the URL of the next page (it keeps `limit` and `status` and adds ' +
      'the opaque `cursor`); the last page has no such header.',
    query: 'ListPetsQuery',
    success: { status: 200, description: 'A page of animals (possibly empty).', schema: 'Pets', headers: ['NextPageLink'] },
    errors: ['validation_failed', 'invalid_cursor', 'unauthorized', 'internal_error', 'service_unavailable'],
  },
  createPet: {
    summary: 'Add an animal',
    description: 'Stores a new animal; the service assigns its `id`. `Location` gives the URL of the new animal.',
    headers: [
      {
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        description:
          'Makes the create safe to retry: every request with the same key and the same body creates the animal once ' +
          'and answers with it; the same key with another body is a 422. 1 to 255 visible ASCII characters other than `"` ' +
          '(a UUID, say), bare or as a quoted string; scoped to the API key, remembered for 24 hours.',
        required: false,
        schema: standaloneSchema(IdempotencyKeyHeader),
      },
    ],
    requestBody: { schema: 'NewPet', description: 'The animal to add, as a JSON object of at most 64 KiB.' },
    success: {
      status: 201,
      description: 'Animal added (or, with an `Idempotency-Key` seen before, the animal that key added); the body carries the assigned `id`.',
      schema: 'Pet',
      headers: ['Location', 'IdempotentReplayed'],
    },
    errors: [
      'validation_failed',
      'unauthorized',
      'payload_too_large',
      'unsupported_media_type',
      'idempotency_key_reused',
      'internal_error',
      'service_unavailable',
    ],
  },
  getPet: {
    summary: 'Get an animal (deprecated)',
    description: 'One animal, by its identifier.',
    path: 'PetIdPath',
    success: { status: 200, description: 'The animal.', schema: 'Pet', headers: [] },
    errors: ['validation_failed', 'unauthorized', 'not_found', 'internal_error', 'service_unavailable'],
  },
};

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  limit: `Maximum number of animals returned, from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}.`,
  status: 'Return only the animals with this availability status (case-sensitive).',
  cursor: 'Where the page starts: the opaque value from the previous page\'s `Link: <…>; rel="next"` header. It belongs to the `status` filter it was issued for.',
  petId: 'Identifier of the animal to retrieve.',
};

/** What each error code means, in the words of an operation's response. */
const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  validation_failed: '`validation_failed`: the request body, a query or a path parameter is invalid; the message names every offending field.',
  invalid_cursor: '`invalid_cursor`: the `cursor` is damaged, truncated, or belongs to another `status` filter.',
  unauthorized: '`unauthorized`: the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.',
  not_found: '`not_found`: no animal exists for `petId`.',
  method_not_allowed: '`method_not_allowed`: the path exists, the method does not; `Allow` lists the methods.',
  payload_too_large: `\`payload_too_large\`: the request body is larger than ${MAX_BODY_BYTES} bytes (64 KiB).`,
  idempotency_key_reused: '`idempotency_key_reused`: the `Idempotency-Key` was already used with another body; nothing was created.',
  unsupported_media_type: '`unsupported_media_type`: the request body is not declared as `application/json` (UTF-8).',
  too_many_requests: "`too_many_requests`: the stage's throttle refused the request (answered by API Gateway); retry later.",
  internal_error: '`internal_error`: an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.',
  forbidden: '`forbidden`: refused by the gateway itself (no operation of this API answers 403 today).',
  gateway_timeout: '`gateway_timeout`: the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).',
  service_unavailable:
    '`service_unavailable`: the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; ' +
    'a create is safe to retry with an `Idempotency-Key`.',
};

/** Headers that come with an error code. */
const ERROR_HEADERS: Partial<Record<ErrorCode, HeaderId>> = {
  unauthorized: 'WWWAuthenticate',
  method_not_allowed: 'Allow',
  service_unavailable: 'RetryAfter',
};

/**
 * Statuses API Gateway can also answer by itself for a route (infra/constructs/gateway-errors.ts):
 * a function that crashed (500), could not be invoked (503), or a stage throttle (429, on every
 * operation, as the TooManyRequests component). Such answers carry `X-Request-Id` and the Error body
 * but none of an operation's own headers, so those are not required on these statuses.
 */
const GATEWAY_MADE_STATUSES: ReadonlySet<number> = new Set([429, 500, 503]);
const GATEWAY_ERRORS: readonly ErrorCode[] = ['too_many_requests'];

/** The response components of the gateway-made errors that operations reference. */
const RESPONSE_NAMES: Partial<Record<number, string>> = { 429: 'TooManyRequests' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function headerComponents(): Record<HeaderId, HeaderObject> {
  const deprecated = routes.find((r) => r.deprecated && r.sunset && r.successor);
  const sunset = deprecated?.sunset ? new Date(`${deprecated.sunset}T00:00:00Z`).toUTCString() : undefined;
  return {
    XRequestId: {
      description: 'The request id (API Gateway\'s); the service logs every request under it. Quote it when reporting a problem.',
      required: true,
      schema: { type: 'string', minLength: 1 },
    },
    Location: {
      description: 'The absolute URL of the new animal (`…/v1/pets/{id}`).',
      required: true,
      schema: { type: 'string', format: 'uri', pattern: `${escapeRegExp(`${API_BASE_PATH}/pets/`)}[1-9][0-9]*$` },
    },
    IdempotentReplayed: {
      description: 'Present, as `true`, when the animal was created by an earlier request with the same `Idempotency-Key`.',
      required: false,
      schema: { type: 'string', const: 'true' },
    },
    NextPageLink: {
      description: 'Present when another page follows: `<URL of the next page>; rel="next"` (RFC 8288).',
      required: false,
      schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
    },
    WWWAuthenticate: {
      description: 'The authentication challenge (RFC 6750): `Bearer realm="petstore"`, with `error="invalid_token"` when a key was given but is not valid.',
      required: true,
      schema: { type: 'string', pattern: '^Bearer realm="petstore"(, error="invalid_token")?$' },
    },
    Allow: {
      description: 'The methods the path allows.',
      required: true,
      schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
    },
    RetryAfter: {
      description: 'Seconds to wait before retrying.',
      required: true,
      schema: { type: 'integer', minimum: 0 },
    },
    Deprecation: {
      description: 'The operation is deprecated, since the date given (RFC 9745).',
      required: true,
      schema: { type: 'string', const: DEPRECATED_SINCE },
    },
    Sunset: {
      description: 'The operation stops working at this time (RFC 8594).',
      required: true,
      schema: sunset ? { type: 'string', const: sunset } : { type: 'string' },
    },
    SuccessorLink: {
      description: 'The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).',
      required: true,
      schema: {
        type: 'string',
        pattern: `^<[^>]*${escapeRegExp(API_BASE_PATH + (deprecated?.successor ?? ''))}>; rel="successor-version"$`,
      },
    },
  };
}

type HeaderId =
  | 'XRequestId'
  | 'Location'
  | 'IdempotentReplayed'
  | 'NextPageLink'
  | 'WWWAuthenticate'
  | 'Allow'
  | 'RetryAfter'
  | 'Deprecation'
  | 'Sunset'
  | 'SuccessorLink';

/** The HTTP header name each header component describes. */
const HEADER_NAMES: Record<HeaderId, string> = {
  XRequestId: REQUEST_ID_HEADER,
  Location: 'Location',
  IdempotentReplayed: 'Idempotent-Replayed',
  NextPageLink: 'Link',
  WWWAuthenticate: 'WWW-Authenticate',
  Allow: 'Allow',
  RetryAfter: 'Retry-After',
  Deprecation: 'Deprecation',
  Sunset: 'Sunset',
  SuccessorLink: 'Link',
};

/** A header of a response: by reference, or inline where it is optional although usually required. */
type HeaderUse = HeaderId | { readonly id: HeaderId; readonly required: false };

function responseHeaders(uses: readonly HeaderUse[], components: Record<HeaderId, HeaderObject>): Record<string, HeaderObject | Reference> {
  return Object.fromEntries(
    uses.map((use) => {
      if (typeof use === 'string') return [HEADER_NAMES[use], { $ref: `#/components/headers/${use}` }];
      const component = components[use.id];
      return [HEADER_NAMES[use.id], component.required ? { ...component, required: false } : { $ref: `#/components/headers/${use.id}` }];
    }),
  );
}

const jsonContent = (schema: JsonSchema): Record<string, MediaTypeObject> => ({ [JSON_CONTENT_TYPE]: { schema } });

/** The Error body, narrowed to the codes of one status and to that status. */
function errorSchema(status: number, codes: readonly ErrorCode[]): JsonSchema {
  return {
    allOf: [
      componentRef('Error'),
      { type: 'object', properties: { code: { enum: [...codes] }, status: { const: status } } },
    ],
  };
}

/** One response per status, from the error codes an answer can carry. */
function errorResponses(
  codes: readonly ErrorCode[],
  operationHeaders: readonly HeaderId[],
  headers: Record<HeaderId, HeaderObject>,
): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, statusCodes] of byStatus) {
    const own = operationHeaders.map((id): HeaderUse => (GATEWAY_MADE_STATUSES.has(status) ? { id, required: false } : id));
    responses[String(status)] = {
      description: [
        ...statusCodes.map((code) => ERROR_DESCRIPTIONS[code]),
        ...(GATEWAY_MADE_STATUSES.has(status) && own.length > 0
          ? ['API Gateway can give this status too (a function that failed or could not run); its answer lacks the operation\'s own headers.']
          : []),
      ].join(' '),
      headers: responseHeaders(['XRequestId', ...statusCodes.flatMap((code) => ERROR_HEADERS[code] ?? []), ...own], headers),
      content: jsonContent(errorSchema(status, statusCodes)),
    };
  }
  return responses;
}

/** Responses the gateway makes: components, referenced by operations and by the root extension. */
function gatewayResponses(headers: Record<HeaderId, HeaderObject>): Record<string, ResponseObject> {
  return {
    NotFound: {
      description: '`not_found`: no such path. Answered by the gateway for a path that no operation serves, before authentication.',
      headers: responseHeaders(['XRequestId'], headers),
      content: jsonContent(errorSchema(404, ['not_found'])),
    },
    MethodNotAllowed: {
      description: `${ERROR_DESCRIPTIONS.method_not_allowed} Answered by the gateway, before authentication.`,
      headers: responseHeaders(['XRequestId', 'Allow'], headers),
      content: jsonContent(errorSchema(405, ['method_not_allowed'])),
    },
    TooManyRequests: {
      description: ERROR_DESCRIPTIONS.too_many_requests,
      headers: responseHeaders(['XRequestId', { id: 'RetryAfter', required: false }], headers),
      content: jsonContent(errorSchema(429, ['too_many_requests'])),
    },
  };
}

interface BuildContext {
  readonly schemas: ReturnType<typeof generateSchemas>;
  readonly headers: Record<HeaderId, HeaderObject>;
}

function operation(route: Route, contract: OperationContract, context: BuildContext): OperationObject {
  const parameters: ParameterObject[] = [];
  for (const [where, id] of [['path', contract.path], ['query', contract.query]] as const) {
    if (!id) continue;
    const { properties, required } = context.schemas.parameters[id];
    for (const [name, schema] of Object.entries(properties)) {
      const description = PARAMETER_DESCRIPTIONS[name];
      if (!description) throw new Error(`Parameter ${name} of ${route.operationId} has no description in PARAMETER_DESCRIPTIONS`);
      parameters.push({ name, in: where, description, required: where === 'path' || required.includes(name), schema });
    }
  }
  parameters.push(...(contract.headers ?? []));

  const deprecation: HeaderId[] = route.deprecated ? ['Deprecation', 'Sunset', 'SuccessorLink'] : [];
  const { success } = contract;
  const responses: Record<string, ResponseObject | Reference> = {
    [String(success.status)]: {
      description: success.description,
      headers: responseHeaders(['XRequestId', ...success.headers, ...deprecation], context.headers),
      content: jsonContent(componentRef(success.schema)),
    },
    ...errorResponses(contract.errors, deprecation, context.headers),
  };
  for (const code of GATEWAY_ERRORS) {
    const status = ERROR_CODES[code];
    const name = RESPONSE_NAMES[status];
    if (!name) throw new Error(`No response component for the gateway's ${status}`);
    responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  return {
    operationId: route.operationId,
    summary: contract.summary,
    description: route.deprecated ? `${contract.description} ${deprecationDescription(route)}` : contract.description,
    tags: [TAG],
    ...(route.deprecated ? { deprecated: true as const } : {}),
    security: [{ [SECURITY_SCHEME]: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(contract.requestBody
      ? {
          requestBody: {
            description: contract.requestBody.description,
            required: true as const,
            content: jsonContent(componentRef(contract.requestBody.schema)),
          },
        }
      : {}),
    responses: sorted,
  };
}

function deprecationDescription(route: Route): string {
  const sunset = route.sunset ? new Date(`${route.sunset}T00:00:00Z`).toUTCString() : 'a date to be announced';
  const successor = routes.find((r) => r.resource === route.successor && r.method === 'GET');
  return (
    `Deprecated: this operation stops working on ${sunset}. ` +
    `Use \`GET ${route.successor}\`${successor ? ` (\`${successor.operationId}\`)` : ''} with the \`status\` filter instead. ` +
    'Every answer of the function, errors included, carries `Deprecation`, `Sunset` and a `Link` to the successor.'
  );
}

/** Builds the whole document. Pure and deterministic: the same code gives the same document. */
export function buildOpenApiDocument(): OpenApiDocument {
  const context: BuildContext = { schemas: generateSchemas(), headers: headerComponents() };
  const paths: Record<string, PathItemObject> = {};
  for (const resource of resources) {
    const item: PathItemObject = {};
    for (const route of routes.filter((r) => r.resource === resource)) {
      item[route.method.toLowerCase() as Lowercase<HttpMethod>] = operation(route, OPERATIONS[route.operationId], context);
    }
    paths[resource] = item;
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Pet Store API',
      version: API_VERSION,
      summary: 'List, add and read the animals of a pet store.',
      description:
        'The HTTP and JSON interface of the Pet Store service. Every operation needs an API key, sent as ' +
        '`Authorization: Bearer <API_KEY>`. Every error is an `Error` object as `application/json`, and every ' +
        'answer carries `X-Request-Id`. A request that matches no operation is answered by the gateway: ' +
        `\`${GATEWAY_RESPONSES_EXTENSION}\` gives those answers (an unknown path: 404; a known path with another ` +
        `method: 405). This document is served, without authentication, at \`${API_BASE_PATH}${OPENAPI_DOCUMENT_PATH}\`.`,
    },
    servers: [
      ...STAGES.map(({ stage, description }) => ({
        url: `https://{apiId}.execute-api.{region}.amazonaws.com/${stage}${API_BASE_PATH}`,
        description: `${description}: the stage's REST API on its execute-api address (or \`https://<custom domain>${API_BASE_PATH}\` when one is configured).`,
        variables: {
          apiId: {
            default: 'your-api-id',
            description: `The REST API id of the stage: the host of the \`BaseUrl\` output of the stack \`PetStore-${stage}\`.`,
          },
          region: { default: 'us-east-1', description: 'The AWS region the stage is deployed to.' },
        },
      })),
      { url: `http://127.0.0.1:3000${API_BASE_PATH}`, description: 'Local mode (`npm start`; the port follows `PORT`).' },
    ],
    tags: [{ name: TAG, description: 'The animals of the store.' }],
    paths,
    components: {
      schemas: context.schemas.components,
      responses: gatewayResponses(context.headers),
      headers: context.headers,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key, as `Authorization: Bearer <API_KEY>` (a key is `psk_` followed by 32 base64url characters).',
        },
      },
    },
    [GATEWAY_RESPONSES_EXTENSION]: {
      unknownPath: { $ref: '#/components/responses/NotFound' },
      methodNotAllowed: { $ref: '#/components/responses/MethodNotAllowed' },
    },
  };
}

/** The committed form: 2-space JSON with a trailing newline. */
export function serializeOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
