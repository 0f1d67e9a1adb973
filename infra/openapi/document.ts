/**
 * The OpenAPI 3.1 document of the service, built in code: paths and operations from the operation
 * descriptors (lib/operations/), every schema from the zod schemas (schemas.ts), and what neither
 * says (the info, servers, parameter and error descriptions, headers) from contract.ts.
 */
import { ERRORS, type ErrorBody, type ErrorCode } from '#lib/http/errors.ts';
import { JSON_CONTENT_TYPE } from '#lib/http/response.ts';
import { mapValues } from '#lib/map-values.ts';
import { operations as apiOperations } from '#lib/operations.ts';
import { errorsOf, type HttpMethod, type Operation } from '#lib/operations/operation.ts';
import {
  DEPRECATION_HEADERS,
  EDGE_MADE_STATUSES,
  errorDescription,
  EVERY_ANSWER_HEADERS,
  GATEWAY_MADE_STATUSES,
  GATEWAY_RESPONSE_COMPONENTS,
  HEADERS,
  type HeaderDefinition,
  headerDefinition,
  INFO,
  type HeaderUse,
  OPENAPI_VERSION,
  PARAMETERS,
  RATE_LIMIT_HEADERS,
  retrySentence,
  SECURITY_SCHEME,
  SECURITY_SCHEMES,
  SERVERS,
  TAG,
  TAGS,
  validationFailed,
} from './contract.ts';
import { componentExample, componentRef, generateSchemas, headerSchema, type JsonSchema } from './schemas.ts';
import {
  asParameterSchema,
  asSchema,
  GATEWAY_RESPONSES_EXTENSION,
  type HeaderObject,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type Reference,
  type ResponseObject,
} from './types.ts';

export { GATEWAY_RESPONSES_EXTENSION, OPENAPI_VERSION };
export type { HeaderObject, OpenApiDocument, OperationObject, ParameterObject, Reference, ResponseObject };

/** The headers of a response: those of every answer, then `uses`. */
function responseHeaders(uses: readonly HeaderUse[]): Record<string, HeaderObject | Reference> {
  return Object.fromEntries(
    [...EVERY_ANSWER_HEADERS, ...uses].map((use) => {
      const id = typeof use === 'string' ? use : use.id;
      const header = headerDefinition(id);
      const optional = !header.required || typeof use !== 'string';
      return [header.name, optional ? { ...headerObject(header), required: false } : { $ref: `#/components/headers/${id}` }];
    }),
  );
}

/** A header as the document writes it, with its example (a required `const` schema's value when it has none). */
function headerObject({ description, required, schema, example }: HeaderDefinition): HeaderObject {
  const value = example ?? (required ? schema.const : undefined);
  return { description, required, schema: asParameterSchema(schema), ...(value === undefined ? {} : { example: value }) };
}

/** The header components: the headers that are referenced, i.e. required wherever they appear. */
function headerComponents(): Record<string, HeaderObject> {
  const headers: Record<string, HeaderDefinition> = HEADERS;
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([, header]) => header.required)
      .map(([id, header]) => [id, headerObject(header)]),
  );
}

const jsonContent = (schema: JsonSchema, example: unknown): Record<string, MediaTypeObject> => ({
  [JSON_CONTENT_TYPE]: { schema: asSchema(schema), example },
});

/** An Error body of `code`, whose message is its meaning in the response (`description`: "`code`: meaning"). */
function errorExample(code: ErrorCode, description = errorDescription(code)): ErrorBody {
  const meaning = description.replace(/^`[a-z_]+`: /, '');
  return { code, message: meaning.charAt(0).toUpperCase() + meaning.slice(1), status: ERRORS[code].status };
}

/**
 * The Error body of one status: the Error component's object with `code` narrowed to the codes of
 * that status and `status` to that status, each with its `type`, written out whole (no `allOf`), so
 * that generators type it as one object whose `code` a client can switch on (docs/clients.md).
 */
function errorContent(error: JsonSchema, status: number, codes: readonly ErrorCode[], example: ErrorBody): Record<string, MediaTypeObject> {
  const { description: _, examples: __, ...shape } = error;
  const properties = {
    ...(shape.properties as object),
    code: { type: 'string', enum: [...codes] },
    status: { type: 'integer', enum: [status] },
  };
  return jsonContent({ ...shape, properties }, example);
}

/**
 * One response per status, from the error codes an answer can carry, each written out whole (a
 * `$ref` response drops out of some generators' error unions: docs/clients.md), its example its own.
 */
function errorResponses(
  codes: readonly ErrorCode[],
  operationHeaders: readonly string[],
  context: BuildContext,
  meanings: Partial<Record<ErrorCode, string>>,
  create: boolean,
): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, statusCodes] of byStatus) {
    const [gateway, edge] = [GATEWAY_MADE_STATUSES.get(status), EDGE_MADE_STATUSES.has(status)];
    // The web ACL's blocks (403) answer whatever the operation: none of its own headers either.
    const bare = gateway !== undefined || status === ERRORS.forbidden.status;
    const own = operationHeaders.map((id): HeaderUse => (bare ? { id, required: false } : id));
    const meaning = (code: ErrorCode) => meanings[code] ?? errorDescription(code);
    responses[String(status)] = {
      description: [
        ...statusCodes.map(meaning),
        ...(gateway && own.length > 0 ? [`API Gateway's own answer (${gateway}) lacks the operation's own headers.`] : []),
        ...(!gateway && bare && own.length > 0 ? ["The web ACL's answer lacks the operation's own headers."] : []),
        ...(edge
          ? [
              "The stage's web ACL (AWS WAF) can give this status too, before API Gateway: its answer has no `X-Request-Id` (WAF sends static headers only).",
            ]
          : []),
        retrySentence(status, create),
      ].join(' '),
      headers: responseHeaders([
        ...(edge ? [{ id: 'XRequestId', required: false } as const] : []),
        ...statusCodes.flatMap((code) => ERRORS[code].headers ?? []),
        ...own,
        ...RATE_LIMIT_HEADERS,
      ]),
      content: errorContent(
        context.schemas.components.Error,
        status,
        statusCodes,
        errorExample(statusCodes[0] as ErrorCode, meaning(statusCodes[0] as ErrorCode)),
      ),
    };
  }
  return responses;
}

/** Responses the gateway makes: components, referenced by operations and by the root extension. */
function gatewayResponses(context: BuildContext): Record<string, ResponseObject> {
  return mapValues(GATEWAY_RESPONSE_COMPONENTS, ({ code, description, example }) => {
    const { status, headers = [] } = ERRORS[code];
    return {
      description,
      headers: responseHeaders(headers),
      content: errorContent(context.schemas.components.Error, status, [code], { code, message: example, status }),
    };
  });
}

/** The root extension: which gateway response answers a request that matches no operation. */
function gatewayResponsesExtension(): OpenApiDocument[typeof GATEWAY_RESPONSES_EXTENSION] {
  const refs = Object.entries(GATEWAY_RESPONSE_COMPONENTS).map(([name, { usedBy }]) => [
    usedBy,
    { $ref: `#/components/responses/${name}` },
  ]);
  return Object.fromEntries(refs) as OpenApiDocument[typeof GATEWAY_RESPONSES_EXTENSION];
}

interface BuildContext {
  readonly schemas: ReturnType<typeof generateSchemas>;
  readonly operations: readonly Operation[];
}

function operationObject(operation: Operation, context: BuildContext): OperationObject {
  const parameters: ParameterObject[] = [];
  for (const [where, id] of [
    ['path', operation.path],
    ['query', operation.query],
  ] as const) {
    if (!id) continue;
    const object = context.schemas.parameters[id];
    if (!object) throw new Error(`No parameter schema ${id} in PARAMETER_SCHEMAS (infra/openapi/schemas.ts)`);
    const { properties, required } = object;
    for (const [name, schema] of Object.entries(properties)) {
      const parameter = PARAMETERS[name];
      if (!parameter) throw new Error(`Parameter ${name} of ${operation.operationId} has no description in PARAMETERS`);
      parameters.push({
        name,
        in: where,
        description: parameter.description,
        required: where === 'path' || required.includes(name),
        schema: asParameterSchema(schema),
        example: parameter.example,
      });
    }
  }
  for (const { schema: id, description, required } of operation.headers ?? []) {
    const { name, schema, example } = headerSchema(id);
    parameters.push({ name, in: 'header', description, required, schema: asParameterSchema(schema), example });
  }

  const { success, deprecation, requestBody } = operation;
  const deprecationHeaders: readonly string[] = deprecation ? DEPRECATION_HEADERS : [];
  const reads = {
    body: requestBody !== undefined,
    path: parameters.filter((p) => p.in === 'path').map((p) => p.name),
    query: operation.query !== undefined,
    headers: parameters.filter((p) => p.in === 'header').map((p) => p.name),
  };
  const responses: Record<string, ResponseObject> = {
    [String(success.status)]: {
      description: success.description,
      headers: responseHeaders([...success.headers, ...deprecationHeaders, ...RATE_LIMIT_HEADERS]),
      // A 204 has no body, hence no content.
      ...('schema' in success ? { content: jsonContent(componentRef(success.schema), componentExample(success.schema)) } : {}),
    },
    ...errorResponses(
      errorsOf(operation),
      deprecationHeaders,
      context,
      { validation_failed: validationFailed(reads) },
      reads.headers.includes('Idempotency-Key'),
    ),
  };
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: deprecation
      ? `${operation.description} ${deprecationDescription(deprecation, context.operations)}`
      : operation.description,
    tags: [TAG],
    ...(deprecation ? { deprecated: true as const } : {}),
    security: [{ [SECURITY_SCHEME]: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody
      ? {
          requestBody: {
            description: requestBody.description,
            required: true as const,
            content: jsonContent(componentRef(requestBody.schema), componentExample(requestBody.schema)),
          },
        }
      : {}),
    responses: sorted,
  };
}

function deprecationDescription({ sunset, successor }: NonNullable<Operation['deprecation']>, operations: readonly Operation[]): string {
  const replacement = operations.find((o) => o.resource === successor && o.method === 'GET');
  return (
    `Deprecated: this operation stops working on ${sunset}. ` +
    `Use \`GET ${successor}\`${replacement ? ` (\`${replacement.operationId}\`)` : ''} with the \`status\` filter instead. ` +
    'Every answer of the function, errors included, carries `Deprecation`, `Sunset` and a `Link` to the successor.'
  );
}

/** Builds the whole document, of the API's operations unless others are given. */
export function buildOpenApiDocument(operations: readonly Operation[] = apiOperations): OpenApiDocument {
  const context: BuildContext = { schemas: generateSchemas(), operations };
  const paths: Record<string, PathItemObject> = {};
  for (const resource of new Set(operations.map((o) => o.resource))) {
    const item: PathItemObject = {};
    for (const operation of operations.filter((o) => o.resource === resource)) {
      item[operation.method.toLowerCase() as Lowercase<HttpMethod>] = operationObject(operation, context);
    }
    paths[resource] = item;
  }
  return {
    openapi: OPENAPI_VERSION,
    info: { ...INFO },
    servers: [...SERVERS],
    tags: [...TAGS],
    paths,
    components: {
      schemas: mapValues(context.schemas.components, asSchema),
      responses: gatewayResponses(context),
      headers: headerComponents(),
      securitySchemes: { ...SECURITY_SCHEMES },
    },
    [GATEWAY_RESPONSES_EXTENSION]: gatewayResponsesExtension(),
  };
}

/** The committed form: 2-space JSON with a trailing newline. */
export function serializeOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
