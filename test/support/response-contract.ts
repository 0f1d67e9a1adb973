/**
 * Checks HTTP responses against the OpenAPI document (infra/openapi/document.ts): the status must be
 * documented for the operation the request matched (by method and path template), every required
 * header must be there, every documented header present must match its schema, and the body must be
 * `application/json` matching the response's schema. Schemas are compiled straight from the
 * document with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats.
 *
 * A request that matches no path gets the document's `x-gateway-responses.unknownPath` answer
 * (404); a known path with an undocumented method gets `methodNotAllowed` (405). The documentation
 * (the document itself and the reference page) answers GET outside the operations, and any other
 * method with `methodNotAllowed`, as the document's description says.
 */
import { AssertionError } from 'node:assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
// ajv-formats is CommonJS: its default import is module.exports, whose `default` is the plugin.
import ajvFormatsModule from 'ajv-formats';
import { API_BASE_PATH, type HttpMethod, OPENAPI_DOCUMENT_PATH, PUBLIC_DOCUMENT_METHODS } from '#lib/routes.ts';
import { REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import {
  buildOpenApiDocument,
  GATEWAY_RESPONSES_EXTENSION,
  type HeaderObject,
  type OpenApiDocument,
  type OperationObject,
  type Reference,
  type ResponseObject,
} from '../../infra/openapi/document.ts';

const addFormats = ajvFormatsModule.default;
const DOCUMENT_ID = 'urn:petstore:openapi';
const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;

export interface ContractValidator {
  /** Every way `response` departs from the document; empty when it conforms. Reads a clone. */
  problems(method: string, url: string | URL, response: Response): Promise<string[]>;
  /** Throws an AssertionError listing the problems, if any. Reads a clone. */
  assertConforms(method: string, url: string | URL, response: Response): Promise<void>;
}

interface Located<T> {
  readonly node: T;
  /** JSON pointer of `node` in the document. */
  readonly pointer: string;
}

/**
 * The document's schemas, compiled with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) from
 * their place in the document: `validatorAt('/components/schemas/Pet')`.
 */
export function documentSchemas(document: OpenApiDocument): { validatorAt(pointer: string): ValidateFunction } {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // OpenAPI's integer formats; the schemas' bounds already say what they allow.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  // The whole document is one schema resource, so every `#/components/...` reference resolves in it
  // and each schema is compiled from its place (a JSON pointer) in the document. The OpenAPI fields
  // around the schemas are declared as keywords Ajv ignores.
  for (const key of Object.keys(document)) ajv.addKeyword(key);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const validators = new Map<string, ValidateFunction>();
  return {
    validatorAt: (pointer) => {
      let validate = validators.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
        validators.set(pointer, validate);
      }
      return validate;
    },
  };
}

export function createContractValidator(document: OpenApiDocument, basePath = API_BASE_PATH): ContractValidator {
  const { validatorAt } = documentSchemas(document);
  const schemaProblems = (pointer: string, value: unknown, what: string): string[] => {
    const validate = validatorAt(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message ?? 'is invalid'}${describeParams(e.params)}`);
  };

  const resolve = <T extends object>(located: Located<T | Reference>): Located<T> => {
    let { node, pointer } = located;
    for (let hops = 0; '$ref' in node && typeof node.$ref === 'string'; hops++) {
      if (!node.$ref.startsWith('#/') || hops > 10) throw new Error(`Unsupported reference ${node.$ref} at ${pointer}`);
      pointer = node.$ref.slice(1);
      node = pointerGet(document, pointer) as T | Reference;
    }
    return { node: node as T, pointer };
  };

  /** The documented answer for this request and status, or a problem. */
  const expectedResponse = (
    method: string,
    url: URL,
    status: number,
  ): { label: string; response?: Located<ResponseObject>; problem?: string } => {
    const relative = relativePath(url, basePath);
    const template = relative === undefined ? undefined : matchTemplate([...Object.keys(document.paths), ...DOCUMENTATION_PATHS], relative);
    const gateway = document[GATEWAY_RESPONSES_EXTENSION];
    if (template === undefined) {
      const label = `${method} ${url.pathname} (no such path)`;
      return status === 404
        ? {
            label,
            response: resolve<ResponseObject>({ node: gateway.unknownPath, pointer: `/${GATEWAY_RESPONSES_EXTENSION}/unknownPath` }),
          }
        : { label, problem: `status ${status} is not documented: a path no operation serves gets 404` };
    }
    const operation: OperationObject | undefined = document.paths[template]?.[method.toLowerCase() as Lowercase<HttpMethod>];
    if (!operation) {
      const label = `${method} ${template} (no such operation)`;
      return status === 405
        ? {
            label,
            response: resolve<ResponseObject>({
              node: gateway.methodNotAllowed,
              pointer: `/${GATEWAY_RESPONSES_EXTENSION}/methodNotAllowed`,
            }),
          }
        : { label, problem: `status ${status} is not documented: a method the path does not serve gets 405` };
    }
    const label = `${method} ${template} (${operation.operationId})`;
    const key = [String(status), `${String(status).charAt(0)}XX`, 'default'].find((k) => k in operation.responses);
    if (key === undefined) {
      return { label, problem: `status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})` };
    }
    const pointer = `/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${key}`;
    return { label, response: resolve<ResponseObject>({ node: operation.responses[key] as ResponseObject | Reference, pointer }) };
  };

  const problems = async (method: string, url: string | URL, original: Response): Promise<string[]> => {
    const response = original.clone();
    const upper = method.toUpperCase();
    const target = new URL(url);
    // The documentation is public, not an operation of the API: only the document itself is checked (a HEAD has no body).
    const relative = relativePath(target, basePath);
    const documentation = relative !== undefined && matchTemplate(DOCUMENTATION_PATHS, relative) !== undefined;
    if (documentation && (PUBLIC_DOCUMENT_METHODS as readonly string[]).includes(upper)) {
      if (upper === 'HEAD' || matchTemplate([OPENAPI_DOCUMENT_PATH], relative) === undefined) return [];
      const label = `GET ${target.pathname} (the document) → ${response.status}`;
      if (response.status !== 200) return [`${label}: the document is served with 200`];
      const body = (await response.json().catch(() => undefined)) as { openapi?: unknown } | undefined;
      return typeof body?.openapi === 'string' ? [] : [`${label}: body is not an OpenAPI document`];
    }
    const expected = expectedResponse(upper, target, response.status);
    if (!expected.response) return [`${expected.label} → ${response.status}: ${expected.problem ?? 'no documented response'}`];
    const { node: documented, pointer } = expected.response;
    const found: string[] = [];

    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const { node, pointer: headerPointer } = resolve<HeaderObject>({
        node: header,
        pointer: `${pointer}/headers/${escapePointer(name)}`,
      });
      const value = response.headers.get(name);
      if (value === null) {
        if (node.required) found.push(`required header ${name} is missing`);
        continue;
      }
      found.push(
        ...schemaProblems(`${headerPointer}/schema`, headerValue(value, node.schema as { [keyword: string]: unknown }), `header ${name}`),
      );
    }

    const mediaTypes = Object.keys(documented.content ?? {});
    const body = upper === 'HEAD' ? '' : await response.text();
    if (mediaTypes.length === 0) {
      if (body !== '') found.push('body must be empty');
    } else {
      const contentType = response.headers.get('content-type');
      const mediaType = mediaTypes.find((type) => type === 'application/json' && contentType !== null && JSON_MEDIA_TYPE.test(contentType));
      if (!mediaType) {
        found.push(`Content-Type is ${contentType === null ? 'missing' : `"${contentType}"`}, not ${mediaTypes.join(' or ')}`);
      } else if (upper !== 'HEAD') {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          found.push(`body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
        }
        if (json !== undefined) {
          found.push(...schemaProblems(`${pointer}/content/${escapePointer(mediaType)}/schema`, json, 'body'));
        }
      }
    }
    return found.map((problem) => `${expected.label} → ${response.status}: ${problem}`);
  };

  return {
    problems,
    assertConforms: async (method, url, response) => {
      const found = await problems(method, url, response);
      if (found.length > 0) {
        throw new AssertionError({
          message: `Response does not match openapi.json:\n  - ${found.join('\n  - ')}`,
          actual: found,
          expected: [],
          operator: 'conformsToOpenApi',
        });
      }
    },
  };
}

let shared: ContractValidator | undefined;

/** The validator for the service's document, built once per test process. */
export function contract(): ContractValidator {
  shared ??= createContractValidator(buildOpenApiDocument());
  return shared;
}

/** The paths served outside the operations, relative to the base path. */
const DOCUMENTATION_PATHS = [OPENAPI_DOCUMENT_PATH, ...REFERENCE_PAGE_RESOURCES];

/** The path under the base path, empty segments ignored as the gateway ignores them; undefined outside it. */
function relativePath(url: URL, basePath: string): string | undefined {
  const path = url.pathname.replace(/\/{2,}/g, '/');
  return path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/**
 * The template a path matches, the way API Gateway and the local API route: surrounding slashes
 * ignored, literal segments exactly, `{param}` as one non-empty segment.
 */
export function matchTemplate(templates: readonly string[], path: string): string | undefined {
  const split = (p: string) => {
    const trimmed = p.replace(/^\/+/, '').replace(/\/+$/, '');
    return trimmed === '' ? [] : trimmed.split('/');
  };
  const segments = split(path);
  return templates.find((template) => {
    const parts = split(template);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith('{') && part.endsWith('}') ? (segments[i] ?? '') !== '' : part === segments[i]))
    );
  });
}

/** A header's text as the value its schema describes (simple style: integers are digits). */
function headerValue(value: string, schema: { [keyword: string]: unknown }): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}

function describeParams(params: Record<string, unknown>): string {
  const interesting = Object.entries(params).filter(([key]) => ['allowedValues', 'allowedValue', 'additionalProperty'].includes(key));
  return interesting.length === 0 ? '' : ` (${interesting.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')})`;
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointerGet(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) {
      throw new Error(`No ${pointer} in the OpenAPI document`);
    }
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
