/**
 * What the gateway answers itself (unknown path 404, wrong method 405, both before authentication),
 * the Error shape and headers of every kind of answer, and the fidelity of the local API to API
 * Gateway (request ids, bytes that are not UTF-8). The server-side failures: store-outage.test.ts.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { buildOpenApiDocument, type ResponseObject } from '../../infra/openapi/document.ts';
import { operations } from '#lib/operations.ts';
import { allowedMethods, type HttpMethod, resources } from '#lib/routes.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { validRequest } from '../support/operations.ts';
import {
  createPet,
  expectError,
  expectJson,
  expectJsonContentType,
  expectRequestId,
  origin,
  type Pet,
  postJson,
  rawRequest,
} from './helpers.ts';

let api: TestApi;
let pet: Pet;

beforeAll(async () => {
  api = await startTestApi();
  pet = await createPet(api, { name: 'Router', categoryId: 1, status: 'available' });
});

afterAll(async () => {
  await api?.close();
});

/** The three ways of (not) authenticating that must not change a routing answer. */
const CREDENTIALS: ReadonlyArray<[string, () => string | null | undefined]> = [
  ['no key', () => null],
  ['an unknown key', () => generateApiKey()],
  ['the valid key', () => undefined],
];

/** fetch on an absolute path of the server (not relative to /v1). */
function fetchAt(path: string, init: RequestInit & { auth?: string | null } = {}): Promise<Response> {
  const { auth, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (auth !== null) headers.set('authorization', `Bearer ${auth ?? api.apiKey}`);
  return fetch(`${origin(api)}${path}`, { ...rest, headers });
}

/** Writes `request` as raw bytes on a new connection and returns everything the server sends back. */
function sendRaw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

const allowOf = (res: Response): string[] =>
  (res.headers.get('allow') ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

describe('unknown paths → 404 not_found, before authentication', () => {
  const paths = ['/v1/nope', '/v1/pets/1/toys', '/pets', '/pets/1', '/v2/pets', '/v1', '/', '/v1/store/orders', '/v1/pet', '/v1/PETS'];

  describe.each(CREDENTIALS)('with %s', (_, auth) => {
    it.each(paths)('GET %s', async (path) => {
      await expectError(await fetchAt(path, { auth: auth() }), 404, 'not_found');
    });
  });

  it.each(['POST', 'DELETE', 'PUT'])('%s on an unknown path is 404, not 405', async (method) => {
    await expectError(await fetchAt('/v1/nope', { method, auth: null }), 404, 'not_found');
  });

  it('carries no WWW-Authenticate challenge and no Allow header', async () => {
    const res = await fetchAt('/v1/nope', { auth: null });
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.headers.get('allow')).toBeNull();
    await expectError(res, 404, 'not_found', ['/v1/pets']);
  });
});

/** A resource of the route table as a path, its parameters filled in; and the methods it refuses, from the route table too. */
const atPath = (resource: string, id: string | number = 1): string => `/v1${resource.replace(/\{[^}]+\}/g, String(id))}`;
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const notAllowed = (resource: string): HttpMethod[] => METHODS.filter((m) => !allowedMethods(resource).includes(m));
const allowSorted = (resource: string): string[] => [...allowedMethods(resource)].sort();
const [LIST, ONE] = ['/pets', '/pets/{petId}'];

describe('known paths with another method → 405 method_not_allowed with Allow, before authentication', () => {
  const cases = resources.flatMap((resource) =>
    notAllowed(resource).map((method) => [method, atPath(resource), allowSorted(resource)] as const),
  );

  it('has a method to refuse on every resource', () => {
    for (const resource of resources) expect(notAllowed(resource), resource).not.toEqual([]);
  });

  describe.each(CREDENTIALS)('with %s', (_, auth) => {
    it.each(cases)('%s %s', async (method, path, allow) => {
      const res = await fetchAt(path, { method, auth: auth() });
      expect(allowOf(res)).toEqual(allow);
      expect(res.headers.get('www-authenticate')).toBeNull();
      await expectError(res, 405, 'method_not_allowed', [method, ...allow]);
    });
  });

  it("lists the route table's methods in Allow, in its order", async () => {
    for (const resource of resources) {
      const res = await fetchAt(atPath(resource, pet.id), { method: notAllowed(resource)[0], auth: null });
      expect(res.headers.get('allow')).toBe(allowedMethods(resource).join(', '));
      await res.body?.cancel();
    }
  });

  it('applies to an existing pet and to a malformed petId alike', async () => {
    for (const id of [pet.id, 'abc']) {
      const res = await fetchAt(atPath(ONE, id), { method: notAllowed(ONE)[0], auth: null });
      expect(allowOf(res)).toEqual(allowSorted(ONE));
      await expectError(res, 405, 'method_not_allowed');
    }
    // And the pet is still there.
    expect(await expectJson(await api.request(`/pets/${pet.id}`), 200)).toEqual(pet);
  });

  it.each([[[]], [[['Accept-Encoding', 'gzip']]]] as [[string, string][]][])(
    'HEAD /v1/openapi.json with %j → the GET answer without its body, as wherever GET is public',
    async (headers) => {
      const url = `${origin(api)}/v1/openapi.json`;
      const [get, head] = [await rawRequest(url, { headers }), await rawRequest(url, { method: 'HEAD', headers })];
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      expect(Number(head.headers['content-length'])).toBe(get.bytes.length);
      for (const name of ['content-type', 'content-encoding', 'cache-control', 'access-control-allow-origin', 'vary']) {
        expect(head.headers[name], name).toBe(get.headers[name]);
      }
    },
  );

  it('HEAD is allowed on /v1/openapi.json, and every other method but GET refused', async () => {
    const post = await fetchAt('/v1/openapi.json', { method: 'POST', auth: null });
    expect(allowOf(post)).toEqual(['GET', 'HEAD']);
    await expectError(post, 405, 'method_not_allowed');
  });

  it.each(resources)('HEAD %s → 405 with Allow (a HEAD answer has no body)', async (resource) => {
    const res = await fetchAt(atPath(resource), { method: 'HEAD', auth: null });
    expect(res.status).toBe(405);
    expect(allowOf(res)).toEqual(allowSorted(resource));
    expectRequestId(res);
    expect(await res.text()).toBe('');
  });
});

describe('what each operation reads, as its 400 in the document says', () => {
  const document = buildOpenApiDocument();
  it.each(operations)('$operationId: a query parameter it does not declare is refused, or ignored, as documented', async (op) => {
    const answer = document.paths[op.resource]?.[op.method.toLowerCase() as Lowercase<HttpMethod>]?.responses['400'] as
      | ResponseObject
      | undefined;
    const description = answer?.description ?? '';
    const ignored = description.includes('Query parameters are not read: any sent are ignored.');
    expect(ignored || description.includes('a query parameter (an unknown or repeated one too) is invalid')).toBe(true);
    const { method, path, body } = validRequest(op, { petId: pet.id, name: 'Query' });
    const init = { method, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) };
    const res = await api.request(`${path}?stauts=sold&foo=1`, init);
    if (ignored) expect(res.status, await res.clone().text()).toBe(op.success.status);
    else await expectError(res, 400, 'validation_failed', ['stauts', 'foo']);
  });
});

describe('every response is stamped', () => {
  it('carries X-Request-Id, application/json, nosniff and no-store on success and on every kind of error, gateway-made ones included', async () => {
    const responses: Array<[string, Promise<Response>]> = [
      ['200 list', api.request('/pets')],
      ['200 get', api.request(`/pets/${pet.id}`)],
      ['201 create', postJson(api, { name: 'Stamp', categoryId: 1 })],
      ['400 body', postJson(api, { name: '' })],
      ['400 query', api.request('/pets?limit=0')],
      ['400 path', api.request('/pets/abc')],
      ['401', api.request('/pets', { auth: null })],
      ['404 pet', api.request('/pets/1')],
      ['404 route', fetchAt('/v1/nope', { auth: null })],
      ['405 route', fetchAt('/v1/pets', { method: notAllowed(LIST)[0], auth: null })],
      ['413', api.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(70_000) })],
      ['415', api.request('/pets', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })],
      ['200 document', fetchAt('/v1/openapi.json', { auth: null })],
      ['405 document', fetchAt('/v1/openapi.json', { method: 'POST', auth: null })],
    ];
    for (const [label, pending] of responses) {
      const res = await pending;
      expect(res.headers.get('x-request-id'), `X-Request-Id on ${label}`).toBeTruthy();
      expect(res.headers.get('x-content-type-options'), `nosniff on ${label}`).toBe('nosniff');
      if (label !== '200 document') expect(res.headers.get('cache-control'), `Cache-Control on ${label}`).toBe('no-store');
      expectJsonContentType(res);
      const text = await res.text();
      if (res.status >= 400) {
        const body = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(body).sort(), label).toEqual(['code', 'message', 'status']);
        expect(body.status, label).toBe(res.status);
      }
    }
  });
});

describe('local API fidelity', () => {
  it('gives every request its own X-Request-Id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      for (const res of [
        await api.request('/pets?limit=1'),
        await api.request(`/pets/${pet.id}`),
        await api.request('/pets/1'),
        await api.request('/pets', { auth: null }),
        await fetchAt('/v1/nope'),
        await fetchAt('/v1/pets', { method: notAllowed(LIST)[0] }),
      ]) {
        ids.push(expectRequestId(res));
        await res.body?.cancel();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a JSON body that is not UTF-8 with 400, not 5xx', async () => {
    const prefix = Buffer.from('{"name":"R');
    const suffix = Buffer.from('x","categoryId":1}');
    for (const bad of [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80]]) {
      const body = new Uint8Array(Buffer.concat([prefix, Buffer.from(bad), suffix]));
      const res = await api.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await expectError(res, 400, 'validation_failed', [/UTF-8/i]);
    }
  });

  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: local\r\n\r\n', /method/],
    ['a malformed request line', 'GET /v1/pets HTTP/9\r\nHost: local\r\n\r\n', /not valid HTTP/],
    ['a header line without a colon', 'GET /v1/pets HTTP/1.1\r\nHost: local\r\nno colon here\r\n\r\n', /not valid HTTP/],
  ])('answers %s, which Node refuses before any handler, with a 400 Error body, and keeps serving', async (_, request, why) => {
    const raw = await sendRaw(origin(api), request);
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(head).toMatch(/\r\nX-Request-Id: \S+/i);
    const error = JSON.parse(body) as { code: string; message: string; status: number };
    expect(error).toEqual({ code: 'validation_failed', message: expect.stringMatching(why), status: 400 });
    expect((await api.request('/pets?limit=1')).status).toBe(200);
  });

  it('accepts a body that starts with a byte order mark (RFC 8259 lets a parser ignore it)', async () => {
    const body = new Uint8Array(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ name: 'Bom', categoryId: 1 }))]),
    );
    const res = await api.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await expectJson<Pet>(res, 201)).name).toBe('Bom');
  });

  it('accepts a UTF-8 body with multi-byte characters', async () => {
    const body = new TextEncoder().encode(JSON.stringify({ name: 'Ünïcødé 🐾', categoryId: 1 }));
    const res = await api.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await expectJson<Pet>(res, 201)).name).toBe('Ünïcødé 🐾');
  });
});
