/**
 * Property-based: whatever a client sends — odd paths, query strings, headers, bodies, invalid
 * UTF-8, deep nesting, huge numbers, prototype keys — the service never answers 5xx, every 4xx is
 * the Error shape, and it keeps serving afterwards.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let base: URL;

beforeAll(async () => {
  api = await startTestApi();
  base = new URL(api.url);
});

afterAll(async () => {
  await api?.close();
});

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http rather than fetch, so paths, headers and bytes go out exactly as generated. */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: base.hostname, port: base.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function assertWellFormed(reply: RawReply, method: string): void {
  expect(reply.status, `${reply.status} ${reply.body.toString()}`).toBeLessThan(500);
  if (reply.status >= 400 && method !== 'HEAD') {
    expect(reply.headers['content-type']).toBe('application/json');
    const error = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status']);
    expect(error.status).toBe(reply.status);
    expect(typeof error.code === 'string' && typeof error.message === 'string' && error.message.length > 0).toBe(true);
  }
}

const auth = () => ({ authorization: `Bearer ${api.apiKey}` });

const segment = fc.oneof(
  fc.constantFrom('pets', 'v1', '..', '.', '%2e%2e', '%00', '%ff', '%2F', '{petId}', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('1', '100', '0', '-1', '1e3', 'NaN', 'available', 'sold', '', '%', '__proto__'),
);
const queryName = fc.oneof(
  fc.constantFrom('limit', 'status', 'cursor', '__proto__', 'constructor', 'limit[]'),
  fc.string({ maxLength: 8 }),
);
const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString());

/** JSON with the shapes that break parsers and validators. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.record({ name: fc.jsonValue(), categoryId: fc.jsonValue(), status: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ name: fc.string(), categoryId: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53), fc.constant(1e308)) }),
);

/** Nesting far deeper than any recursive parser or validator could follow, within 64 KiB. */
const deepJson = fc
  .nat({ max: 30_000 })
  .chain((depth) =>
    fc.constantFrom(
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `{"name": ${'['.repeat(depth)}${']'.repeat(depth)}, "categoryId": 1}`,
      `${'{"a":'.repeat(Math.min(depth, 10_000))}1${'}'.repeat(Math.min(depth, 10_000))}`,
    ),
  );

const rawBody = fc.oneof(
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  deepJson.map((s) => Buffer.from(s)),
  fc
    .constantFrom(
      '{"__proto__": {"admin": true}, "name": "x", "categoryId": 1}',
      '{"constructor": {"prototype": {"x": 1}}, "name": "x", "categoryId": 1}',
      '{"name": "a", "name": "b", "categoryId": 1}',
      '{"name": "x", "categoryId": 123456789012345678901234567890}',
      '{"name": "x", "categoryId": 1e400}',
      '{"name": "\\ud800", "categoryId": 1}',
      '{"name": "x", "categoryId": 1,}',
      '',
    )
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(
    Buffer.from([
      0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x2c, 0x22, 0x63, 0x61, 0x74, 0x65, 0x67, 0x6f, 0x72, 0x79,
      0x49, 0x64, 0x22, 0x3a, 0x31, 0x7d,
    ]),
  ),
  fc.constant(Buffer.alloc(70_000, 0x61)),
);

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/problem+json',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    '',
    ';;;',
    'application/json;;charset=',
  ),
  { nil: undefined },
);

const authHeader = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'bearer psk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Bearer psk_\t'),
  fc
    .string({ maxLength: 40 })
    .filter((s) => /^[\x20-\x7e]*$/.test(s))
    .map((s) => `Bearer ${s}`),
);

describe('hostile input', () => {
  it('never answers 5xx to odd paths and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
        fc.array(segment, { maxLength: 4 }),
        query,
        async (method, segments, qs) => {
          const path = `/${segments.join('/')}${qs ? `?${qs}` : ''}`;
          for (const prefix of ['/v1', '']) {
            assertWellFormed(await send(method, `${prefix}${path}`, auth()), method);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to hostile list queries and pet ids', async () => {
    await fc.assert(
      fc.asyncProperty(query, segment, async (qs, petId) => {
        assertWellFormed(await send('GET', `/v1/pets?${qs}`, auth()), 'GET');
        assertWellFormed(await send('GET', `/v1/pets/${petId}?${qs}`, auth()), 'GET');
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to hostile bodies, content types and credentials', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, authHeader, fc.boolean(), async (body, type, authorization, withKey) => {
        const headers: Record<string, string> = {};
        if (type !== undefined) headers['content-type'] = type;
        if (withKey) Object.assign(headers, auth());
        else if (authorization !== undefined) headers.authorization = authorization;
        const reply = await send('POST', '/v1/pets', headers, body);
        assertWellFormed(reply, 'POST');
        if (reply.status === 201) {
          // Whatever got in is a valid Pet that reads back identically.
          const pet = JSON.parse(reply.body.toString('utf8')) as { id: number };
          const read = await send('GET', `/v1/pets/${pet.id}`, auth());
          expect(JSON.parse(read.body.toString('utf8'))).toEqual(pet);
        }
      }),
      { numRuns: 250 },
    );
  });

  it('refuses prototype keys and duplicate-key games without side effects', async () => {
    const proto = await send(
      'POST',
      '/v1/pets',
      { ...auth(), 'content-type': 'application/json' },
      Buffer.from('{"__proto__": {"status": "sold"}, "name": "x", "categoryId": 1}'),
    );
    expect(proto.status).toBe(400);
    expect(proto.body.toString()).toContain('__proto__');
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });

  it('still serves normal requests afterwards', async () => {
    const created = await api.request('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect((await api.request('/pets?limit=1')).status).toBe(200);
  });
});
