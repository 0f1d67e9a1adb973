/**
 * What an operation of the API is, as one descriptor (lib/operations/<function>.ts): its route, the
 * function that answers it, the DynamoDB access that function needs, and its contract as the
 * OpenAPI document states it. The CDK app, local mode, the OpenAPI document and the tests all read
 * the descriptors (lib/operations.ts lists them).
 *
 * A descriptor names its schemas, headers and tables by id, never by importing them: the docs
 * function lists the routes (lib/http/gateway-errors.ts), and its bundle stays free of zod.
 */
import type { ErrorCode } from '../http/errors.ts';
import type { ComponentId, HeaderSchemaId, ParameterSchemaId } from '../openapi/schemas.ts';
import { apiKeysTable } from '../store/tables.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Item-level DynamoDB actions a function may be granted on a table. */
export type TableAction =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'Query'
  | 'Scan';

/** Actions that apply to a global secondary index. */
export type IndexAction = 'Query' | 'Scan';

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

/** A request header parameter: its name and schema are the header schema's (lib/openapi/schemas.ts). */
export interface RequestHeader {
  readonly schema: HeaderSchemaId;
  readonly description: string;
  readonly required: boolean;
}

/** The response headers the contract describes, by id: lib/openapi/contract.ts defines each one. */
export type HeaderId =
  | 'XRequestId'
  | 'Vary'
  | 'Location'
  | 'IdempotentReplayed'
  | 'NextPageLink'
  | 'WWWAuthenticate'
  | 'Allow'
  | 'RetryAfter'
  | 'RateLimitPolicy'
  | 'XRateLimitLimit'
  | 'Deprecation'
  | 'Sunset'
  | 'SuccessorLink';

/** The success answer: a JSON body of a component schema, or (204) no body at all. */
export type SuccessResponse =
  | {
      readonly status: 200 | 201;
      readonly description: string;
      readonly schema: ComponentId;
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
  readonly query?: ParameterSchemaId;
  readonly path?: ParameterSchemaId;
  readonly headers?: readonly RequestHeader[];
  readonly requestBody?: { readonly schema: ComponentId; readonly description: string };
  readonly success: SuccessResponse;
  /** Every error code the operation's function can answer (the chain in lib/http/api-handler.ts). */
  readonly errors: readonly ErrorCode[];
  /**
   * A deprecated operation: when it stops working, as the HTTP date the `Sunset` header carries
   * (RFC 8594), and the resource that replaces it.
   */
  readonly deprecation?: { readonly sunset: string; readonly successor: string };
}
