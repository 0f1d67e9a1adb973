/**
 * The API reference page over HTTP, in both local modes (`npm test`: handler sources and the
 * npm package's files; `npm run test:bundles`: the docs bundle with the files the CDK copied beside
 * it). The browser side is test/browser/reference-page.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_ASSETS } from '#lib/openapi/reference-page.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('GET /v1/docs', () => {
  it('answers the page without authentication, loading its assets from this origin only', async () => {
    const res = await fetch(`${api.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const html = await res.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string).filter((url) => !url.startsWith('data:'));
    expect(sources.sort()).toEqual(
      Object.keys(REFERENCE_ASSETS)
        .map((name) => `${api.url}/docs/${name}`)
        .sort(),
    );
  });

  it.each(Object.entries(REFERENCE_ASSETS))('serves %s as %s, cacheable for an hour', async (name, type) => {
    const res = await fetch(`${api.url}/docs/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await res.text()).length).toBeGreaterThan(100_000);
  });

  it('answers 404 for any other asset and 405 for other methods, in the Error shape', async () => {
    const missing = await fetch(`${api.url}/docs/index.html`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 });
    const post = await fetch(`${api.url}/docs`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});
