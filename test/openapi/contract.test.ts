/** The response validator the end-to-end suites run every answer through (test/support/response-contract.ts). */
import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../infra/openapi/document.ts';
import { allowedMethods, resources } from '#lib/routes.ts';
import { createContractValidator, matchTemplate } from '../support/response-contract.ts';

const validator = createContractValidator(buildOpenApiDocument());
const BASE = 'http://127.0.0.1:3000/v1';
const pet = { id: 1_234_567, name: 'Rex', categoryId: 1, status: 'available' };
const deprecation = {
  Deprecation: '@1767225600',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '<http://127.0.0.1:3000/v1/pets>; rel="successor-version"',
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', Vary: 'Accept-Encoding', ...headers },
  });
}
const error = (status: number, code: string) => ({ code, message: 'Something to fix.', status });
const problems = (method: string, path: string, response: Response) => validator.problems(method, `${BASE}${path}`, response);

/** A method the route table does not serve on `resource`. */
function unserved(resource: string): string {
  const method = ['DELETE', 'PUT', 'PATCH', 'POST'].find((m) => !(allowedMethods(resource) as string[]).includes(m));
  if (!method) throw new Error(`${resource} serves every method this test tries`);
  return method;
}
/** A resource with a path parameter, and a path it matches. */
const ITEM = resources.find((r) => r.includes('{')) ?? '/none/{id}';
const ITEM_PATH = ITEM.replace(/\{\w+\}/g, '1');

describe('a conforming response', () => {
  it.each([
    ['GET', '/pets', () => answer(200, [pet, { id: 2, name: 'Tom', categoryId: 3 }])],
    ['GET', '/pets?limit=1', () => answer(200, [pet], { Link: `<${BASE}/pets?limit=1&cursor=abc.def>; rel="next"` })],
    ['POST', '/pets', () => answer(201, pet, { Location: `${BASE}/pets/1234567` })],
    ['POST', '/pets', () => answer(201, pet, { Location: `${BASE}/pets/1234567`, 'Idempotent-Replayed': 'true' })],
    ['GET', '/pets/1234567', () => answer(200, pet, deprecation)],
    ['GET', '/pets/abc', () => answer(400, error(400, 'validation_failed'), deprecation)],
    ['GET', '/pets?cursor=x', () => answer(400, error(400, 'invalid_cursor'))],
    ['GET', '/pets', () => answer(401, error(401, 'unauthorized'), { 'WWW-Authenticate': 'Bearer realm="petstore"' })],
    // The web ACL's 401 has static headers only: no request id; its rule for getPet sends the deprecation headers.
    [
      'GET',
      '/pets/1',
      () =>
        new Response(JSON.stringify(error(401, 'unauthorized')), {
          status: 401,
          headers: {
            'Content-Type': 'application/json',
            Vary: 'Accept-Encoding',
            'WWW-Authenticate': 'Bearer realm="petstore"',
            ...deprecation,
          },
        }),
    ],
    ['GET', '/pets/1', () => answer(401, error(401, 'unauthorized'), { 'WWW-Authenticate': 'Bearer realm="petstore"', ...deprecation })],
    ['POST', '/pets', () => answer(422, error(422, 'idempotency_key_reused'))],
    ['GET', '/pets', () => answer(503, error(503, 'service_unavailable'), { 'Retry-After': '2' })],
    // A 503 the gateway makes for getPet lacks the deprecation headers: documented as optional there.
    ['GET', '/pets/1', () => answer(503, error(503, 'service_unavailable'), { 'Retry-After': '1' })],
    ['GET', '/pets', () => answer(429, error(429, 'too_many_requests'), { 'Retry-After': '1' })],
    ['GET', '/nothing/here', () => answer(404, error(404, 'not_found'))],
    ['GET', '/pets/1/2', () => answer(404, error(404, 'not_found'))],
    [unserved('/pets'), '/pets', () => answer(405, error(405, 'method_not_allowed'), { Allow: allowedMethods('/pets').join(', ') })],
    [
      'HEAD',
      '/pets/1',
      () =>
        new Response(null, {
          status: 405,
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r', Vary: 'Accept-Encoding', Allow: 'GET' },
        }),
    ],
    ['GET', '/openapi.json', () => answer(200, { openapi: '3.1.1' })],
    ['POST', '/openapi.json', () => answer(405, error(405, 'method_not_allowed'), { Allow: 'GET' })],
    ['PUT', '/docs/x.js', () => answer(405, error(405, 'method_not_allowed'), { Allow: 'GET' })],
    // Empty path segments are no part of a path, as the gateway routes.
    ['GET', '//pets//', () => answer(200, [pet])],
  ])('%s %s passes', async (method, path, make) => {
    expect(await problems(method, path, make())).toEqual([]);
  });

  it('is read from a clone: the test can still read the body', async () => {
    const response = answer(200, [pet]);
    await validator.assertConforms('GET', `${BASE}/pets`, response);
    expect(await response.json()).toEqual([pet]);
  });
});

describe('a response that departs from the document', () => {
  it('fails on a status not documented for the operation', async () => {
    expect(await problems('GET', '/pets', answer(404, error(404, 'not_found')))).toEqual([
      'GET /pets (listPets) → 404: status 404 is not documented (documented: 200, 400, 401, 403, 429, 500, 503, 504)',
    ]);
    expect(await problems('POST', '/pets', answer(200, pet, { Location: `${BASE}/pets/1` }))).toHaveLength(1);
    expect(await problems('GET', '/nothing', answer(200, {}))).toEqual([
      'GET /v1/nothing (no such path) → 200: status 200 is not documented: a path no operation serves gets 404',
    ]);
    expect(await problems(unserved(ITEM), ITEM_PATH, answer(404, error(404, 'not_found')))).toEqual([
      `${unserved(ITEM)} ${ITEM} (no such operation) → 404: status 404 is not documented: a method the path does not serve gets 405`,
    ]);
  });

  it('fails when a required header is missing', async () => {
    const noRequestId = new Response(JSON.stringify([pet]), {
      status: 200,
      headers: { 'Content-Type': 'application/json', Vary: 'Origin, Accept-Encoding' },
    });
    expect(await problems('GET', '/pets', noRequestId)).toEqual(['GET /pets (listPets) → 200: required header X-Request-Id is missing']);
    expect(await problems('POST', '/pets', answer(201, pet))).toEqual([
      'POST /pets (createPet) → 201: required header Location is missing',
    ]);
    expect(await problems('GET', '/pets/1', answer(200, pet, { Sunset: deprecation.Sunset, Link: deprecation.Link }))).toEqual([
      'GET /pets/{petId} (getPet) → 200: required header Deprecation is missing',
    ]);
    expect(await problems('GET', '/pets', answer(401, error(401, 'unauthorized')))).toEqual([
      'GET /pets (listPets) → 401: required header WWW-Authenticate is missing',
    ]);
    expect(await problems(unserved('/pets'), '/pets', answer(405, error(405, 'method_not_allowed')))).toEqual([
      `${unserved('/pets')} /pets (no such operation) → 405: required header Allow is missing`,
    ]);
  });

  it('fails when a header does not match its schema', async () => {
    const [retry] = await problems('GET', '/pets', answer(503, error(503, 'service_unavailable'), { 'Retry-After': 'soon' }));
    expect(retry).toMatch(/header Retry-After must be integer/);
    const [link] = await problems('GET', '/pets', answer(200, [pet], { Link: '<x>; rel="prev"' }));
    expect(link).toMatch(/header Link must match pattern/);
  });

  it('fails when the body does not match the schema', async () => {
    expect(await problems('GET', '/pets/1', answer(200, { ...pet, name: 7 }, deprecation))).toEqual([
      'GET /pets/{petId} (getPet) → 200: body/name must be string',
    ]);
    expect(await problems('GET', '/pets', answer(200, [{ ...pet, owner: 'me' }]))).toEqual([
      'GET /pets (listPets) → 200: body/0 must NOT have additional properties (additionalProperty: "owner")',
    ]);
    expect(await problems('POST', '/pets', answer(201, { name: 'Rex', categoryId: 1 }, { Location: `${BASE}/pets/1` }))).toEqual([
      "POST /pets (createPet) → 201: body must have required property 'id'",
    ]);
    // An Error body whose code or status is not the one of the response.
    const [code] = await problems('GET', '/pets/1', answer(404, error(404, 'validation_failed'), deprecation));
    expect(code).toMatch(/body\/code must be equal to one of the allowed values \(allowedValues: \["not_found"\]\)/);
    const [status] = await problems('GET', '/pets', answer(500, error(400, 'internal_error')));
    expect(status).toMatch(/body\/status must be equal to one of the allowed values \(allowedValues: \[500\]\)/);
  });

  it('fails when the body is not application/json, or not JSON', async () => {
    expect(await problems('GET', '/pets', answer(200, [pet], { 'Content-Type': 'text/plain' }))).toEqual([
      'GET /pets (listPets) → 200: Content-Type is "text/plain", not application/json',
    ]);
    expect(await problems('GET', '/pets', answer(200, 'not json'))).toEqual(['GET /pets (listPets) → 200: body is not JSON: "not json"']);
  });

  it('throws an AssertionError naming every problem', async () => {
    const bad = new Response('[]', { status: 418, headers: { 'Content-Type': 'text/plain' } });
    const failure = await validator.assertConforms('GET', `${BASE}/pets`, bad).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AssertionError);
    expect((failure as Error).message).toBe(
      'Response does not match openapi.json:\n  - GET /pets (listPets) → 418: status 418 is not documented (documented: 200, 400, 401, 403, 429, 500, 503, 504)',
    );
  });
});

describe('matchTemplate', () => {
  it('routes as API Gateway and the local API do', () => {
    const templates = ['/pets', '/pets/{petId}'];
    expect(matchTemplate(templates, '/pets')).toBe('/pets');
    expect(matchTemplate(templates, '/pets/')).toBe('/pets');
    expect(matchTemplate(templates, '//pets')).toBe('/pets');
    expect(matchTemplate(templates, '/pets/12')).toBe('/pets/{petId}');
    expect(matchTemplate(templates, '/pets/abc')).toBe('/pets/{petId}');
    expect(matchTemplate(templates, '/pets/1/2')).toBeUndefined();
    expect(matchTemplate(templates, '/')).toBeUndefined();
    expect(matchTemplate(templates, '/Pets')).toBeUndefined();
  });
});
