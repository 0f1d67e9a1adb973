/**
 * The OpenAPI document: the committed openapi.json is what the code generates, it says what the
 * handlers do, it passes Redocly's recommended lint rules, and the local API serves it.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { blockListOf } from '#lib/edge/flood-detector.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalApi, type LocalApi } from '../../infra/local/api-server.ts';
import { type ProxyHandler, sourceStageApi } from '../../infra/local/stage-api.ts';
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { NewPet } from '#lib/domain/pet.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { readRestApi } from '../../infra/local/gateway/template.ts';
import { matches } from '../../infra/local/gateway/web-acl.ts';
import {
  DEPRECATION_HEADERS,
  EDGE_MADE_STATUSES,
  EVERY_ANSWER_HEADERS,
  GATEWAY_MADE_STATUSES,
  GATEWAY_RESPONSE_COMPONENTS,
  HEADERS,
  type HeaderDefinition,
  headerDefinition,
} from '../../infra/openapi/contract.ts';
import { ERROR_CODES, ERRORS } from '#lib/http/errors.ts';
import { idempotencyKey } from '#lib/http/idempotency-key.ts';
import {
  buildOpenApiDocument,
  type HeaderObject,
  type OperationObject,
  type ParameterObject,
  type Reference,
  type ResponseObject,
  serializeOpenApiDocument,
} from '../../infra/openapi/document.ts';
import { MAPPING_TEMPLATE_MAX_BYTES, openApiMappingTemplate } from '../../infra/openapi/serve.ts';
import { functionIds, operations } from '#lib/operations.ts';
import { API_BASE_PATH } from '#lib/routes.ts';
import { getPet } from '#lib/operations/get-pet.ts';
import { errorsOf, type Operation } from '#lib/operations/operation.ts';
import { documentSchemas } from '../support/response-contract.ts';

const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url);
const document = buildOpenApiDocument();

const operation = (operationId: string): OperationObject => {
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item)) if (op?.operationId === operationId) return op;
  }
  throw new Error(`no operation ${operationId}`);
};
const response = (op: OperationObject, status: number): ResponseObject => {
  let node = op.responses[String(status)] as ResponseObject | Reference | undefined;
  if (node && '$ref' in node) node = document.components.responses[node.$ref.split('/').at(-1) as string] as ResponseObject | undefined;
  if (!node) throw new Error(`${op.operationId} documents no ${status}`);
  return node;
};
const headerNames = (res: ResponseObject) => Object.keys(res.headers ?? {});
const allResponses = (): ResponseObject[] =>
  [
    ...Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.values(op?.responses ?? {}))),
    ...Object.values(document.components.responses),
  ] as ResponseObject[];
/** A header that is optional by definition and has one value: present or not, a flag (`Idempotent-Replayed`). */
const FLAGS: readonly string[] = Object.values(HEADERS as Record<string, HeaderDefinition>)
  .filter((h) => !h.required && 'const' in h.schema)
  .map((h) => h.description);
const isOptionalFlag = (node: object): boolean => 'description' in node && FLAGS.includes(String(node.description));
const parameter = (op: OperationObject, name: string): ParameterObject => {
  // The document writes every parameter inline, never by reference.
  const found = (op.parameters as ParameterObject[] | undefined)?.find((p) => p.name === name);
  if (!found) throw new Error(`${op.operationId} has no parameter ${name}`);
  return found;
};

describe('openapi.json', () => {
  it('is up to date with the schemas and the route table', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8').catch(() => '(missing)');
    expect(committed, 'openapi.json differs from a fresh generation: run npm run openapi, and commit openapi.json').toBe(
      serializeOpenApiDocument(document),
    );
  });

  it('npm run openapi -- --check passes on it, and a mistyped option changes nothing and fails', async () => {
    const cli = fileURLToPath(new URL('../../infra/cli/openapi.ts', import.meta.url));
    const before = await readFile(OPENAPI_FILE, 'utf8');
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    expect(run('--check').status).toBe(0);
    for (const wrong of ['--chek', 'check']) {
      const result = run(wrong);
      expect(result.status, wrong).toBe(2);
      expect(result.stderr).toContain('usage: npm run openapi');
    }
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(before);
  });

  it('is generated deterministically', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(serializeOpenApiDocument(document));
  });

  it('passes the Redocly recommended ruleset with no error and only the explained warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: serializeOpenApiDocument(document),
      absoluteRef: OPENAPI_FILE.pathname,
      config,
    });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(found.filter((p) => p.startsWith('error'))).toEqual([]);
    expect(found.filter((p) => p.startsWith('warn')).sort()).toEqual(
      [
        // The responses of requests that match no operation (unknown path, wrong method) are used
        // from the root extension `x-gateway-responses`, which the linter does not follow.
        'warn no-unused-components #/components/responses/MethodNotAllowed: Component: "MethodNotAllowed" is never used.',
        'warn no-unused-components #/components/responses/NotFound: Component: "NotFound" is never used.',
        // The shape every error response narrows, written out whole in each (generators type an
        // `allOf` badly: docs/clients.md); kept as the type a client handles any error with.
        'warn no-unused-components #/components/schemas/Error: Component: "Error" is never used.',
        // The API is private (package.json "private": true): no licence is granted, so none is named.
        'warn info-license #/info: Info object should contain `license` field.',
      ].sort(),
    );
  });
});

describe('the document', () => {
  it('is OpenAPI 3.1 with the operations of the descriptors, getPet deprecated', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    // Whatever release it is, its major version is the `/v1` of the base addresses.
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(`/v${document.info.version.split('.')[0]}`).toBe(API_BASE_PATH);
    const ops = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [method.toUpperCase(), path, op?.operationId, op?.deprecated ?? false]),
    );
    expect(ops).toEqual(operations.map((o) => [o.method, o.resource, o.operationId, o.deprecation !== undefined]));
    expect(operation('getPet').deprecated).toBe(true);
  });

  it('requires bearerAuth (HTTP bearer) on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { operationId } of operations) expect(operation(operationId).security).toEqual([{ bearerAuth: [] }]);
  });

  it.each(operations)(
    "documents every status of $operationId: its success, its own error codes, the chain's, the throttle's, the blocks' and the gateway timeout",
    (op) => {
      const statuses = Object.keys(operation(op.operationId).responses).map(Number);
      const expected = new Set([
        op.success.status,
        ...errorsOf(op).map((code) => ERROR_CODES[code]),
        ERROR_CODES.too_many_requests,
        ERROR_CODES.unauthorized,
        ERROR_CODES.forbidden,
        ERROR_CODES.gateway_timeout,
      ]);
      expect(statuses).toEqual([...expected].sort((a, b) => a - b));
    },
  );

  it('documents a success without a body (204) as a response without content', () => {
    const { deprecation: _, ...current } = getPet;
    const removal: Operation = {
      ...current,
      operationId: 'removePet',
      method: 'DELETE',
      success: { status: 204, description: 'Removed.', headers: [] },
    };
    const built = buildOpenApiDocument([removal]).paths['/pets/{petId}']?.delete;
    expect(built?.responses['204']).toEqual({
      description: 'Removed.',
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
        Vary: { $ref: '#/components/headers/Vary' },
        'RateLimit-Policy': expect.objectContaining({ required: false }),
        'X-RateLimit-Limit': expect.objectContaining({ required: false }),
      },
    });
    expect(built?.responses['404']).toHaveProperty('content');
  });

  it('answers the requests that match no operation from the gateway responses', () => {
    expect(document['x-gateway-responses']).toEqual({
      unknownPath: { $ref: '#/components/responses/NotFound' },
      methodNotAllowed: { $ref: '#/components/responses/MethodNotAllowed' },
    });
  });

  it('takes the error codes from ERROR_CODES, each error the Error object narrowed to its status, written whole', () => {
    expect(document.components.schemas.ErrorCode).toMatchObject({ type: 'string', enum: Object.keys(ERROR_CODES) });
    const { description: _, examples: __, ...error } = document.components.schemas.Error as Record<string, unknown>;
    const list400 = response(operation('listPets'), 400).content?.['application/json']?.schema;
    expect(list400).toEqual({
      ...error,
      properties: {
        ...(error.properties as object),
        code: { type: 'string', enum: ['validation_failed', 'invalid_cursor'] },
        status: { type: 'integer', enum: [400] },
      },
    });
  });

  it('has the parameters with their bounds, default, enum and formats', () => {
    const list = operation('listPets');
    expect(parameter(list, 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(parameter(list, 'status')).toMatchObject({ in: 'query', required: false, schema: { $ref: '#/components/schemas/PetStatus' } });
    expect(document.components.schemas.PetStatus).toMatchObject({ enum: ['available', 'pending', 'sold'] });
    expect(parameter(list, 'cursor')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', minLength: 1 } });
    expect(parameter(operation('getPet'), 'petId')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(parameter(operation('createPet'), 'Idempotency-Key')).toMatchObject({ in: 'header', required: false });
  });

  it('states the Idempotency-Key rule the handler enforces', () => {
    const documented = new RegExp(String((parameter(operation('createPet'), 'Idempotency-Key').schema as { pattern?: string }).pattern));
    const samples = [
      'k',
      'a'.repeat(255),
      '"quoted-uuid"',
      '',
      'a'.repeat(256),
      'with space',
      'caf\u00e9',
      '""',
      'a"b',
      '"unbalanced',
      `"${'a'.repeat(256)}"`,
    ];
    for (const key of samples) {
      const accepted = (() => {
        try {
          idempotencyKey({ headers: { 'Idempotency-Key': key } });
          return true;
        } catch {
          return false;
        }
      })();
      expect(documented.test(key), JSON.stringify(key)).toBe(accepted);
    }
  });

  it('has the headers of each answer', () => {
    const [list, create, get] = [operation('listPets'), operation('createPet'), operation('getPet')];
    for (const op of operations.map((o) => operation(o.operationId))) {
      for (const status of Object.keys(op.responses)) expect(headerNames(response(op, Number(status)))).toContain('X-Request-Id');
      expect(headerNames(response(op, 401))).toContain('WWW-Authenticate');
      expect(headerNames(response(op, 503))).toContain('Retry-After');
    }
    expect(headerNames(response(list, 200))).toContain('Link');
    expect(headerNames(response(create, 201))).toContain('Location');
    for (const status of [200, 400, 401, 404]) {
      expect(headerNames(response(get, status))).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    }
    expect((document.components.responses.MethodNotAllowed as ResponseObject).headers).toHaveProperty('Allow');
    expect((document.components.headers.Sunset as HeaderObject).schema).toEqual({ type: 'string', const: 'Thu, 05 Dec 2030 00:00:00 GMT' });
  });

  it('requires a header on a status exactly when every layer that can give the status sends it', () => {
    const stage = readRestApi(inject('stageTemplate') as CfnTemplate);
    const rules = stage.webAcl?.rules ?? [];
    // The edge's 413 is not among the statuses without X-Request-Id: it sends a static one.
    expect(new Set(rules.map((rule) => rule.response.status))).toEqual(new Set([...EDGE_MADE_STATUSES, 413]));
    // The request below comes from an address the automatic blocks hold.
    if (stage.webAcl?.floodBlocking) stage.webAcl.floodBlocking.ipSet.list = blockListOf(['192.0.2.1/32']);
    const names = (headers: Iterable<string>) => new Set([...headers].map((name) => name.toLowerCase()));
    // What the stage's template makes API Gateway and AWS WAF send, for a request to `op` without a key.
    const gatewaySends = (status: number) =>
      [...stage.gatewayResponses.values()]
        .filter((r) => Number(r.statusCode) === status)
        .map((r) => names(Object.keys(r.responseParameters).map((p) => p.replace(/^gatewayresponse\.header\./, ''))));
    const wafSends = (op: Operation, status: number) => {
      const request = {
        sourceIp: '192.0.2.1',
        method: op.method,
        uriPath: API_BASE_PATH + op.resource.replace('{petId}', '1'),
        header: () => undefined,
        bodyBytes: Number.MAX_SAFE_INTEGER,
      };
      return rules
        .filter((rule) => rule.response.status === status)
        .filter((rule) => ('match' in rule ? matches(rule.match, request) : !rule.rate.scopeDown || matches(rule.rate.scopeDown, request)))
        .map((rule) => names(Object.keys(rule.response.headers)));
    };
    // The function's own answer of that status (every end-to-end answer is checked against the document too).
    const functionSends = (op: Operation, status: number) => {
      const codes = errorsOf(op).filter((code) => ERROR_CODES[code] === status);
      if (codes.length === 0) return [];
      const ids = [
        ...EVERY_ANSWER_HEADERS,
        ...(op.deprecation ? DEPRECATION_HEADERS : []),
        ...codes.flatMap((c) => ERRORS[c].headers ?? []),
      ];
      return [names(ids.map((id) => headerDefinition(id).name))];
    };
    let checked = 0;
    for (const op of operations) {
      for (const status of Object.keys(operation(op.operationId).responses).map(Number)) {
        const others = [...(GATEWAY_MADE_STATUSES.has(status) ? gatewaySends(status) : []), ...wafSends(op, status)];
        // A status only the function gives: its required headers are checked on every answer of the end-to-end suites.
        if (others.length === 0) continue;
        const layers = [...others, ...functionSends(op, status)];
        const everyLayer = (name: string) => layers.every((sent) => sent.has(name.toLowerCase()));
        const headers = Object.entries(response(operation(op.operationId), status).headers ?? {});
        const required = headers.filter(([, h]) => '$ref' in h || h.required === true).map(([name]) => name);
        expect(required, `${op.operationId} ${status}`).toEqual(headers.map(([name]) => name).filter(everyLayer));
        checked++;
      }
    }
    // 401 (WAF and the function), 403 (WAF's blocks), 429 (both throttles), 500 and 503 (the gateway and the
    // function), 504 (the gateway), on every operation; 413 (WAF and the function) on each that takes a body.
    expect(checked).toBe(operations.length * 6 + operations.filter((o) => 'requestBody' in o).length);
    expect(response(operation('listPets'), 429).headers?.['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
  });

  it('writes every response out whole, never as a $ref (some generators leave those out of their error unions)', () => {
    for (const { operationId } of operations) {
      for (const [status, res] of Object.entries(operation(operationId).responses))
        expect(res, `${operationId} ${status}`).not.toHaveProperty('$ref');
    }
  });

  it("says in each operation's 400 what that operation reads, from its descriptor", () => {
    for (const op of operations) {
      const { description } = response(operation(op.operationId), 400);
      const parameters = (operation(op.operationId).parameters ?? []) as ParameterObject[];
      expect(description.includes('the request body'), op.operationId).toBe(op.requestBody !== undefined);
      for (const { name, in: where } of parameters.filter((p) => p.in !== 'query')) {
        expect(description, op.operationId).toContain(where === 'path' ? `the path parameter \`${name}\`` : `the \`${name}\` header`);
      }
      expect(description.includes('a query parameter (an unknown'), op.operationId).toBe(op.query !== undefined);
      expect(description.includes('Query parameters are not read'), op.operationId).toBe(op.query === undefined);
      // A path or query parameter (PARAMETERS) serves whichever operation takes it: its description names no one operation's act.
      for (const p of parameters.filter((p) => p.in !== 'header'))
        expect(p.description, `${op.operationId} ${p.name}`).not.toMatch(/retriev|list|creat/i);
    }
  });

  it('writes optional response headers inline, so TypeScript generators type them optional', () => {
    // openapi-typescript 7 ignores `required: false` on a referenced header and makes it required.
    const responses = [
      ...Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.values(op?.responses ?? {}))),
      ...Object.values(document.components.responses),
    ];
    let optional = 0;
    for (const res of responses) {
      for (const [name, header] of Object.entries((res as ResponseObject).headers ?? {})) {
        if ('$ref' in header)
          expect((document.components.headers[header.$ref.split('/').at(-1) as string] as HeaderObject).required, name).toBe(true);
        else if (header.required === false) optional++;
      }
    }
    expect(optional).toBeGreaterThan(0);
    expect(response(operation('listPets'), 200).headers?.Link).toMatchObject({ required: false });
    expect(response(operation('createPet'), 201).headers?.['Idempotent-Replayed']).toMatchObject({ required: false });
  });

  it('names the production and staging servers, and no local one', () => {
    const urls = document.servers.map((s) => s.url);
    expect(urls.sort()).toEqual(STAGE_NAMES.map((stage) => `https://{apiId}.execute-api.{region}.amazonaws.com/${stage}/v1`).sort());
    for (const server of document.servers) expect(Object.keys(server.variables ?? {})).toEqual(['apiId', 'region']);
  });

  it('gives every schema, parameter, request body, response and header an example its own schema accepts', () => {
    const { validatorAt } = documentSchemas(document);
    const accepts = (pointer: string, example: unknown) => {
      const validate = validatorAt(pointer);
      expect(example, `${pointer} has no example`).toBeDefined();
      expect(validate(example), `${pointer}: ${JSON.stringify(example)} ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    for (const [id, schema] of Object.entries(document.components.schemas)) {
      accepts(`/components/schemas/${id}`, (schema as { examples?: unknown[] }).examples?.[0]);
    }
    // Parameters, headers and media types (request bodies, responses) are the objects with a `schema`.
    const visited: string[] = [];
    const visit = (node: unknown, pointer: string): void => {
      if (typeof node !== 'object' || node === null || pointer === '/components/schemas') return;
      if ('schema' in node) {
        visited.push(pointer);
        // An optional flag (a `const` header that is sometimes absent) has none: a mock leaves it out.
        if (isOptionalFlag(node)) expect(node, pointer).not.toHaveProperty('example');
        else accepts(`${pointer}/schema`, (node as { example?: unknown }).example);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    visit(document, '');
    // Among them the path parameter contract runners need a value for, a request body, a response, a header.
    expect(visited).toEqual(
      expect.arrayContaining([
        '/paths/~1pets~1{petId}/get/parameters/0',
        '/paths/~1pets/post/requestBody/content/application~1json',
        '/paths/~1pets/get/responses/400/content/application~1json',
        '/components/headers/Location',
        '/paths/~1pets/get/responses/429/headers/X-Request-Id',
      ]),
    );
  });

  it('gives examples a mock server can answer with: a fresh create, a next page on the same origin, each error its own meaning', () => {
    expect(response(operation('createPet'), 201).headers?.['Idempotent-Replayed']).not.toHaveProperty('example');
    const origins = document.servers.map(
      (s) => new URL(s.url.replace(/\{(\w+)\}/g, (_, name: string) => String(s.variables?.[name]?.default))).origin,
    );
    const headers = [
      ...Object.values(document.components.headers),
      ...allResponses().flatMap((res) => Object.values(res.headers ?? {})),
    ].filter((h): h is HeaderObject => !('$ref' in h));
    const links = headers.flatMap((h) => (typeof h.example === 'string' && /^<[^>]*>; rel=/.test(h.example) ? [h.example] : []));
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      const target = /^<([^>]*)>/.exec(link)?.[1] ?? '';
      // Relative (resolved against the request's URL, a mock's included), or on a server's origin.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) expect(origins, link).toContain(new URL(target).origin);
    }
    for (const { operationId } of operations) {
      for (const [status, res] of Object.entries(operation(operationId).responses) as [string, ResponseObject][]) {
        const example = res.content?.['application/json']?.example as { code?: string; message?: string } | undefined;
        if (Number(status) < 400 || !example?.message) continue;
        const meaning = `\`${example.code}\`: ${example.message.charAt(0).toLowerCase()}${example.message.slice(1)}`;
        expect(res.description, `${operationId} ${status}`).toContain(meaning);
      }
    }
  });

  it('describes request bodies the way zod validates them', () => {
    const validate = documentSchemas(document).validatorAt('/components/schemas/NewPet');
    const samples: unknown[] = [
      { name: 'Rex', categoryId: 1 },
      { name: ' Rex ', categoryId: 1, status: 'sold' },
      { name: 'Rex', categoryId: Number.MAX_SAFE_INTEGER },
      { name: 'Rex', categoryId: 0 },
      { name: 'Rex', categoryId: 1.5 },
      { name: 'Rex', categoryId: '1' },
      { name: 'x'.repeat(200), categoryId: 1 },
      { name: 'x'.repeat(201), categoryId: 1 },
      { name: 'Rex', categoryId: 1, status: 'Sold' },
      { name: 'Rex', categoryId: 1, id: 7 },
      { name: 7, categoryId: 1 },
      { categoryId: 1 },
      // The white-space rule, stated as `pattern: "\\S"`: every white space JavaScript's trim() removes.
      { name: '', categoryId: 1 },
      { name: ' ', categoryId: 1 },
      { name: '\t\n\r\v\f', categoryId: 1 },
      { name: '\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff', categoryId: 1 },
      { name: '\u200b', categoryId: 1 },
      { name: ' x ', categoryId: 1 },
      // Text a person can read: the service's check, which no portable `pattern` can state (the description does).
      { name: '\u001b[31mred\r\nX-Injected: 1', categoryId: 1 },
      { name: 'A\u0000B', categoryId: 1 },
      { name: 'A\u0085B', categoryId: 1 },
      { name: '\u202egnp.exe', categoryId: 1 },
      { name: 'a\u2066b', categoryId: 1 },
      { name: '\u200b\u200b', categoryId: 1 },
      { name: '\u200d\u2060\ufeff\u200e', categoryId: 1 },
      { name: 'Rex\u200e', categoryId: 1 },
      { name: 'Rex\ud800', categoryId: 1 },
      { name: '\ud83d\udc36', categoryId: 1 },
      { name: 'Ame\u0301lie', categoryId: 1 },
    ];
    for (const sample of samples) {
      const accepted = NewPet.safeParse(sample).success;
      // A name the document accepts may still be refused by the service's readability check, for that name only.
      if (validate(sample) && !accepted)
        expect(NewPet.safeParse({ ...(sample as object), name: 'Rex' }).success, JSON.stringify(sample)).toBe(true);
      else expect(validate(sample), JSON.stringify(sample)).toBe(accepted);
    }
  });
});

describe('serving the document', () => {
  let api: LocalApi;
  const unused: ProxyHandler = () => Promise.reject(new Error('no operation runs here'));

  beforeAll(async () => {
    const stage = await sourceStageApi({ handlers: Object.fromEntries(functionIds.map((id) => [id, unused])) });
    api = await startLocalApi({ api: stage.api });
  });
  afterAll(() => api.close());

  // Empty path segments are no part of a path (infra/local/gateway/router.ts), so a trailing slash or two change nothing.
  it.each(['/openapi.json', '/openapi.json/', '/openapi.json//'])(
    'GET /v1%s answers the document, without authentication',
    async (path) => {
      const res = await fetch(`${api.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      // The bytes a deployed stage serves: its mapping template, rendered by Velocity.
      const text = await res.text();
      expect(text).toBe(openApiMappingTemplate());
      expect(JSON.parse(text)).toEqual(JSON.parse(await readFile(OPENAPI_FILE, 'utf8')));
    },
  );

  it("gives the gateway's own answers the bodies it sends as their examples", async () => {
    const example = (name: keyof typeof GATEWAY_RESPONSE_COMPONENTS) =>
      (document.components.responses[name] as ResponseObject).content?.['application/json']?.example;
    expect(await (await fetch(`${api.url}/nope`)).json()).toEqual(example('NotFound'));
    const [method, path] =
      /^Method (\S+) is not allowed on \/v1(\S+)\./.exec(GATEWAY_RESPONSE_COMPONENTS.MethodNotAllowed.example)?.slice(1) ?? [];
    const res = await fetch(`${api.url}${path}`, { method });
    expect(await res.json()).toEqual(example('MethodNotAllowed'));
    expect(res.headers.get('allow')).toBe((document.components.headers.Allow as HeaderObject).example);
  });

  it('serves it at that path only', async () => {
    for (const path of ['/openapi.jsonx', '/openapi', '/openapi.json/x']) expect((await fetch(`${api.url}${path}`)).status, path).toBe(404);
  });

  it('answers other methods than GET and HEAD with 405 and Allow', async () => {
    const url = `${api.url}/openapi.json`;
    const res = await fetch(url, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('fits a deployed stage: a Velocity-safe mapping template that parses back to the document', () => {
    const template = openApiMappingTemplate();
    expect(template).not.toMatch(/[$#]/);
    expect(JSON.parse(template)).toEqual(document);
    // The document names no local server: a client of a deployed stage has nothing on 127.0.0.1.
    expect(template).not.toContain('127.0.0.1');
    // Within API Gateway's limit, and what each operation adds to it: test/cdk/stack-quotas.test.ts.
    expect(Buffer.byteLength(template)).toBeLessThan(MAPPING_TEMPLATE_MAX_BYTES);
  });
});
