/**
 * The stated CORS policy, end to end through local mode, which serves a template synthesized with
 * `allowedOrigins` exactly as a stage would: the preflight answered by the gateway's mock (no
 * function runs), the functions' answers and the gateway's own errors carrying
 * `Access-Control-Allow-Origin` for an allowed origin only, `Vary: Origin` everywhere, and the
 * OpenAPI document public to every origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '#lib/http/cors.ts';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const ALLOWED = ['https://app.example.com', 'http://localhost:5173'];
const OTHER = 'https://evil.example';

let stack: LocalStack;
const apiKey = generateApiKey();
let previousOrigins: string | undefined;

beforeAll(async () => {
  previousOrigins = process.env[ENV.allowedOrigins];
  reconfigure({ [ENV.allowedOrigins]: undefined });
  const template = await synthesizeStageTemplate('staging', { 'staging.allowedOrigins': ALLOWED.join(',') });
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey, template });
});

afterAll(async () => {
  await stack?.close();
  reconfigure({ [ENV.allowedOrigins]: previousOrigins });
});

const call = (path: string, init: RequestInit & { origin?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.origin) headers.set('Origin', init.origin);
  return fetch(`${stack.url}${path}`, { ...init, headers });
};
const withKey = { authorization: `Bearer ${apiKey}` };
/** The request headers an answer varies on: Origin, and Accept-Encoding as every answer does. */
const varies = (res: Response) => res.headers.get('vary')?.split(', ').sort();

describe('CORS with allowedOrigins', () => {
  it('gives source mode the allowed origins the template gives the functions', () => {
    expect(process.env[ENV.allowedOrigins]).toBe(ALLOWED.join(','));
  });

  it.each(ALLOWED)('answers the preflight of %s itself: 204 with the methods, headers and max-age', async (origin) => {
    const res = await call('/pets', {
      method: 'OPTIONS',
      origin,
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe(CORS_ALLOWED_HEADERS);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(varies(res)).toEqual(['Accept-Encoding', 'Origin']);
    expect(await res.text()).toBe('');
  });

  it('refuses the preflight of any other origin, or of none, with 403 and no CORS header', async () => {
    for (const origin of [OTHER, undefined, 'https://app.example.com.evil.example']) {
      const res = await call('/pets/1', { method: 'OPTIONS', ...(origin ? { origin } : {}) });
      expect(res.status, String(origin)).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(await res.json()).toMatchObject({ code: 'forbidden', status: 403 });
    }
  });

  it("adds CORS to the functions' answers for an allowed origin, success and error alike", async () => {
    const created = await call('/pets', {
      method: 'POST',
      origin: ALLOWED[0],
      headers: { ...withKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cors', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe(ALLOWED[0]);
    expect(created.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSED_HEADERS);
    expect(varies(created)).toEqual(['Accept-Encoding', 'Origin']);
    const unauthorized = await call('/pets', { origin: ALLOWED[1] });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(ALLOWED[1]);
  });

  it('adds none for another origin or a request without Origin, but still says Vary: Origin', async () => {
    for (const origin of [OTHER, undefined]) {
      const res = await call('/pets', { headers: withKey, ...(origin ? { origin } : {}) });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(varies(res)).toEqual(['Accept-Encoding', 'Origin']);
    }
  });

  it("adds CORS to the gateway's own answers (405, 404) for an allowed origin only", async () => {
    for (const [path, method, status] of [
      ['/pets', 'DELETE', 405],
      ['/nowhere', 'GET', 404],
    ] as const) {
      const allowed = await call(path, { method, origin: ALLOWED[1] });
      expect(allowed.status).toBe(status);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED[1]);
      const other = await call(path, { method, origin: OTHER });
      expect(other.status).toBe(status);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(varies(other)).toEqual(['Accept-Encoding', 'Origin']);
    }
  });

  it('serves the OpenAPI document to every origin, without credentials', async () => {
    const res = await call('/openapi.json', { origin: OTHER });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
