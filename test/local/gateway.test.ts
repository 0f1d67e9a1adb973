/**
 * The template-driven gateway of local mode (infra/local/gateway/), on the staging template the
 * CDK app synthesizes: routing by the resource tree, MOCK integrations and gateway responses
 * rendered by Velocity, method throttling, a web ACL's rate rules, reserved concurrency, and what it
 * makes of a function's failure.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cachedStageTemplate, REPO_ROOT, synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import { type FunctionInvoker, LocalRestApi, preferredCoding, type RequestHead } from '../../infra/local/gateway/rest-api.ts';
import { matchPath, methodFor } from '../../infra/local/gateway/router.ts';
import { readRestApi, type RestApiDefinition } from '../../infra/local/gateway/template.ts';
import { MethodThrottle } from '../../infra/local/gateway/throttle.ts';
import { WebAclRateRules } from '../../infra/local/gateway/web-acl.ts';
import { renderTemplate } from '../../infra/local/gateway/velocity.ts';
import { GATEWAY_MAX_BODY_BYTES } from '#lib/http/gateway-errors.ts';
import { openApiMappingTemplate } from '#lib/openapi/serve.ts';
import { functionIds } from '#lib/operations.ts';
import { API_BASE_PATH, allowedMethods, resources } from '#lib/routes.ts';

let definition: RestApiDefinition;
beforeAll(async () => {
  definition = readRestApi(await synthesizeStageTemplate('staging'));
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

async function call(api: LocalRestApi, method: string, path: string, headers: Record<string, string> = {}) {
  const request = head(method, path, headers);
  const result = await api.answer(api.route(request), request, Buffer.alloc(0));
  return { ...result, json: result.body ? (JSON.parse(result.body) as Record<string, unknown>) : undefined };
}

describe('the template', () => {
  it('reads the resource tree, the stage, its throttling and the functions', () => {
    expect(definition.stageName).toBe('staging');
    expect(definition.throttling).toEqual([
      { resourcePath: '/*', httpMethod: '*', rateLimit: 50, burstLimit: 100 },
      { resourcePath: '/~1v1~1docs', httpMethod: 'GET', rateLimit: 5, burstLimit: 10 },
      { resourcePath: '/~1v1~1docs~1{asset}', httpMethod: 'GET', rateLimit: 5, burstLimit: 10 },
    ]);
    // Staging has no web ACL by default; every function has a reserved concurrency.
    expect(definition.webAcl).toBeUndefined();
    // One function per operation, and the docs function.
    expect([...definition.functions.values()].map((f) => f.reservedConcurrency)).toEqual([...functionIds, 'docs'].map(() => 10));
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
        '/v1/docs ANY,GET',
        '/v1/docs/{asset} ANY,GET',
        '/v1/openapi.json ANY,GET',
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

  it('answers a wrong method with the 405 mock: the method filled in, Allow and the common headers', async () => {
    const res = await call(api(), 'DELETE', '/v1/pets');
    expect(res.statusCode).toBe(405);
    expect(res.headers).toMatchObject({
      'Content-Type': 'application/json',
      Allow: 'GET, POST',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': 'req-1',
    });
    expect(res.json).toEqual({
      code: 'method_not_allowed',
      message: 'Method DELETE is not allowed on /v1/pets. Allowed: GET, POST.',
      status: 405,
    });
  });

  it('answers an unknown path with the 404 mock', async () => {
    const res = await call(api(), 'GET', '/v1/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers a mock request whose Content-Type has no request template with UNSUPPORTED_MEDIA_TYPE (415)', async () => {
    const res = await call(api(), 'DELETE', '/v1/pets', { 'Content-Type': 'text/csv' });
    expect(res.statusCode).toBe(415);
    expect(res.headers).toMatchObject({ 'X-Request-Id': 'req-1', 'Cache-Control': 'no-store' });
    expect(res.json).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

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
    expect(Object.keys((res.json as { paths: object }).paths)).toEqual(['/pets', '/pets/{petId}']);
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

    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(api, 'GET', '/v1/pets')).statusCode);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const throttled = await call(api, 'GET', '/v1/pets');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers).toMatchObject({ 'Retry-After': '1' });
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

describe("a web ACL's rate rules, from the template", () => {
  let withAcl: RestApiDefinition;
  beforeAll(async () => {
    withAcl = readRestApi(
      await synthesizeStageTemplate('staging', {
        'staging.webAcl': 'true',
        'staging.webAclPerKeyPerMinute': '10',
        'staging.webAclPerIpPerMinute': '15',
      }),
    );
  });

  it('reads both rules in priority order: per source IP, then per Authorization value, with their Block response', () => {
    expect(withAcl.webAcl?.rules.map(({ name, limit, windowSeconds, key }) => ({ name, limit, windowSeconds, key }))).toEqual([
      { name: 'per-source-ip', limit: 15, windowSeconds: 60, key: { ip: true } },
      { name: 'per-api-key', limit: 10, windowSeconds: 60, key: { header: 'authorization' } },
    ]);
  });

  it('blocks a key over its limit with the 429 Error body and Retry-After, while other keys and the keyless pass', async () => {
    const api = new LocalRestApi(withAcl, echo, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const asKey = (key: string) => call(api, 'GET', '/v1/pets', { Authorization: `Bearer ${key}` });
    for (let i = 0; i < 10; i++) expect((await asKey('one')).statusCode).toBe(200);
    const blocked = await asKey('one');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers).toEqual({
      'Content-Type': 'application/json',
      'Retry-After': '60',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(blocked.json).toEqual({ code: 'too_many_requests', message: expect.stringMatching(/Retry-After/), status: 429 });
    expect((await asKey('two')).statusCode).toBe(200);
    expect((await call(api, 'GET', '/v1/docs')).statusCode).toBe(200);
  });

  it('blocks a source IP over its limit whatever it sends, keyless or with a fresh made-up key each time', async () => {
    const api = new LocalRestApi(withAcl, echo, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const statuses = [];
    for (let i = 0; i < 16; i++)
      statuses.push((await call(api, 'GET', '/v1/pets', i % 2 ? { Authorization: `Bearer k${i}` } : {})).statusCode);
    expect(statuses.slice(0, 15).every((status) => status === 200)).toBe(true);
    expect(statuses[15]).toBe(429);
    // Unknown paths count too: the web ACL answers before the gateway routes.
    expect((await call(api, 'GET', '/nowhere')).json).toMatchObject({ code: 'too_many_requests' });
  });

  it('counts over a sliding window: a blocked client passes again once its recent rate falls below the limit', () => {
    let now = 0;
    const rules = new WebAclRateRules(
      { rules: [{ name: 'ip', limit: 3, windowSeconds: 60, key: { ip: true }, response: { status: 429, headers: {}, body: '' } }] },
      () => now,
    );
    const request = { sourceIp: '10.0.0.1', header: () => undefined };
    expect([1, 2, 3, 4].map(() => rules.check(request) === undefined)).toEqual([true, true, true, false]);
    // Half a window later the previous window still weighs half: 4 × 0.5 + 1 = 3, not over 3.
    now = 90_000;
    expect(rules.check(request)).toBeUndefined();
    expect(rules.check(request)?.status).toBe(429);
    expect(rules.check({ sourceIp: '10.0.0.2', header: () => undefined })).toBeUndefined();
    now = 240_000;
    expect(rules.check(request)).toBeUndefined();
  });

  it('is off with the other limits (throttling: false), as load tests run', async () => {
    const api = new LocalRestApi(withAcl, echo, { throttling: false, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    for (let i = 0; i < 20; i++) expect((await call(api, 'GET', '/v1/pets', { Authorization: 'Bearer one' })).statusCode).toBe(200);
  });
});

describe('reserved concurrency, from the template', () => {
  it('answers an invocation over the reservation with INTEGRATION_FAILURE (503, Retry-After) without running it', async () => {
    const gates: (() => void)[] = [];
    let runs = 0;
    const slow: FunctionInvoker = async (fn, event, requestId) => {
      runs++;
      await new Promise<void>((resolve) => gates.push(resolve));
      return echo(fn, event, requestId);
    };
    const api = new LocalRestApi(definition, slow, { throttling: true, maxBodyBytes: GATEWAY_MAX_BODY_BYTES });
    const reserved = [...definition.functions.values()].find((f) => f.functionName.endsWith('list-pets'))?.reservedConcurrency ?? 0;
    expect(reserved).toBe(10);
    const running = Array.from({ length: reserved }, () => call(api, 'GET', '/v1/pets'));
    const throttled = await call(api, 'GET', '/v1/pets');
    expect(throttled.statusCode).toBe(503);
    expect(throttled.headers).toMatchObject({ 'Retry-After': '1', 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' });
    expect(throttled.json).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(runs).toBe(reserved);
    // Another function has its own reservation.
    const other = call(api, 'GET', '/v1/pets/1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(reserved + 1);
    for (const open of gates) open();
    expect((await Promise.all([...running, other])).map((r) => r.statusCode)).toEqual(Array(reserved + 1).fill(200));
    // Back under the reservation: it runs again.
    const again = call(api, 'GET', '/v1/pets');
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

  it('synthesizes in a worker thread: the process that goes on to serve never loads aws-cdk-lib', async () => {
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
