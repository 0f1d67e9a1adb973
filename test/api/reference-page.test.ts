/**
 * The API reference page over HTTP, in both local modes (`npm test`: handler sources and the
 * npm package's files; `npm run test:bundles`: the docs bundle with the files the CDK copied beside
 * it). The browser side is test/browser/reference-page.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  IMMUTABLE_CACHE_CONTROL,
  largestDocsResponseBytes,
  NOT_ACCEPTABLE_MESSAGE,
  REFERENCE_ASSETS,
  REFERENCE_PAGE_CSP,
  servedAssets,
} from '#lib/openapi/reference-page.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { methodNotAllowedMessage } from '#lib/http/gateway-errors.ts';
import { rawError, rawRequest } from './helpers.ts';

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

  it.each([
    ['no Accept-Encoding', []],
    ['identity only', [['Accept-Encoding', 'identity']]],
    ['br only', [['Accept-Encoding', 'br']]],
    ['br first, which the gateway does not compress with', [['Accept-Encoding', 'br, gzip']]],
    ['gzip and deflate refused', [['Accept-Encoding', 'gzip;q=0, deflate;q=0, identity']]],
  ] as [string, [string, string][]][])(
    'answers an asset with 406 not_acceptable to a client with %s, in a few hundred bytes',
    async (_, headers) => {
      const bundle = [...servedAssets().keys()].find((name) => name.startsWith('swagger-ui-bundle.'));
      const res = await rawRequest(`${api.url}/docs/${bundle}`, { headers });
      expect(rawError(res, 406, 'not_acceptable').message).toBe(NOT_ACCEPTABLE_MESSAGE);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.bytes.length).toBeLessThan(512);
    },
  );

  it('serves each asset gzip-compressed to a client that accepts gzip, within the bound docs/reference-page.md states', async () => {
    const bound = largestDocsResponseBytes();
    for (const [name, file] of servedAssets()) {
      const res = await rawRequest(`${api.url}/docs/${name}`, { headers: [['Accept-Encoding', 'gzip']] });
      expect(res.status, name).toBe(200);
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.bytes.length, name).toBeLessThanOrEqual(bound);
      // The gateway compresses a body of at least 1 KiB (the stage's MinimumCompressionSize).
      const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.bytes).toString('utf8') : res.body;
      expect(body === file.body, name).toBe(true);
      if (file.body.length >= 1024) expect(res.headers['content-encoding'], name).toBe('gzip');
    }
    // The page itself is small and goes to every client.
    const page = await rawRequest(`${api.url}/docs`, { headers: [] });
    expect(page.status).toBe(200);
    expect(page.bytes.length).toBeLessThan(bound);
    const doc = readFileSync(new URL('../../docs/reference-page.md', import.meta.url), 'utf8');
    expect(doc).toContain(`${bound.toLocaleString('en-US')} bytes`);
  });

  it('answers 405 for other methods, in the Error shape, as the gateway answers them elsewhere', async () => {
    for (const [path, resource] of [
      ['/docs', '/v1/docs'],
      ['/docs/x.js', '/v1/docs/{asset}'],
    ]) {
      const post = await fetch(`${api.url}${path}`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      expect(post.headers.get('x-request-id')).toBeTruthy();
      expect(await post.json()).toEqual({
        code: 'method_not_allowed',
        message: methodNotAllowedMessage('POST', resource as string, ['GET', 'HEAD']),
        status: 405,
      });
    }
  });

  it("answers HEAD on the page and each asset with the GET's status and headers, and no body", async () => {
    const gzip: [string, string][] = [['Accept-Encoding', 'gzip']];
    for (const path of ['/docs', ...[...servedAssets().keys()].map((name) => `/docs/${name}`), '/docs/nothing.js']) {
      const [get, head] = [
        await rawRequest(`${api.url}${path}`, { headers: gzip }),
        await rawRequest(`${api.url}${path}`, { method: 'HEAD', headers: gzip }),
      ];
      expect(head.status, path).toBe(get.status);
      expect(head.bytes.length, path).toBe(0);
      const { 'x-request-id': _h, date: _hd, ...headHeaders } = head.headers;
      const { 'x-request-id': _g, date: _gd, ...getHeaders } = get.headers;
      expect(headHeaders, path).toEqual(getHeaders);
      expect(Number(head.headers['content-length']), path).toBe(get.bytes.length);
      expect(head.headers.vary, path).toMatch(/Accept-Encoding/);
    }
  });
});
