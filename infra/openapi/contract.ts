/**
 * What the OpenAPI document says beyond the schemas and the operation descriptors (lib/operations/), as data: the info, servers, tag
 * and security scheme; what each parameter and error code means; the answers the gateway makes by itself, each defined once by its
 * component name; the response headers, each defined once (its id is its component name, and the table gives its HTTP name, description
 * and schema). The builder (document.ts) turns this, the operation descriptors and the zod schemas into the document.
 */
import { EXAMPLE_PET, LIST_LIMIT } from '#lib/domain/pet.ts';
import { BEARER_CHALLENGE } from '#lib/http/bearer-auth.ts';
import { encodeCursor } from '#lib/http/cursor.ts';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';
import { DEPRECATED_SINCE } from '#lib/http/deprecation.ts';
import { type ErrorCode, ERRORS } from '#lib/http/errors.ts';
import { methodNotAllowedMessage, NOT_FOUND_MESSAGE } from '#lib/http/gateway-errors.ts';
import { operations } from '#lib/operations.ts';
import { API_BASE_PATH, allowedMethods, OPENAPI_DOCUMENT_PATH, resources } from '#lib/routes.ts';
import { type StageName, stackName } from '#lib/stage-names.ts';
import { REFERENCE_PAGE_PATH } from '#lib/openapi/reference-page.ts';
import { WAF_WINDOW_SECONDS } from '../cdk/capacity.ts';
import { TIMEOUT_SECONDS } from '../cdk/function-limits.ts';
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
export const API_VERSION = '1.2.1';

export const SECURITY_SCHEME = 'bearerAuth';
export const TAG = 'pets';

/** How the document names each deployed stage, in the order it lists them. */
const STAGE_TITLES = { production: 'Production', staging: 'Staging' } as const satisfies Record<StageName, string>;

export const INFO: InfoObject = {
  title: 'Pet Store API',
  version: API_VERSION,
  summary: 'The animals of a pet store, over HTTP and JSON.',
  description:
    'The HTTP and JSON interface of the Pet Store service. Every operation needs an API key, sent as ' +
    '`Authorization: Bearer <API_KEY>`. Every error is an `Error` object as `application/json`, and every ' +
    "answer of the stage carries `X-Request-Id` (the web ACL's 401, 403 and 429, made before the stage, do not; its 413 carries `edge`). " +
    'A request that matches no operation is answered by the gateway, whatever its `Content-Type`: ' +
    `\`${GATEWAY_RESPONSES_EXTENSION}\` gives those answers (an unknown path: 404; a known path with another ` +
    `method: 405). This document is served, without authentication, at \`${API_BASE_PATH}${OPENAPI_DOCUMENT_PATH}\`; ` +
    `it and the reference page (\`${API_BASE_PATH}${REFERENCE_PAGE_PATH}\`) answer GET, and another method there gets the 405 of ` +
    `\`${GATEWAY_RESPONSES_EXTENSION}\`.`,
};

/** Each stage on its execute-api address. */
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
];

export const TAGS: readonly TagObject[] = [{ name: TAG, description: 'The animals of the store.' }];

export const SECURITY_SCHEMES: Readonly<Record<string, SecuritySchemeObject>> = {
  [SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key, as `Authorization: Bearer <API_KEY>` (a key is `psk_` followed by 32 base64url characters).',
  },
};

/** The base address the examples use: the first server's, its variables at their defaults (same-origin for a client of it). */
const EXAMPLE_BASE_URL = SERVERS[0]?.url.replace(/\{(\w+)\}/g, (_, name: string) => SERVERS[0]?.variables?.[name]?.default ?? name);

export const PARAMETERS: Record<string, { readonly description: string; readonly example: unknown }> = {
  limit: { description: `Maximum number of animals returned, from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}.`, example: 10 },
  status: { description: 'Return only the animals with this availability status (case-sensitive).', example: EXAMPLE_PET.status },
  cursor: {
    description:
      'Where the page starts: the opaque value from the previous page\'s `Link: <…>; rel="next"` header. It belongs to the `status` filter it was issued for.',
    example: encodeCursor(EXAMPLE_PET.status, EXAMPLE_PET.id),
  },
  petId: { description: 'Identifier of the animal.', example: EXAMPLE_PET.id },
};

/**
 * What a 400 `validation_failed` means for an operation: the parts of a request it reads (its
 * descriptor). One that declares no query parameters does not read the query string at all.
 */
export function validationFailed(reads: { body: boolean; path: readonly string[]; query: boolean; headers: readonly string[] }): string {
  const parts = [
    ...(reads.body ? ['the request body'] : []),
    ...reads.path.map((name) => `the path parameter \`${name}\``),
    ...(reads.query ? ['a query parameter (an unknown or repeated one too)'] : []),
    ...reads.headers.map((name) => `the \`${name}\` header`),
  ];
  if (parts.length === 0) return errorDescription('validation_failed');
  const what = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}` : parts[0];
  return `\`validation_failed\`: ${what} is invalid; the message names every offending field.${reads.query ? '' : ' Query parameters are not read: any sent are ignored.'}`;
}

/** "`code`: meaning", an error code as an operation's response describes it. */
export const errorDescription = (code: ErrorCode): string => `\`${code}\`: ${ERRORS[code].meaning}`;

/** Statuses API Gateway can also answer by itself for a route (infra/cdk/constructs/gateway- responses.ts), and why. */
export const GATEWAY_MADE_STATUSES: ReadonlyMap<number, string> = new Map([
  [429, 'its throttle'],
  [500, 'when a function failed'],
  [503, 'when a function could not be invoked'],
  [504, 'its integration timeout'],
]);

/**
 * Statuses the stage's web ACL (AWS WAF) answers for an operation before API Gateway sees the request
 * (infra/cdk/constructs/web-acl.ts): 401 to a request without a well-formed key, 403 from a blocked
 * address, 413 to a body over the limit (with the static `X-Request-Id` of infra/cdk/constructs/web-acl.ts,
 * which 1.1.0 requires there), 429 past a per-client limit. A WAF custom response carries static headers only: no `X-Request-Id` (a
 * deprecated operation's 401 rule sends its deprecation headers: infra/cdk/constructs/web-acl.ts).
 */
export const EDGE_MADE_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/** A header of a response: its id, or its id marked optional on this response. */
export type HeaderUse = string | { readonly id: string; readonly required: false };

/** The headers of every answer, listed first on each response. */
export const EVERY_ANSWER_HEADERS = ['XRequestId', 'Vary'] as const satisfies readonly HeaderId[];

/** The headers of every answer of an operation's function and of the web ACL's 429: the stage's per-client limits. */
export const RATE_LIMIT_HEADERS = [
  { id: 'RateLimitPolicy', required: false },
  { id: 'XRateLimitLimit', required: false },
] as const satisfies readonly HeaderUse[];

/** The headers of every answer of a deprecated operation's function (lib/http/deprecation.ts). */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'SuccessorLink'] as const satisfies readonly HeaderId[];

export interface GatewayResponseComponent {
  /** The error code of the answer; its status is the code's (lib/http/errors.ts). */
  readonly code: ErrorCode;
  readonly description: string;
  /** The key of the root extension `x-gateway-responses` (requests that match no operation) it answers. */
  readonly usedBy: keyof GatewayResponsesExtension[typeof GATEWAY_RESPONSES_EXTENSION];
  /** The message of the example: one the gateway sends. */
  readonly example: string;
}

const [EXAMPLE_RESOURCE = '/pets'] = resources;

/** The answers the gateway makes by itself to requests that match no operation, by response component name. */
export const GATEWAY_RESPONSE_COMPONENTS = {
  NotFound: {
    code: 'not_found',
    description:
      '`not_found`: no such path. Answered by the gateway for a path that no operation serves, before authentication, whatever the `Content-Type`.',
    usedBy: 'unknownPath',
    example: NOT_FOUND_MESSAGE,
  },
  MethodNotAllowed: {
    code: 'method_not_allowed',
    description: `${errorDescription('method_not_allowed')} Answered by the gateway, before authentication, whatever the \`Content-Type\`.`,
    usedBy: 'methodNotAllowed',
    example: methodNotAllowedMessage('DELETE', API_BASE_PATH + EXAMPLE_RESOURCE, allowedMethods(EXAMPLE_RESOURCE)),
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
  /**
   * A value the schema accepts, for mock servers and contract runners; a required `const` schema's
   * value otherwise. An optional flag (`Idempotent-Replayed`) has none: a mock leaves it out, as the usual answer does.
   */
  readonly example?: string | number;
}

/** Every response header the document describes, by component id. */
export const HEADERS = {
  XRequestId: {
    name: REQUEST_ID_HEADER,
    description: "The request id (API Gateway's); the service logs every request under it. Quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', minLength: 1 },
    example: 'c0a8f3e2-5b1d-4e6f-9a7b-3d2c1e0f9a8b',
  },
  Vary: {
    name: 'Vary',
    description:
      'The request headers the answer depends on: `Accept-Encoding` (the gateway compresses a large body for a client that accepts gzip or deflate), and `Origin` on a stage that allows browser origins.',
    required: true,
    schema: { type: 'string', pattern: '(^|, )Accept-Encoding(,|$)' },
    example: 'Accept-Encoding',
  },
  Location: {
    name: 'Location',
    description: 'The absolute URL of the new animal (`…/v1/pets/{id}`).',
    required: true,
    schema: { type: 'string', format: 'uri', pattern: `${escapeRegExp(`${API_BASE_PATH}/pets/`)}[1-9][0-9]*$` },
    example: `${EXAMPLE_BASE_URL}${EXAMPLE_RESOURCE}/${EXAMPLE_PET.id}`,
  },
  IdempotentReplayed: {
    name: 'Idempotent-Replayed',
    description: 'Present, as `true`, when the animal was created by an earlier request with the same `Idempotency-Key`.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  NextPageLink: {
    name: 'Link',
    description:
      'Present when another page follows: `<URL of the next page>; rel="next"` (RFC 8288). The service sends it absolute; resolve it against the request\'s URL (the example is relative, as a mock server\'s must be).',
    required: false,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
    example: `<${EXAMPLE_RESOURCE.slice(1)}?limit=${PARAMETERS.limit?.example}&cursor=${PARAMETERS.cursor?.example}>; rel="next"`,
  },
  WWWAuthenticate: {
    name: 'WWW-Authenticate',
    description:
      'The authentication challenge (RFC 6750): `Bearer realm="petstore"`, with `error="invalid_token"` when a key was given but is not valid.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="petstore"(, error="invalid_token")?$' },
    example: BEARER_CHALLENGE,
  },
  Allow: {
    name: 'Allow',
    description: 'The methods the path allows.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
    example: allowedMethods(EXAMPLE_RESOURCE).join(', '),
  },
  RetryAfter: {
    name: 'Retry-After',
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
  RateLimitPolicy: {
    name: 'RateLimit-Policy',
    description:
      'The per-client limits of a stage with a web ACL (IETF httpapi draft): `"per-key";q=<requests>;w=<seconds>, "per-address";q=<requests>;w=<seconds>`, on the functions\' answers, the gateway\'s own errors (its throttle\'s 429 among them) and the web ACL\'s 429s. Never a remaining count: the web ACL keeps it.',
    required: false,
    schema: { type: 'string', pattern: '^"per-key";q=[0-9]+;w=[0-9]+, "per-address";q=[0-9]+;w=[0-9]+$' },
    example: '"per-key";q=400;w=60, "per-address";q=400;w=60',
  },
  XRateLimitLimit: {
    name: 'X-RateLimit-Limit',
    description: 'The requests one API key may make in a window (`"per-key"` of `RateLimit-Policy`), where that header is.',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    example: 400,
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
    example: `<${EXAMPLE_BASE_URL}${deprecation?.successor ?? ''}>; rel="successor-version"`,
  },
} as const satisfies Record<string, HeaderDefinition>;

export type HeaderId = keyof typeof HEADERS;

/** The header of an id a descriptor or an error record names; one that HEADERS lacks is a build error. */
export function headerDefinition(id: string): HeaderDefinition {
  const header: HeaderDefinition | undefined = HEADERS[id as HeaderId];
  if (!header) throw new Error(`No response header "${id}" in HEADERS (infra/openapi/contract.ts)`);
  return header;
}

/**
 * The retry contract: for every status an operation can answer, who answers it, whether a read, a
 * create with an `Idempotency-Key` and one without are sent again, and after what wait.
 */
export interface RetryRule {
  readonly statuses: readonly number[];
  readonly who: string;
  readonly retry: readonly [read: string, keyedCreate: string, unkeyedCreate: string];
  readonly wait: string;
}

const BACKOFF = 'no `Retry-After`: 1 s, then doubling, with jitter, a few times';
const WINDOW = `\`Retry-After\` (the window, ${WAF_WINDOW_SECONDS} s)`;
export const RETRY_CONTRACT: readonly RetryRule[] = `
400 404 405 413 415 422 | the function or API Gateway: the request is wrong | no | no | no | change the request
401 | the function, or the web ACL (no well-formed key) | no | no | no | fix the key: an address that keeps sending bad keys can be blocked (403)
403 | the web ACL: the address is blocked | no | no | no | no \`Retry-After\`: ask the operator
429 | the web ACL: the API key's limit a minute (\`"per-key"\` in \`RateLimit-Policy\`; the message names it) | yes | yes | yes: nothing was done | ${WINDOW}
429 | the web ACL: the address's limit a minute on requests with a well-formed key, any path (\`"per-address"\`) | yes | yes | yes: nothing was done | ${WINDOW}
429 | API Gateway: the operation's throttle, shared by every client | yes | yes | yes: nothing was done | \`Retry-After\` (1 s)
500 502 | the function (a bug), or API Gateway: a function that failed or answered malformed (502 by AWS; this stage's 5XX gateway response sends 500) | yes, once | yes, once, the same key | no: the pet may be stored; list to check | ${BACKOFF}
503 | the function (the store failed, before or after the pet was stored) or API Gateway (the function could not run: nothing was done) | yes | yes, the same key: the retry answers the stored pet | no: the pet may be stored, and a retry stores another | \`Retry-After\` (1 or 2 s)
504 | API Gateway: no answer within its integration timeout (functions stop at ${TIMEOUT_SECONDS} s, well before it) | yes | yes, the same key | no: the request may have taken effect | ${BACKOFF}
`
  .trim()
  .split('\n')
  .map((row) => {
    const [statuses = '', who = '', read = '', keyed = '', unkeyed = '', wait = ''] = row.split(' | ');
    return { statuses: statuses.split(' ').map(Number), who, retry: [read, keyed, unkeyed], wait };
  });

/** What the retry contract says of `status` for one operation: a read, or a create that takes an `Idempotency-Key`. */
export function retrySentence(status: number, create: boolean): string {
  const rules = RETRY_CONTRACT.filter((rule) => rule.statuses.includes(status));
  const [first] = rules;
  if (!first || first.retry[0] === 'no') return 'Retry: no.';
  const [read, keyed, unkeyed] = first.retry;
  const waits = [...new Set(rules.map((rule) => rule.wait))].join('; ');
  return create
    ? `Retry with the same \`Idempotency-Key\`: ${keyed}; without one: ${unkeyed}. Wait: ${waits}.`
    : `Retry: ${read}. Wait: ${waits}.`;
}
