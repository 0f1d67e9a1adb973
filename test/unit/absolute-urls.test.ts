/** Location and Link URLs come from what the gateway asserts, never from headers a client controls. */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { absoluteUrl } from '#lib/http/urls.ts';

const event = (options: { domainName?: string; contextPath?: string; path?: string; headers?: Record<string, string> }) =>
  ({
    path: options.path ?? '/v1/pets',
    headers: options.headers ?? {},
    requestContext: { domainName: options.domainName, path: options.contextPath ?? options.path ?? '/v1/pets' },
  }) as unknown as Pick<APIGatewayProxyEvent, 'headers' | 'path' | 'requestContext'>;

describe('absoluteUrl', () => {
  it('uses the execute-api host with its stage prefix, over https', () => {
    const e = event({ domainName: 'abc123.execute-api.eu-west-1.amazonaws.com', contextPath: '/staging/v1/pets' });
    expect(absoluteUrl(e, '/v1/pets/7')).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/staging/v1/pets/7');
  });

  it('uses a custom domain as it is, with no prefix', () => {
    expect(absoluteUrl(event({ domainName: 'api.example.com' }), '/v1/pets', new URLSearchParams({ limit: '2' }))).toBe(
      'https://api.example.com/v1/pets?limit=2',
    );
  });

  it('ignores the Host and X-Forwarded-Host headers', () => {
    const e = event({ domainName: 'api.example.com', headers: { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' } });
    expect(absoluteUrl(e, '/v1/pets/1')).toBe('https://api.example.com/v1/pets/1');
  });

  it.each([
    ['javascript:alert(1)//', 'https'],
    ['https://evil.example/x>; rel="next", <https', 'https'],
    ['ftp', 'https'],
    ['HTTP', 'http'],
    [' http ', 'http'],
    ['https', 'https'],
  ])('takes X-Forwarded-Proto %j as %s: only http or https, else https', (proto, scheme) => {
    const url = absoluteUrl(event({ domainName: '127.0.0.1:3000', headers: { 'X-Forwarded-Proto': proto } }), '/v1/pets/1');
    expect(url).toBe(`${scheme}://127.0.0.1:3000/v1/pets/1`);
  });
});
