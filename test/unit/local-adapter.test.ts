/** The translation of an HTTP request into what a deployed function receives (infra/local/gateway/proxy-event.ts, infra/local/lambda/lambda-context.ts). */
import { describe, expect, it } from 'vitest';
import { MEMORY_MB, TIMEOUT_SECONDS } from '../../infra/cdk/function-limits.ts';
import { toProxyEvent } from '../../infra/local/gateway/proxy-event.ts';
import { lambdaContext } from '../../infra/local/lambda/lambda-context.ts';
import { timeoutScale } from '#lib/config.ts';

const eventFor = (rawHeaders: string[], body: Buffer, search = '') =>
  toProxyEvent({
    requestId: 'r-1',
    domainName: '127.0.0.1:3000',
    rawHeaders: ['Host', 'local', ...rawHeaders],
    sourceIp: '127.0.0.1',
    httpVersion: '1.1',
    method: 'POST',
    path: '/v1/pets',
    search,
    body,
    resource: '/v1/pets',
    pathParameters: null,
  });

describe('toProxyEvent', () => {
  it('passes a UTF-8 body on as text, byte order mark included, as API Gateway does', () => {
    const event = eventFor([], Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe('\uFEFF{"a":1}');
  });

  it('passes bytes that are not UTF-8 base64-encoded, flagged', () => {
    const event = eventFor([], Buffer.from([0x7b, 0xff, 0x7d]));
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64')).toEqual(Buffer.from([0x7b, 0xff, 0x7d]));
  });

  it('keeps every line of a repeated header, with its casing, and the last one in headers', () => {
    const event = eventFor(['Authorization', 'Bearer a', 'authorization', 'Bearer b', 'X-Thing', '1', 'X-Thing', '2'], Buffer.alloc(0));
    expect(event.multiValueHeaders).toMatchObject({ Authorization: ['Bearer a'], authorization: ['Bearer b'], 'X-Thing': ['1', '2'] });
    expect(event.headers['X-Thing']).toBe('2');
    expect(event.body).toBeNull();
  });

  it("asserts the gateway's own domain name and scheme, whatever Host and X-Forwarded-Proto the client sent", () => {
    const event = eventFor(
      ['Host', 'evil.example', 'X-Forwarded-Proto', 'javascript:alert(1)//', 'x-forwarded-proto', 'https'],
      Buffer.alloc(0),
    );
    expect(event.requestContext.domainName).toBe('127.0.0.1:3000');
    expect(event.multiValueHeaders['X-Forwarded-Proto']).toEqual(['http']);
    expect(Object.keys(event.headers).filter((name) => name.toLowerCase() === 'x-forwarded-proto')).toEqual(['X-Forwarded-Proto']);
  });

  it('keeps header and query names such as __proto__ as plain data, as in the JSON event Lambda parses', () => {
    const event = eventFor(['__proto__', 'h1', '__proto__', 'h2'], Buffer.alloc(0), '__proto__=q1&constructor=c&__proto__=q2&limit=5');
    // What Lambda's runtime hands the handler: the event as JSON, parsed.
    const parsed = JSON.parse(JSON.stringify(event)) as typeof event;
    for (const e of [event, parsed]) {
      expect(Object.getPrototypeOf(e.headers)).toBe(Object.prototype);
      expect(Object.hasOwn(e.headers, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(e.headers, '__proto__')?.value).toBe('h2');
      expect(Object.getOwnPropertyDescriptor(e.multiValueHeaders, '__proto__')?.value).toEqual(['h1', 'h2']);
      expect(Object.getOwnPropertyDescriptor(e.queryStringParameters, '__proto__')?.value).toBe('q2');
      expect(Object.getOwnPropertyDescriptor(e.multiValueQueryStringParameters, '__proto__')?.value).toEqual(['q1', 'q2']);
      expect(e.queryStringParameters).toMatchObject({ constructor: 'c', limit: '5' });
    }
    expect(JSON.stringify(event.headers)).toBe(JSON.stringify(parsed.headers));
  });
});

describe('lambdaContext', () => {
  it('gives the handlers the deployed memory and a deadline one function timeout away (times PETSTORE_TIMEOUT_SCALE)', () => {
    const context = lambdaContext('r-1', 'get-pet');
    expect(context.memoryLimitInMB).toBe(String(MEMORY_MB));
    expect(context.awsRequestId).toBe('r-1');
    const remaining = context.getRemainingTimeInMillis();
    const timeout = TIMEOUT_SECONDS * 1000 * timeoutScale();
    expect(remaining).toBeLessThanOrEqual(timeout);
    expect(remaining).toBeGreaterThan(timeout - 1000);
  });
});
