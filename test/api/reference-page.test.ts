/**
 * The API reference page over HTTP, in both local modes (`npm test`: handler sources and the
 * npm package's files; `npm run test:bundles`: the docs bundle with the files the CDK copied beside
 * it). The browser side is test/browser/reference-page.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { IMMUTABLE_CACHE_CONTROL, REFERENCE_ASSETS, REFERENCE_PAGE_CSP, servedAssets } from '#lib/openapi/reference-page.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('GET /v1/docs', () => {
  it('answers the page without authentication, loading its assets by hashed name from this origin only', async () => {
    const res = await fetch(`${api.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style|\son\w+=|style="/);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string).filter((url) => !url.startsWith('data:'));
    expect(sources.sort()).toEqual([...servedAssets().keys()].map((name) => `${api.url}/docs/${name}`).sort());
    expect(sources).toHaveLength(Object.keys(REFERENCE_ASSETS).length + 1);
  });

  it('sends a Content-Security-Policy: own origin only for scripts, styles and connections, never framed', async () => {
    const policy = (await fetch(`${api.url}/docs`)).headers.get('content-security-policy') ?? '';
    expect(policy).toBe(REFERENCE_PAGE_CSP);
    const directives = new Map(policy.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(Object.fromEntries(directives)).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('serves each asset under a name carrying its content hash, cacheable for a year as immutable', async () => {
    for (const [name, file] of servedAssets()) {
      const [, hash] = /\.([0-9a-f]{8})\.(?:js|css)$/.exec(name) ?? [];
      const res = await fetch(`${api.url}/docs/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(file.type);
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
      const body = await res.text();
      expect(createHash('sha256').update(body).digest('hex').slice(0, 8)).toBe(hash);
    }
    const bundle = [...servedAssets().keys()].find((name) => name.startsWith('swagger-ui-bundle.'));
    expect((await (await fetch(`${api.url}/docs/${bundle}`)).text()).length).toBeGreaterThan(100_000);
  });

  it.each([...Object.keys(REFERENCE_ASSETS), 'swagger-ui-bundle.00000000.js', 'index.html'])(
    'answers 404 for %s (a name without the current hash), in the Error shape, not cached',
    async (name) => {
      const missing = await fetch(`${api.url}/docs/${name}`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 });
    },
  );

  it('answers 405 for other methods, in the Error shape', async () => {
    const post = await fetch(`${api.url}/docs`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });
});
