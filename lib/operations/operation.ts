/**
 * What an operation of the API is, as one descriptor (lib/operations/<function>.ts): its route, the function that answers it, the
 * DynamoDB access that function needs, and its contract as the OpenAPI document states it.
 */
import { type ErrorCode, ERRORS } from '../http/errors.ts';
import { apiKeysTable } from '../store/tables.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** DynamoDB actions a function may be granted on a table, and those that also apply to an index. */
export type IndexAction = 'Query' | 'Scan';
export type TableAction =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | IndexAction;

export interface TableAccess {
  /** Actions on the table's own ARN. */
  readonly table?: readonly TableAction[];
  /** Actions on named indexes (`<table ARN>/index/<name>`), which the table actions do not cover. */
  readonly indexes?: Readonly<Record<string, readonly IndexAction[]>>;
}

/** Every function authenticates its caller: one GetItem on the key's hash. */
export const AUTH_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  [apiKeysTable.logicalName]: { table: ['GetItem'] },
};

/**
 * `X <table>[/index/<name>]` for each DynamoDB action the operation's function may perform: its
 * descriptor's, and the key lookup every operation makes. Tables by logical name.
 */
export function grantsOf(operation: Operation): string[] {
  return Object.entries({ ...operation.tables, ...AUTH_TABLE_ACCESS }).flatMap(([table, { table: actions = [], indexes = {} }]) => [
    ...actions.map((action) => `${action} ${table}`),
    ...Object.entries(indexes).flatMap(([index, onIndex]) => onIndex.map((action) => `${action} ${table}/index/${index}`)),
  ]);
}

/** A request header parameter: its name and schema are the header schema's (infra/openapi/schemas.ts). */
export interface RequestHeader {
  readonly schema: string;
  readonly description: string;
  readonly required: boolean;
}

/** A response header, by its id in infra/openapi/contract.ts's HEADERS (the document refuses any other). */
export type HeaderId = string;

/** The success answer: a JSON body of a component schema, or (204) no body at all. */
export type SuccessResponse =
  | {
      readonly status: 200 | 201;
      readonly description: string;
      /** A schema's meta `id` (lib/domain). */
      readonly schema: string;
      readonly headers: readonly HeaderId[];
    }
  | {
      readonly status: 204;
      readonly description: string;
      readonly headers: readonly HeaderId[];
    };

export interface Operation {
  /** The spec's operation name (the OpenAPI operationId). */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway resource path under the `/v1` base, with `{param}` placeholders. */
  readonly resource: string;
  /**
   * The module under `functions/` that exports the Lambda `handler`, without extension; one per
   * operation. (The deployed function is named `<stack name>-<function id>`.)
   */
  readonly functionId: string;
  /** The DynamoDB access of its function besides AUTH_TABLE_ACCESS, by table logical name. */
  readonly tables: Readonly<Record<string, TableAccess>>;
  readonly summary: string;
  readonly description: string;
  /** Parameter objects, by their id in infra/openapi/schemas.ts. */
  readonly query?: string;
  readonly path?: string;
  readonly headers?: readonly RequestHeader[];
  readonly requestBody?: { readonly schema: string; readonly description: string };
  readonly success: SuccessResponse;
  /** The codes its own handler answers; the chain's and the body's are errorsOf()'s. */
  readonly errors: readonly ErrorCode[];
  /**
   * A deprecated operation: when it stops working, as the HTTP date the `Sunset` header carries
   * (RFC 8594), and the resource that replaces it.
   */
  readonly deprecation?: { readonly sunset: string; readonly successor: string };
}

/** The codes of the shared chain (lib/http/api-handler.ts): authentication, the throttles, a bug, an outage. */
const CHAIN_ERRORS: readonly ErrorCode[] = ['unauthorized', 'too_many_requests', 'internal_error', 'service_unavailable'];
/** Whatever the operation: the web ACL's blocks (infra/cdk/constructs/web-acl.ts) and the gateway's timeout. */
const EDGE_ERRORS: readonly ErrorCode[] = ['forbidden', 'gateway_timeout'];
/** jsonBody()'s, for an operation with a request body. */
const BODY_ERRORS: readonly ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];

/**
 * Every code the operation can be answered with, in ERRORS' order: its own, the chain's, the
 * edge's and the gateway's, the body's, and `validation_failed` when it reads a parameter, a header or a body.
 */
export function errorsOf(operation: Operation): ErrorCode[] {
  const reads = operation.requestBody || operation.path || operation.query || operation.headers?.length;
  const codes = new Set([...operation.errors, ...CHAIN_ERRORS, ...EDGE_ERRORS, ...(operation.requestBody ? BODY_ERRORS : [])]);
  if (reads) codes.add('validation_failed');
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => codes.has(code));
}
