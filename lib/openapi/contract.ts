/**
 * What the OpenAPI document says beyond the schemas and the operation descriptors (lib/operations/),
 * as data: the info, servers, tag and security scheme; what each parameter and error code means;
 * the answers the gateway makes by itself, each defined once by its component name; the response
 * headers, each defined once (its id is its component name, and the table gives its HTTP name,
 * description and schema). The builder (document.ts) turns this, the operation descriptors and the
 * zod schemas into the document.
 */
import { LIST_LIMIT } from '../domain/pet.ts';
import { REQUEST_ID_HEADER } from '../http/request-line.ts';
import { DEPRECATED_SINCE } from '../http/deprecation.ts';
import type { ErrorCode } from '../http/errors.ts';
import { MAX_BODY_BYTES, MAX_BODY_SIZE } from '../http/json-body.ts';
import { operations } from '../operations.ts';
import type { HeaderId } from '../operations/operation.ts';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH } from '../routes.ts';
import { type StageName, stackName } from '../stage-names.ts';
import type { JsonSchema } from './schemas.ts';
import {
  GATEWAY_RESPONSES_EXTENSION,
  type GatewayResponsesExtension,
  type InfoObject,
  type SecuritySchemeObject,
  type ServerObject,
  type TagObject,
} from './types.ts';

export const OPENAPI_VERSION = '3.1.1';
/** The interface version; its major version is the `/v1` of the base addresses. */
export const API_VERSION = '1.0.0';

/** Local mode's server: in the committed document, not in the one a stage serves (serve.ts). */
export const LOCAL_SERVER = {
  url: `http://127.0.0.1:3000${API_BASE_PATH}`,
  description: 'Local mode (`npm start`; another port with `--port` or `PORT`).',
} as const;

export const SECURITY_SCHEME = 'bearerAuth';
export const TAG = 'pets';

/** How the document names each deployed stage, in the order it lists them. */
const STAGE_TITLES = { production: 'Production', staging: 'Staging' } as const satisfies Record<StageName, string>;

export const INFO: InfoObject = {
  title: 'Pet Store API',
  version: API_VERSION,
  summary: 'List, add and read the animals of a pet store.',
  description:
    'The HTTP and JSON interface of the Pet Store service. Every operation needs an API key, sent as ' +
    '`Authorization: Bearer <API_KEY>`. Every error is an `Error` object as `application/json`, and every ' +
    'answer carries `X-Request-Id`. A request that matches no operation is answered by the gateway: ' +
    `\`${GATEWAY_RESPONSES_EXTENSION}\` gives those answers (an unknown path: 404; a known path with another ` +
    `method: 405). This document is served, without authentication, at \`${API_BASE_PATH}${OPENAPI_DOCUMENT_PATH}\`.`,
};

/** Each stage on its execute-api address, then local mode. */
export const SERVERS: readonly ServerObject[] = [
  ...(Object.entries(STAGE_TITLES) as [StageName, string][]).map(([stage, title]) => ({
    url: `https://{apiId}.execute-api.{region}.amazonaws.com/${stage}${API_BASE_PATH}`,
    description: `${title}: the stage's REST API on its execute-api address (or \`https://<custom domain>${API_BASE_PATH}\` when one is configured).`,
    variables: {
      apiId: {
        default: 'your-api-id',
        description: `The REST API id of the stage: the host of the \`BaseUrl\` output of the stack \`${stackName(stage)}\`.`,
      },
      region: { default: 'us-east-1', description: 'The AWS region the stage is deployed to.' },
    },
  })),
  LOCAL_SERVER,
];

export const TAGS: readonly TagObject[] = [{ name: TAG, description: 'The animals of the store.' }];

export const SECURITY_SCHEMES: Readonly<Record<string, SecuritySchemeObject>> = {
  [SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key, as `Authorization: Bearer <API_KEY>` (a key is `psk_` followed by 32 base64url characters).',
  },
};

export const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  limit: `Maximum number of animals returned, from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}.`,
  status: 'Return only the animals with this availability status (case-sensitive).',
  cursor:
    'Where the page starts: the opaque value from the previous page\'s `Link: <…>; rel="next"` header. It belongs to the `status` filter it was issued for.',
  petId: 'Identifier of the animal to retrieve.',
};

/** What each error code means, in the words of an operation's response. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  validation_failed:
    '`validation_failed`: the request body, a query or a path parameter is invalid; the message names every offending field.',
  invalid_cursor: '`invalid_cursor`: the `cursor` is damaged, truncated, or belongs to another `status` filter.',
  unauthorized: '`unauthorized`: the API key is missing, malformed, unknown, revoked or expired, or the scheme is not `Bearer`.',
  not_found: '`not_found`: no animal exists for `petId`.',
  method_not_allowed: '`method_not_allowed`: the path exists, the method does not; `Allow` lists the methods.',
  payload_too_large: `\`payload_too_large\`: the request body is larger than ${MAX_BODY_BYTES} bytes (${MAX_BODY_SIZE}).`,
  idempotency_key_reused: '`idempotency_key_reused`: the `Idempotency-Key` was already used with another body; nothing was created.',
  unsupported_media_type: '`unsupported_media_type`: the request body is not declared as `application/json` (UTF-8).',
  too_many_requests:
    "`too_many_requests`: the stage's throttle (answered by API Gateway) or a per-client limit of the stage's web ACL (answered by AWS WAF, without `X-Request-Id`) refused the request; retry after `Retry-After`.",
  internal_error: '`internal_error`: an unexpected error. It is logged under the request id; quote `X-Request-Id` when reporting it.',
  forbidden: '`forbidden`: refused by the gateway itself (no operation of this API answers 403 today).',
  gateway_timeout:
    '`gateway_timeout`: the function did not answer within the gateway timeout (it is bounded at 10 s, so this should not happen).',
  service_unavailable:
    '`service_unavailable`: the data store is throttled, unreachable or too slow to answer in time. Retry after `Retry-After` seconds; ' +
    'a create is safe to retry with an `Idempotency-Key`.',
};

/** Headers that come with an error code. */
export const ERROR_HEADERS: Partial<Record<ErrorCode, HeaderId>> = {
  unauthorized: 'WWWAuthenticate',
  method_not_allowed: 'Allow',
  service_unavailable: 'RetryAfter',
};

/**
 * Statuses API Gateway can also answer by itself for a route (infra/cdk/constructs/gateway-responses.ts):
 * a function that crashed (500), could not be invoked (503), or a stage throttle (429, on every
 * operation, as the TooManyRequests component; the web ACL's 429 too, without `X-Request-Id`). Such
 * answers carry the Error body but none of an operation's own headers, so those are not required on
 * these statuses.
 */
export const GATEWAY_MADE_STATUSES: ReadonlySet<number> = new Set([429, 500, 503]);

/** A header of a response: its id, or its id marked optional on this response. */
export type HeaderUse = HeaderId | { readonly id: HeaderId; readonly required: false };

/** The headers of every answer, listed first on each response. */
export const EVERY_ANSWER_HEADERS = ['XRequestId', 'Vary'] as const satisfies readonly HeaderId[];

/** The headers of every answer of a deprecated operation's function (lib/http/deprecation.ts). */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'SuccessorLink'] as const satisfies readonly HeaderId[];

export interface GatewayResponseComponent {
  /** The error code of the answer; its status is the code's (lib/http/errors.ts). */
  readonly code: ErrorCode;
  readonly description: string;
  /** The headers besides EVERY_ANSWER_HEADERS. */
  readonly headers: readonly HeaderUse[];
  /**
   * Who refers to it: every operation (under the code's status), or one key of the root extension
   * `x-gateway-responses` (the answers to requests that match no operation).
   */
  readonly usedBy: 'operations' | keyof GatewayResponsesExtension[typeof GATEWAY_RESPONSES_EXTENSION];
}

/** The answers the gateway makes by itself, by response component name. */
export const GATEWAY_RESPONSE_COMPONENTS = {
  NotFound: {
    code: 'not_found',
    description: '`not_found`: no such path. Answered by the gateway for a path that no operation serves, before authentication.',
    headers: [],
    usedBy: 'unknownPath',
  },
  MethodNotAllowed: {
    code: 'method_not_allowed',
    description: `${ERROR_DESCRIPTIONS.method_not_allowed} Answered by the gateway, before authentication.`,
    headers: ['Allow'],
    usedBy: 'methodNotAllowed',
  },
  TooManyRequests: {
    code: 'too_many_requests',
    description: ERROR_DESCRIPTIONS.too_many_requests,
    // AWS WAF answers before API Gateway, so its 429 has no request id.
    headers: [
      { id: 'XRequestId', required: false },
      { id: 'RetryAfter', required: false },
    ],
    usedBy: 'operations',
  },
} as const satisfies Record<string, GatewayResponseComponent>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const deprecation = operations.find((o) => o.deprecation)?.deprecation;

export interface HeaderDefinition {
  /** The HTTP header name. */
  readonly name: string;
  readonly description: string;
  /** Present on every answer that lists it; an optional one is written inline, never by reference. */
  readonly required: boolean;
  readonly schema: JsonSchema;
}

/** Every response header the document describes, by component id. */
export const HEADERS = {
  XRequestId: {
    name: REQUEST_ID_HEADER,
    description: "The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  Vary: {
    name: 'Vary',
    description:
      'The request headers the answer depends on: `Accept-Encoding` (the gateway compresses a large body for a client that accepts gzip or deflate), and `Origin` on a stage that allows browser origins.',
    required: true,
    schema: { type: 'string', pattern: '(^|, )Accept-Encoding(,|$)' },
  },
  Location: {
    name: 'Location',
    description: 'The absolute URL of the new animal (`…/v1/pets/{id}`).',
    required: true,
    schema: { type: 'string', format: 'uri', pattern: `${escapeRegExp(`${API_BASE_PATH}/pets/`)}[1-9][0-9]*$` },
  },
  IdempotentReplayed: {
    name: 'Idempotent-Replayed',
    description: 'Present, as `true`, when the animal was created by an earlier request with the same `Idempotency-Key`.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  NextPageLink: {
    name: 'Link',
    description: 'Present when another page follows: `<URL of the next page>; rel="next"` (RFC 8288).',
    required: false,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  WWWAuthenticate: {
    name: 'WWW-Authenticate',
    description:
      'The authentication challenge (RFC 6750): `Bearer realm="petstore"`, with `error="invalid_token"` when a key was given but is not valid.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="petstore"(, error="invalid_token")?$' },
  },
  Allow: {
    name: 'Allow',
    description: 'The methods the path allows.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
  },
  RetryAfter: {
    name: 'Retry-After',
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Deprecation: {
    name: 'Deprecation',
    description: 'The operation is deprecated, since the date given (RFC 9745).',
    required: true,
    schema: { type: 'string', const: DEPRECATED_SINCE },
  },
  Sunset: {
    name: 'Sunset',
    description: 'The operation stops working at this time (RFC 8594).',
    required: true,
    schema: deprecation ? { type: 'string', const: deprecation.sunset } : { type: 'string' },
  },
  SuccessorLink: {
    name: 'Link',
    description: 'The operation that replaces this one: `<URL>; rel="successor-version"` (RFC 5829).',
    required: true,
    schema: {
      type: 'string',
      pattern: `^<[^>]*${escapeRegExp(API_BASE_PATH + (deprecation?.successor ?? ''))}>; rel="successor-version"$`,
    },
  },
} as const satisfies Record<HeaderId, HeaderDefinition>;
