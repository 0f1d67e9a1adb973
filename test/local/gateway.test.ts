/**
 * The template-driven gateway of local mode (infra/local/gateway/), on the staging template the
 * CDK app synthesizes: routing by the resource tree, MOCK integrations and gateway responses
 * rendered by Velocity, method throttling, a web ACL's rules, reserved concurrency, and what it
 * makes of a function's failure.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { withReservedConcurrency } from '../../infra/local/lambda/reserved-concurrency.ts';
import { cachedStageTemplate, REPO_ROOT, synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import { preferredCoding } from '#lib/http/content-coding.ts';
import { type FunctionInvoker, LocalRestApi, type RequestHead } from '../../infra/local/gateway/rest-api.ts';
import { matchPath, methodFor } from '../../infra/local/gateway/router.ts';
import {
  type CfnTemplate,
  readRestApi,
  type RestApiDefinition,
  type TextTransformation,
  type WafStatement,
} from '../../infra/local/gateway/template.ts';
import { MethodThrottle } from '../../infra/local/gateway/throttle.ts';
import { LocalWebAcl, matches } from '../../infra/local/gateway/web-acl.ts';
import { renderTemplate } from '../../infra/local/gateway/velocity.ts';
import { EDGE_UNAUTHORIZED_MESSAGE } from '../../infra/cdk/constructs/web-acl.ts';
import { startLocalApi } from '../../infra/local/api-server.ts';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { deprecationHeaders } from '#lib/http/deprecation.ts';
import { GATEWAY_MAX_BODY_BYTES } from '#lib/http/gateway-errors.ts';
import { getPet } from '#lib/operations/get-pet.ts';
import { openApiMappingTemplate } from '../../infra/openapi/serve.ts';
import { functionIds } from '#lib/operations.ts';
import { API_BASE_PATH, allowedMethods, type HttpMethod, resources } from '#lib/routes.ts';
import { DOCS_THROTTLED_METHODS, stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';

let definition: RestApiDefinition;
beforeAll(async () => {
  definition = readRestApi(inject('stageTemplate') ?? (await synthesizeStageTemplate('staging')));
});

function head(method: string, path: string, headers: Record<string, string> = {}): RequestHead {
  return {
    requestId: 'req-1',
    domainName: '127.0.0.1:3000',
    method,
    path,
    search: '',
    rawHeaders: Object.entries(headers).flat(),
    sourceIp: '127.0.0.1',
    httpVersion: '1.1',
  };
}

const echo: FunctionInvoker = async (fn, event) => ({
  ok: true,
  result: {
    statusCode: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      fn: fn.functionName,
      resource: event.resource,
      params: event.pathParameters,
      stage: event.requestContext.stage,
    }),
  },
});

async function call(api: LocalRestApi, method: string, path: string, headers: Record<string, string> = {}, sourceIp = '127.0.0.1') {
  const request = { ...head(method, path, headers), sourceIp };
  const result = await api.answer(api.route(request), request, Buffer.alloc(0));
  return { ...result, json: result.body ? (JSON.parse(result.body) as Record<string, unknown>) : undefined };
}

describe('the template', () => {
  it('reads the resource tree, the stage, its throttling and the functions', () => {
    expect(definition.stageName).toBe('staging');
    // Each API method's share of the stage's concurrency, and the docs methods' own throttle (capacity.ts).
    const settings = readStageSettings('staging', () => undefined);
    const docs = { rateLimit: settings.docsThrottlingRateLimit, burstLimit: settings.docsThrottlingBurstLimit };
    expect(definition.throttling).toEqual([
      { resourcePath: '/*', httpMethod: '*', ...stageCapacity(settings).apiThrottle },
      ...DOCS_THROTTLED_METHODS.map((m) => ({
        resourcePath: `/${(API_BASE_PATH + m.resource).replaceAll('/', '~1')}`,
        httpMethod: m.method,
        ...docs,
      })),
    ]);
    // Staging has a web ACL by default, and reserves no concurrency.
    expect(definition.webAcl).toBeDefined();
    // One function per operation, and the docs function.
    expect([...definition.functions.values()].map((f) => f.reservedConcurrency)).toEqual([...functionIds, 'docs'].map(() => undefined));
    expect([...definition.functions.values()].map((f) => f.functionName).sort()).toEqual(
      [...functionIds, 'docs'].map((id) => `PetStore-staging-${id}`).sort(),
    );
    const paths: string[] = [];
    const walk = (node: RestApiDefinition['root']) => {
      paths.push(`${node.path} ${[...node.methods.keys()].sort().join(',')}`);
      node.children.forEach(walk);
    };
    walk(definition.root);
    expect(paths.sort()).toEqual(
      [
        '/ ANY',
        '/v1 ANY',
        '/v1/docs ANY',
        '/v1/docs/{asset} ANY',
        '/v1/openapi.json ANY,GET,HEAD',
        ...resources.map((resource) => `${API_BASE_PATH}${resource} ${['ANY', ...allowedMethods(resource)].sort().join(',')}`),
        '/{proxy+} ANY',
      ].sort(),
    );
  });
});

describe('routing', () => {
  it.each([
    ['/v1/pets', '/v1/pets', null],
    ['/v1/pets/', '/v1/pets', null],
    ['/v1//pets', '/v1/pets', null],
    ['/v1/pets/42', '/v1/pets/{petId}', { petId: '42' }],
    ['/v1/pets/42/toys', '/{proxy+}', { proxy: 'v1/pets/42/toys' }],
    ['/v2/pets', '/{proxy+}', { proxy: 'v2/pets' }],
    ['/', '/', null],
    ['/v1', '/v1', null],
  ])('%s → %s', (path, resource, pathParameters) => {
    const match = matchPath(definition.root, path);
    expect(match?.resource.path).toBe(resource);
    expect(match?.pathParameters).toEqual(pathParameters);
  });

  it("prefers a resource's own method to its ANY", () => {
    const pets = matchPath(definition.root, '/v1/pets')?.resource;
    expect(pets && methodFor(pets, 'GET')?.integration.type).toBe('AWS_PROXY');
    expect(pets && methodFor(pets, 'DELETE')?.integration.type).toBe('MOCK');
  });

  it('hands a proxy integration the event API Gateway builds, under the stage name', async () => {
    const api = new LocalRestApi(definition, echo, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    expect((await call(api, 'GET', '/v1/pets/7')).json).toEqual({
      fn: 'PetStore-staging-get-pet',
      resource: '/v1/pets/{petId}',
      params: { petId: '7' },
      stage: 'staging',
    });
  });
});

describe('MOCK integrations and gateway responses, rendered from the template', () => {
  const api = () => new LocalRestApi(definition, echo, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
  // A resource of the route table and a method it does not allow.
  const [resource = ''] = resources;
  const path = API_BASE_PATH + resource;
  const allowed = allowedMethods(resource);
  const refused = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !allowed.includes(m as HttpMethod)) ?? 'OPTIONS';

  it('answers a wrong method with the 405 mock: the method filled in, Allow and the common headers', async () => {
    const res = await call(api(), refused, path);
    expect(res.statusCode).toBe(405);
    expect(res.headers).toMatchObject({
      'Content-Type': 'application/json',
      Allow: allowed.join(', '),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': 'req-1',
    });
    expect(res.json).toEqual({
      code: 'method_not_allowed',
      message: `Method ${refused} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`,
      status: 405,
    });
  });

  it('answers an unknown path with the 404 mock', async () => {
    const res = await call(api(), 'GET', '/v1/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json).toMatchObject({ code: 'not_found', status: 404 });
  });

  it.each([
    [refused, path, 405],
    ['GET', '/v1/nothing', 404],
    ['GET', '/v1/openapi.json', 200],
  ])('answers %s %s with %i whatever the Content-Type: a mock passes one without a template through', async (method, path, status) => {
    for (const type of ['text/csv', 'image/png', 'application/x-foo']) {
      const res = await call(api(), method, path, { 'Content-Type': type });
      expect(res.statusCode, type).toBe(status);
      expect(res.headers, type).toMatchObject({ 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' });
    }
  });

  it.each(['NEVER', 'WHEN_NO_TEMPLATES'])(
    'refuses a Content-Type without a template with UNSUPPORTED_MEDIA_TYPE (415) under %s',
    async (behaviour) => {
      const refusing = structuredClone(definition);
      const integration = matchPath(refusing.root, path)?.resource.methods.get('ANY')?.integration;
      if (integration?.type !== 'MOCK') throw new Error(`ANY ${path} is a mock`);
      (integration as { passthroughBehavior: string }).passthroughBehavior = behaviour;
      const res = await call(new LocalRestApi(refusing, echo, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES }), refused, path, {
        'Content-Type': 'text/csv',
      });
      expect(res.statusCode).toBe(415);
      expect(res.headers).toMatchObject({ 'X-Request-Id': 'req-1', 'Cache-Control': 'no-store' });
      expect(res.json).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    },
  );

  it('answers a body over the gateway limit with REQUEST_TOO_LARGE (413) before any function runs', async () => {
    const res = await call(api(), 'POST', '/v1/pets', { 'Content-Length': String(10 * 1024 * 1024 + 1) });
    expect(res.statusCode).toBe(413);
    expect(res.json).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('serves the OpenAPI document from its mapping template, byte for byte what Velocity renders', async () => {
    const res = await call(api(), 'GET', '/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
    expect(res.body).toBe(openApiMappingTemplate());
    expect(Object.keys((res.json as { paths: object }).paths)).toEqual(resources);
  });
});

describe('function failures', () => {
  it.each([
    ['throws', { ok: false, reason: 'boom' } as const],
    ['returns a malformed proxy result', { ok: true, result: { statusCode: 200, body: { not: 'a string' } } } as const],
    ['returns a result with an unknown key', { ok: true, result: { statusCode: 200, body: '', extra: 1 } } as const],
  ])('a function that %s gets the DEFAULT_5XX gateway response (the Error body, status 500)', async (_, outcome) => {
    const api = new LocalRestApi(definition, async () => outcome, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const res = await call(api, 'GET', '/v1/pets');
    expect(res.statusCode).toBe(500);
    expect(res.json).toMatchObject({ code: 'internal_error', status: 500 });
    expect(res.headers).toMatchObject({ 'X-Request-Id': 'req-1' });
  });
});

describe('throttling from MethodSettings', () => {
  it('lets a burst through, then answers THROTTLED (429, Retry-After) until tokens refill at the rate', async () => {
    let now = 0;
    const api = new LocalRestApi(
      { ...definition, throttling: [{ resourcePath: '/*', httpMethod: '*', rateLimit: 2, burstLimit: 3 }] },
      echo,
      { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES },
    );
    // The clock is the throttle's; the gateway's is swapped for a fixed one through the definition.
    const throttle = new MethodThrottle([{ resourcePath: '/*', httpMethod: '*', rateLimit: 2, burstLimit: 3 }], () => now);
    expect([1, 2, 3, 4].map(() => throttle.tryAcquire('/v1/pets', 'GET'))).toEqual([true, true, true, false]);
    now = 500;
    expect([throttle.tryAcquire('/v1/pets', 'GET'), throttle.tryAcquire('/v1/pets', 'GET')]).toEqual([true, false]);
    // Each method has its own bucket.
    expect(throttle.tryAcquire('/v1/pets', 'POST')).toBe(true);

    // A well-formed key: the stage's web ACL answers a keyless request before the bucket counts it.
    const keyed = { Authorization: `Bearer ${generateApiKey()}` };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(api, 'GET', '/v1/pets', keyed)).statusCode);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const throttled = await call(api, 'GET', '/v1/pets', keyed);
    expect(throttled.statusCode).toBe(429);
    // The stage has a web ACL: the throttle's 429 says the client's limits too, as the functions' answers do.
    const limits = stageCapacity(readStageSettings('staging', () => undefined)).limitHeaders;
    expect(throttled.headers).toMatchObject({ 'Retry-After': '1', ...limits });
    expect(throttled.json).toMatchObject({ code: 'too_many_requests', status: 429 });
  });

  it('applies the most specific setting: resource and method over the stage default', () => {
    const throttle = new MethodThrottle(
      [
        { resourcePath: '/*', httpMethod: '*', rateLimit: 100, burstLimit: 100 },
        { resourcePath: '/~1v1~1pets', httpMethod: 'POST', rateLimit: 1, burstLimit: 1 },
      ],
      () => 0,
    );
    expect([throttle.tryAcquire('/v1/pets', 'POST'), throttle.tryAcquire('/v1/pets', 'POST')]).toEqual([true, false]);
    expect([throttle.tryAcquire('/v1/pets', 'GET'), throttle.tryAcquire('/v1/pets', 'GET')]).toEqual([true, true]);
  });
});

/** Every 401 of the web ACL carries these, and no X-Request-Id (its answer is static). */
const EDGE_401_HEADERS = {
  'Content-Type': 'application/json',
  'WWW-Authenticate': 'Bearer realm="petstore"',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Accept-Encoding',
};

describe("a web ACL's rules, from the template", () => {
  let synthesized: RestApiDefinition;
  let withAcl: RestApiDefinition;
  let template: CfnTemplate;
  beforeAll(async () => {
    // r = B = 10: 16 a minute per key and per address, 10 per address on the docs routes, below each method's bucket.
    template = await synthesizeStageTemplate('staging', {
      'staging.methodRateLimit': '10',
      'staging.burstSeconds': '1',
      'staging.functionDurationMs': '200',
      'staging.perKeyPerMinute': '16',
      'staging.perSourcePerMinute': '16',
      'staging.docsPerSourcePerMinute': '10',
    });
    synthesized = readRestApi(template);
    // The tests below count to these: an address may make more requests than one key.
    withAcl = overrideLimits(synthesized, { 'per-source-ip': 15, 'per-api-key': 10 });
  });

  const key = generateApiKey();
  const rules = () => withAcl.webAcl?.rules ?? [];
  const rateOf = (name: string) => {
    const rule = rules().find((r) => r.name === name);
    if (!rule || !('rate' in rule)) throw new Error(`no rate rule ${name}`);
    return rule.rate;
  };
  /** The template's web ACL with rate rules' limits changed: its statements stay the template's. */
  const overrideLimits = (api: RestApiDefinition, limits: Readonly<Record<string, number>>): RestApiDefinition => ({
    ...api,
    webAcl: {
      rules: (api.webAcl?.rules ?? []).map((r) => {
        const limit = limits[r.name];
        return limit !== undefined && 'rate' in r ? { ...r, rate: { ...r.rate, limit } } : r;
      }),
    },
  });
  const counting = () => {
    const invoked: string[] = [];
    const invoke: FunctionInvoker = (fn, event, requestId) => {
      invoked.push(`${event.httpMethod} ${event.path}`);
      return echo(fn, event, requestId);
    };
    return { invoked, invoke };
  };

  it('reads the rules in priority order: the keyless 401s, per source IP, per API key (normalised), docs per source IP', () => {
    expect(rules().map((r) => r.name)).toEqual([
      'automatic-blocks',
      'keyless',
      'keyless-getPet',
      'per-source-ip',
      'per-api-key',
      'docs-per-source-ip',
      'body-size',
    ]);
    expect(rules().slice(0, 3)).toMatchObject([
      { match: expect.any(Object) },
      { match: expect.any(Object) },
      { match: expect.any(Object) },
    ]);
    // The template's limits are the model's: one key's share, and an address as one client.
    const derived = (name: string) => synthesized.webAcl?.rules.find((r) => r.name === name);
    expect(derived('per-source-ip')).toMatchObject({ rate: { limit: 16 } });
    expect(derived('per-api-key')).toMatchObject({ rate: { limit: 16 } });
    expect(rateOf('per-source-ip')).toEqual({ limit: 15, windowSeconds: 60, key: { ip: true } });
    expect(rateOf('per-api-key')).toEqual({
      limit: 10,
      windowSeconds: 60,
      key: { header: 'authorization', transformations: ['COMPRESS_WHITE_SPACE', 'LOWERCASE'] },
    });
    expect(rateOf('docs-per-source-ip')).toMatchObject({ windowSeconds: 60, key: { ip: true }, scopeDown: expect.any(Object) });
  });

  describe('the keyless rule', () => {
    const api = () => {
      const { invoked, invoke } = counting();
      return { invoked, api: new LocalRestApi(withAcl, invoke, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES }) };
    };

    it.each([
      ['GET', '/v1/pets', {}],
      ['POST', '/v1/pets', {}],
      ['GET', '/v1/pets/', {}],
      // Spellings the gateway may route: percent-encoded, dot parts, the stage's prefix (no Host
      // decides), an absolute-form target as WAF may see it.
      ['GET', '/v1/%70ets', {}],
      ['POST', '/v1/./pets', {}],
      ['GET', '/v1/x/../pets/', {}],
      ['GET', '/%2E%2E/v1/%2e/pets', {}],
      ['GET', '/staging/v1/pets', {}],
      ['GET', 'https://abc123.execute-api.eu-west-1.amazonaws.com/staging/v1/pets', {}],
      ['GET', '/v1/pets', { Authorization: '' }],
      ['GET', '/v1/pets', { Authorization: 'Bearer' }],
      ['GET', '/v1/pets', { Authorization: 'Bearer not-a-key' }],
      ['GET', '/v1/pets', { Authorization: `Token ${key}` }],
      ['GET', '/v1/pets', { Authorization: key }],
      ['GET', '/v1/pets', { Authorization: `Bearer\t${key}` }],
      ['GET', '/v1/pets', { Authorization: `\u00a0Bearer ${key}` }],
      ['GET', '/v1/pets', { Authorization: `Bearer ${key}\u00a0` }],
      ['GET', '/v1/pets', { Authorization: `Bearer ${key} extra` }],
      ['GET', '/v1/pets', { Authorization: `Bearer ${key.slice(0, -1)}` }],
    ])('answers %s %s %j with the 401 Error body at the edge, no function run', async (method, path, headers) => {
      const { api: gateway, invoked } = api();
      const res = await call(gateway, method, path, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers).toEqual(EDGE_401_HEADERS);
      expect(res.json).toEqual({ code: 'unauthorized', message: EDGE_UNAUTHORIZED_MESSAGE, status: 401 });
      expect(invoked).toEqual([]);
    });

    it.each([
      '/v1/pets/42',
      '/v1//pets//42/',
      '/v1/%70ets/4%32',
      '/v1/pets/./42',
      '/v1/pets/a%2Fb',
      '/v1/pets/..',
      '/staging/v1/pets/7',
      'http://127.0.0.1:3000/v1/pets/7',
    ])("answers the deprecated getPet's keyless GET %s with the 401 and the function's deprecation headers", async (path) => {
      const { api: gateway, invoked } = api();
      const res = await call(gateway, 'GET', path);
      expect(res.statusCode).toBe(401);
      // The successor's address is local mode's own, as the function's is.
      const successorUrl = `http://${head('GET', path).domainName}${API_BASE_PATH}${getPet.deprecation.successor}`;
      expect(res.headers).toEqual({ ...EDGE_401_HEADERS, ...deprecationHeaders(getPet.deprecation, successorUrl) });
      expect(res.json).toEqual({ code: 'unauthorized', message: EDGE_UNAUTHORIZED_MESSAGE, status: 401 });
      expect(invoked).toEqual([]);
    });

    it.each([
      ['GET', '/v1/nothing', 404],
      ['GET', '/v1/pets/42/toys', 404],
      ['GET', '/v1/%70ets/42/toys', 404],
      ['GET', '/v1', 404],
      ['GET', '/production/v1/pets', 404],
      ['DELETE', '/v1/pets', 405],
      ['POST', '/v1/pets/42', 405],
      ['HEAD', '/v1/pets', 405],
      ['OPTIONS', '/v1/pets', 405],
      ['GET', '/v1/openapi.json', 200],
      ['GET', '/v1/docs', 200],
      ['GET', '/v1/docs/swagger-ui.css', 200],
    ])('leaves keyless %s %s to the gateway (%i)', async (method, path, status) => {
      expect((await call(api().api, method, path)).statusCode).toBe(status);
    });

    it.each([`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`])(
      'lets the well-formed key %j through to the function',
      async (authorization) => {
        const { api: gateway, invoked } = api();
        expect((await call(gateway, 'GET', '/v1/pets/7', { Authorization: authorization })).statusCode).toBe(200);
        expect(invoked).toEqual(['GET /v1/pets/7']);
      },
    );
  });

  it('counts every accepted spelling of one key as that key: once one is blocked, all are', async () => {
    // Without the methods' buckets, which this template sets below these counts: only WAF answers.
    const api = new LocalRestApi({ ...withAcl, throttling: [] }, echo, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const spellings = [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer  ${key}`, `bEaReR     ${key}`];
    const limit = rateOf('per-api-key').limit;
    for (let i = 0; i < limit; i++) {
      expect((await call(api, 'GET', '/v1/pets', { Authorization: spellings[i % spellings.length] as string })).statusCode).toBe(200);
    }
    for (const authorization of spellings) {
      const blocked = await call(api, 'GET', '/v1/pets', { Authorization: authorization });
      expect(blocked.statusCode, authorization).toBe(429);
      expect(blocked.headers).toEqual({
        'Content-Type': 'application/json',
        'Retry-After': '60',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding',
        'RateLimit-Policy': expect.stringMatching(/^"per-key";q=\d+;w=60, "per-address";q=\d+;w=60$/),
        'X-RateLimit-Limit': expect.stringMatching(/^\d+$/),
      });
      expect(blocked.json).toEqual({ code: 'too_many_requests', message: expect.stringMatching(/Retry-After/), status: 429 });
    }
    // Another key has its own budget (from another address: this one has now made its 15).
    const other = { ...head('GET', '/v1/pets', { Authorization: `Bearer ${generateApiKey()}` }), sourceIp: '10.0.0.9' };
    expect((await api.answer(api.route(other), other, Buffer.alloc(0))).statusCode).toBe(200);
  });

  it('blocks a source IP over its limit whatever it sends, keyed or not, on any path', async () => {
    const api = new LocalRestApi(withAcl, echo, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const statuses = [];
    for (let i = 0; i < 15; i++) {
      statuses.push((await call(api, 'GET', '/v1/pets', i % 2 ? { Authorization: `Bearer ${generateApiKey()}` } : {})).statusCode);
    }
    // The keyless ones were answered at the edge, before the per-address rule counted them.
    expect(statuses.filter((status) => status === 401)).toHaveLength(8);
    for (let i = 0; i < 8; i++) expect((await call(api, 'GET', '/v1/openapi.json')).statusCode).toBe(200);
    // Unknown paths count too: the web ACL answers before the gateway routes.
    expect((await call(api, 'GET', '/nowhere')).json).toMatchObject({ code: 'too_many_requests' });
  });

  it('limits one address on the docs routes and the OpenAPI document alone, whose buckets every client shares; others still get them', async () => {
    const api = new LocalRestApi(overrideLimits(withAcl, { 'docs-per-source-ip': 3 }), echo, {
      throttling: true,
      maxBodyBytes: GATEWAY_MAX_BODY_BYTES,
    });
    const from = (sourceIp: string, path: string) => {
      const request = { ...head('GET', path), sourceIp };
      return api.answer(api.route(request), request, Buffer.alloc(0));
    };
    for (const path of ['/v1/docs', '/v1/openapi.json', '/v1/docs/']) expect((await from('10.0.0.1', path)).statusCode).toBe(200);
    expect((await from('10.0.0.1', '/v1/docs/b.js')).statusCode).toBe(429);
    expect((await from('10.0.0.1', '/v1/openapi.json')).statusCode).toBe(429);
    expect((await from('10.0.0.2', '/v1/docs')).statusCode).toBe(200);
    // Not the other routes: an unknown path is the gateway's 404.
    expect((await from('10.0.0.1', '/v1/nothing')).statusCode).toBe(404);
  });

  it('counts over a sliding window: a blocked client passes again once its recent rate falls below the limit', () => {
    let now = 0;
    const acl = new LocalWebAcl(
      {
        rules: [{ name: 'ip', rate: { limit: 3, windowSeconds: 60, key: { ip: true } }, response: { status: 429, headers: {}, body: '' } }],
      },
      () => now,
    );
    const request = (sourceIp: string) => ({ sourceIp, method: 'GET', uriPath: '/', header: () => undefined });
    expect([1, 2, 3, 4].map(() => acl.check(request('10.0.0.1')) === undefined)).toEqual([true, true, true, false]);
    // Half a window later the previous window still weighs half: 4 × 0.5 + 1 = 3, not over 3.
    now = 90_000;
    expect(acl.check(request('10.0.0.1'))).toBeUndefined();
    expect(acl.check(request('10.0.0.1'))?.status).toBe(429);
    expect(acl.check(request('10.0.0.2'))).toBeUndefined();
    now = 240_000;
    expect(acl.check(request('10.0.0.1'))).toBeUndefined();
  });

  it("applies WAF's text transformations as documented: LOWERCASE (A-Z), COMPRESS_WHITE_SPACE (\\f \\t \\n \\r \\v, no-break space)", () => {
    const header = (transformations: TextTransformation[], search: string): WafStatement => ({
      byteMatch: { field: { header: 'x' }, transformations, constraint: 'EXACTLY', search },
    });
    const request = (value: string) => ({
      sourceIp: '',
      method: 'GET',
      uriPath: '/',
      header: (name: string) => (name === 'x' ? value : undefined),
    });
    expect(matches(header(['LOWERCASE'], 'abc-é'), request('AbC-é'))).toBe(true);
    expect(matches(header(['LOWERCASE'], 'abc-é'), request('ABC-É'))).toBe(false);
    expect(matches(header(['COMPRESS_WHITE_SPACE'], 'a b c d'), request('a\f\t b\n\r\vc\u00a0\u00a0d'))).toBe(true);
    expect(matches(header(['COMPRESS_WHITE_SPACE'], 'a b'), request('a\u3000b'))).toBe(false);
    expect(matches(header(['COMPRESS_WHITE_SPACE', 'LOWERCASE'], 'bearer k'), request('BEARER\t\u00a0 K'))).toBe(true);
    // URL_DECODE: %XX to its byte, whatever the case of the hex digits; a malformed escape and `+` stay.
    expect(matches(header(['URL_DECODE'], '/v1/pets/a/b %zz %4 +%'), request('/v1/%70ets/a%2Fb%20%zz %4 +%'))).toBe(true);
    expect(matches(header(['URL_DECODE'], '\u00e9'), request('%C3%A9'))).toBe(false);
    expect(matches(header(['URL_DECODE'], '\u00c3\u00a9'), request('%c3%a9'))).toBe(true);
    // NORMALIZE_PATH: repeated slashes, `.` parts and resolvable `..` parts go; a leading `..` and a trailing slash stay.
    for (const [input, output] of [
      ['//v1//./pets/', '/v1/pets/'],
      ['/v1/x/y/../../pets/.', '/v1/pets'],
      ['/../v1/pets', '/../v1/pets'],
      ['/v1/../../pets', '/../pets'],
      ['a/../../b', '../b'],
      ['https://host//v1/pets', 'https:/host/v1/pets'],
      ['/v1\\pets', '/v1\\pets'],
    ]) {
      expect(matches(header(['NORMALIZE_PATH'], output as string), request(input as string)), input).toBe(true);
    }
    expect(matches(header(['URL_DECODE', 'NORMALIZE_PATH'], '/v1/pets'), request('/v1/%2e/x/%2E%2E/pets'))).toBe(true);
    // A missing header matches nothing, so NOT of it does.
    expect(matches({ not: header(['NONE'], '') }, { ...request(''), header: () => undefined })).toBe(true);
  });

  it.each([
    ['a statement it does not evaluate', { GeoMatchStatement: { CountryCodes: ['NL'] } }, /does not evaluate GeoMatchStatement/],
    [
      'a transformation it does not apply',
      {
        ByteMatchStatement: {
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: 'EXACTLY',
          SearchString: '/',
          TextTransformations: [{ Priority: 0, Type: 'NORMALIZE_PATH_WIN' }],
        },
      },
      /does not apply the text transformation NORMALIZE_PATH_WIN/,
    ],
    [
      'a field it does not inspect',
      {
        RegexMatchStatement: { FieldToMatch: { QueryString: {} }, RegexString: 'x', TextTransformations: [{ Priority: 0, Type: 'NONE' }] },
      },
      /inspects UriPath, Method or a SingleHeader only, not QueryString/,
    ],
  ])('refuses at load a template with %s, naming the rule', (_, statement, message) => {
    const changed = structuredClone(template) as {
      Resources: Record<string, { Type: string; Properties?: { Rules?: { Statement: unknown }[] } }>;
    };
    const acl = Object.values(changed.Resources).find((r) => r.Type === 'AWS::WAFv2::WebACL');
    const first = acl?.Properties?.Rules?.find((r) => (r as { Name?: string }).Name === 'keyless');
    if (first) first.Statement = statement;
    expect(() => readRestApi(changed as CfnTemplate)).toThrow(new RegExp(`rule keyless: .*${message.source}`));
  });

  it.each([
    ['another intrinsic', { 'Fn::GetAtt': ['Somewhere', 'Arn'] }],
    [
      'Fn::Sub over another address',
      { 'Fn::Sub': [`<\${U}/pets>`, { U: { 'Fn::Join': ['', ['https://', { Ref: 'Elsewhere' }, '/v1']] } }] },
    ],
  ])("refuses at load a block response's header value of %s, naming it", (_, value) => {
    const changed = structuredClone(template) as {
      Resources: Record<string, { Type: string; Properties?: { Rules?: { Action: unknown }[] } }>;
    };
    const acl = Object.values(changed.Resources).find((r) => r.Type === 'AWS::WAFv2::WebACL');
    const first = acl?.Properties?.Rules?.find((r) => (r as { Name?: string }).Name === 'keyless');
    if (first) first.Action = { Block: { CustomResponse: { ResponseCode: 401, ResponseHeaders: [{ Name: 'Link', Value: value }] } } };
    expect(() => readRestApi(changed as CfnTemplate)).toThrow(/rule keyless header Link: local mode renders text, or Fn::Sub over text/);
  });

  it('is off with the other limits (throttling: false), as load tests run', async () => {
    const api = new LocalRestApi(withAcl, echo, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    for (let i = 0; i < 20; i++) expect((await call(api, 'GET', '/v1/pets', { Authorization: `Bearer ${key}` })).statusCode).toBe(200);
    expect((await call(api, 'GET', '/v1/pets')).statusCode).toBe(200);
  });

  it('end to end over HTTP: a keyless flood from one address leaves a keyed client on another with no 429, and costs no function or token', async () => {
    // One method bucket small enough to see: each keyless request that took a token would show.
    const burst = 20;
    const definition = {
      ...overrideLimits(withAcl, { 'per-source-ip': 10_000, 'per-api-key': 10_000 }),
      throttling: [{ resourcePath: '/*', httpMethod: '*', rateLimit: 1, burstLimit: burst }],
    };
    const { invoked, invoke } = counting();
    const server = await startLocalApi({
      api: new LocalRestApi(definition, invoke, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES }),
    });
    try {
      const flood = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const statuses: number[] = [];
          for (let i = 0; i < 30; i++) statuses.push((await httpGet(`${server.url}/pets`, '127.0.0.2', {})).status);
          return statuses;
        }),
      );
      expect(flood.flat()).toEqual(Array(300).fill(401));
      const keyed: number[] = [];
      for (let i = 0; i < burst; i++)
        keyed.push((await httpGet(`${server.url}/pets`, '127.0.0.3', { Authorization: `Bearer ${key}` })).status);
      expect(keyed).toEqual(Array(burst).fill(200));
      expect(invoked).toHaveLength(burst);
      // The bucket held exactly the burst, so the flood took none of it.
      expect((await httpGet(`${server.url}/pets`, '127.0.0.3', { Authorization: `Bearer ${key}` })).status).toBe(429);
      const edge = await httpGet(`${server.url}/pets`, '127.0.0.2', {});
      expect(edge.headers['www-authenticate']).toBe('Bearer realm="petstore"');
      expect(JSON.parse(edge.body)).toEqual({ code: 'unauthorized', message: EDGE_UNAUTHORIZED_MESSAGE, status: 401 });
    } finally {
      await server.close();
    }
  });
});

/** A GET over a fresh connection from `localAddress` (the local API takes the socket's address as the source IP). */
function httpGet(
  url: string,
  localAddress: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('reserved concurrency, from the template', () => {
  let reserving: RestApiDefinition;
  // A well-formed key: the stage's web ACL answers a keyless request at the edge.
  const keyed = { Authorization: `Bearer ${generateApiKey()}` };
  beforeAll(async () => {
    // Each function reserves its need: list-pets r = B = 20, 20 + ⌈20 × 0.1 s⌉ = 22.
    reserving = readRestApi(
      await synthesizeStageTemplate('staging', {
        'staging.methodRateLimit': '20',
        'staging.burstSeconds': '1',
        'staging.functionDurationMs': '100',
        'staging.reserveConcurrency': 'true',
      }),
    );
  });

  it('answers an invocation over the reservation, when calls outlast the budget, with INTEGRATION_FAILURE (503, Retry-After) without running it', async () => {
    const gates: (() => void)[] = [];
    let runs = 0;
    const slow: FunctionInvoker = async (fn, event, requestId) => {
      runs++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return echo(fn, event, requestId);
    };
    // The reservation is the invoker's, as local mode composes it (infra/local/stage-api.ts).
    const api = new LocalRestApi(reserving, withReservedConcurrency(slow), { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const reserved = [...reserving.functions.values()].find((f) => f.functionName.endsWith('list-pets'))?.reservedConcurrency ?? 0;
    expect(reserved).toBe(22);
    // The burst, then what the bucket refills (20 a second) while the held calls outlast their 100 ms.
    const running = Array.from({ length: 20 }, (_, i) => call(api, 'GET', '/v1/pets', keyed, `10.0.0.${i}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    running.push(call(api, 'GET', '/v1/pets', keyed, '10.0.1.1'), call(api, 'GET', '/v1/pets', keyed, '10.0.1.2'));
    const throttled = await call(api, 'GET', '/v1/pets', keyed, '10.0.1.3');
    expect(throttled.statusCode).toBe(503);
    expect(throttled.headers).toMatchObject({ 'Retry-After': '1', 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' });
    expect(throttled.json).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(runs).toBe(reserved);
    // Another function has its own reservation.
    const other = call(api, 'GET', '/v1/pets/1', keyed, '10.0.1.4');
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(reserved + 1);
    for (const open of gates) open();
    expect((await Promise.all([...running, other])).map((r) => r.statusCode)).toEqual(Array(reserved + 1).fill(200));
    // Back under the reservation: it runs again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = call(api, 'GET', '/v1/pets', keyed, '10.0.1.5');
    await new Promise((resolve) => setImmediate(resolve));
    gates.at(-1)?.();
    expect((await again).statusCode).toBe(200);
  });
});

describe('content encoding', () => {
  it.each([
    ['gzip', 'gzip'],
    ['deflate, gzip', 'gzip'],
    ['gzip;q=0.2, deflate;q=0.8', 'deflate'],
    ['*', 'gzip'],
    ['*;q=0.5, gzip;q=0', 'deflate'],
    ['br', undefined],
    ['identity', undefined],
    ['', undefined],
  ])('Accept-Encoding %j → %s', (accept, coding) => {
    expect(preferredCoding(accept)).toBe(coding);
  });
});

describe('Velocity', () => {
  it('renders $context, $input and $util as API Gateway documents them', () => {
    const out = renderTemplate(
      '{"m":"$context.httpMethod","id":"$input.params(\'petId\')","b":"$util.escapeJavaScript($input.json(\'$.name\'))"}',
      {
        context: { httpMethod: 'PATCH' },
        body: '{"name":"Rex \\"the\\" dog"}',
        headers: {},
        query: {},
        pathParameters: { petId: '9' },
      },
    );
    expect(out).toBe('{"m":"PATCH","id":"9","b":"\\"Rex \\\\\\"the\\\\\\" dog\\""}');
  });
});

describe('the template cache of npm start', () => {
  it('gives the template a fresh synthesis gives, from node_modules/.cache, keyed by what shapes it', async () => {
    const cached = await cachedStageTemplate('staging');
    // Asset keys aside: they hash the project's files, and source mode never reads them (cloud-assembly.ts).
    expect(withoutAssetKeys(cached)).toEqual(withoutAssetKeys(await synthesizeStageTemplate('staging')));
    const files = readdirSync(path.join(REPO_ROOT, 'node_modules/.cache/petstore-templates')).filter((f) => f.startsWith('staging-'));
    expect(files.some((f) => /^staging-[0-9a-f]{16}\.json$/.test(f))).toBe(true);
    expect(await cachedStageTemplate('staging')).toEqual(cached);
  });

  it('synthesizes in a child process: the process that goes on to serve never loads aws-cdk-lib', async () => {
    // A fresh process, as npm start is: this test's own process has aws-cdk-lib loaded by other suites.
    const dir = mkdtempSync(path.join(tmpdir(), 'petstore-synth-test-'));
    const script = path.join(dir, 'serve.mjs');
    writeFileSync(
      script,
      [
        "import { createRequire } from 'node:module';",
        `const { synthesizeStageTemplate } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'infra/local/cloud-assembly.ts')).href)});`,
        "const template = await synthesizeStageTemplate('staging');",
        "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/aws-cdk-lib/'));",
        'console.log(JSON.stringify({ resources: Object.keys(template.Resources).length, loaded: loaded.length }));',
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: REPO_ROOT }).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    const { resources, loaded } = JSON.parse(stdout) as { resources: number; loaded: number };
    expect(resources).toBeGreaterThan(50);
    expect(loaded).toBe(0);
  });

  it("rejects with the synthesis's own error, such as a bad stage setting", async () => {
    await expect(synthesizeStageTemplate('staging', { 'staging.logLevel': 'loud' })).rejects.toThrow(
      'stage "staging" setting "logLevel" must be one of debug, info, warn, error, got "loud".',
    );
  });
});

function withoutAssetKeys(template: object): unknown {
  return JSON.parse(JSON.stringify(template), (key, value) => (key === 'S3Key' ? '<asset>' : value));
}
