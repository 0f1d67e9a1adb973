/**
 * Content encoding as a deployed stage does it (the RestApi's MinimumCompressionSize, 1 KiB in
 * cdk.json): a body of at least 1 KiB is gzip- or deflate-compressed when the client accepts it,
 * anything smaller, or a client that accepts neither, gets the identity answer.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiMappingTemplate } from '../../infra/openapi/serve.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { createPets, type Pet, rawRequest } from './helpers.ts';

let api: TestApi;
let pets: Pet[];

beforeAll(async () => {
  api = await startTestApi();
  pets = await createPets(api, 40, (i) => ({ name: `Compressible ${i}`, categoryId: 1, status: 'available' }));
});

afterAll(async () => {
  await api?.close();
});

const get = (path: string, acceptEncoding?: string, auth = true) =>
  rawRequest(`${api.url}${path}`, {
    headers: [
      ...(auth ? [['Authorization', `Bearer ${api.apiKey}`] as [string, string]] : []),
      ...(acceptEncoding ? [['Accept-Encoding', acceptEncoding] as [string, string]] : []),
    ],
  });

describe('compression', () => {
  it('gzips a page of pets for a client that accepts gzip, to a fraction of its size', async () => {
    const plain = await get('/pets?limit=40');
    const gzipped = await get('/pets?limit=40', 'gzip, deflate, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.bytes).toString('utf8')).toBe(plain.body);
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect((JSON.parse(plain.body) as Pet[]).length).toBe(pets.length);
  });

  it('uses deflate when the client prefers it, and honours q-values', async () => {
    const deflated = await get('/pets?limit=40', 'gzip;q=0.5, deflate');
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(JSON.parse(inflateSync(deflated.bytes).toString('utf8'))).toHaveLength(40);
    const refused = await get('/pets?limit=40', 'gzip;q=0, deflate;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers identity to a client that accepts neither, or only br', async () => {
    for (const accept of [undefined, 'identity', 'br']) {
      const res = await get('/pets?limit=40', accept);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(JSON.parse(res.body)).toHaveLength(40);
    }
  });

  it('leaves a body under 1 KiB uncompressed', async () => {
    const small = await get('/pets?limit=1', 'gzip');
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it("compresses the gateway's own answers too: the OpenAPI document", async () => {
    const res = await get('/openapi.json', 'gzip', false);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.bytes).toString('utf8')).toBe(openApiMappingTemplate());
    expect(res.bytes.length).toBeLessThan(openApiMappingTemplate().length / 4);
  });

  it('says Vary: Accept-Encoding on every answer, compressed or not, so a shared cache keeps the codings apart', async () => {
    for (const [path, accept, auth] of [
      ['/pets?limit=40', 'gzip', true],
      ['/pets?limit=40', undefined, true],
      ['/pets?limit=1', 'gzip', true],
      ['/pets', undefined, false],
      ['/openapi.json', 'gzip', false],
      ['/openapi.json', undefined, false],
      ['/nowhere', 'gzip', false],
      ['/docs', 'gzip', false],
    ] as const) {
      const res = await get(path, accept, auth);
      expect(res.headers.vary, `${path} ${accept}`).toBe('Accept-Encoding');
    }
  });
});
