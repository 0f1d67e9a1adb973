/**
 * The attacks on Location and Link, end to end: a forged Host, a `javascript:` scheme and a header
 * that tries to add a link. Each URL names the server the client really talked to.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { createPets } from './helpers.ts';

let api: TestApi;
let base: URL;

beforeAll(async () => {
  api = await startTestApi();
  base = new URL(api.url);
  await createPets(api, 3, (i) => ({ name: `url-${i}`, categoryId: 1, status: 'sold' }));
});

afterAll(async () => {
  await api?.close();
});

/** node:http, so that Host and every other header go out exactly as given. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: `${base.pathname}${path}`,
        headers: { authorization: `Bearer ${api.apiKey}`, ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const createWith = (headers: Record<string, string>) =>
  send('POST', '/pets', { 'content-type': 'application/json', ...headers }, JSON.stringify({ name: 'Url', categoryId: 1 }));
const own = () => `http://${base.host}${base.pathname}`;

describe('absolute URLs', () => {
  it('Location names this server, not a forged Host', async () => {
    const res = await createWith({ host: 'evil.example' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${own()}/pets/[1-9][0-9]*$`));
  });

  it('Location never takes a scheme from X-Forwarded-Proto other than http or https', async () => {
    const res = await createWith({ 'x-forwarded-proto': 'javascript:alert(1)//' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`^${own()}/pets/[1-9][0-9]*$`));
  });

  it('Link carries exactly one link, whatever X-Forwarded-Proto tries to add', async () => {
    const res = await send('GET', '/pets?status=sold&limit=1', {
      'x-forwarded-proto': 'https://evil.example/x>; rel="next", <https',
      host: 'evil.example',
    });
    expect(res.status).toBe(200);
    const link = String(res.headers.link);
    expect(link).toMatch(new RegExp(`^<${own()}/pets\\?limit=1&status=sold&cursor=[^>]+>; rel="next"$`));
    expect(link).not.toContain('evil');
  });

  it('Link names the resource, not an odd path the request was routed by', async () => {
    const res = await send('GET', '//pets?status=sold&limit=1', {});
    expect(res.status).toBe(200);
    expect(String(res.headers.link)).toMatch(new RegExp(`^<${own()}/pets\\?`));
  });
});
