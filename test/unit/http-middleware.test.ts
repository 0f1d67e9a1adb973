import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { bearerToken, MAX_AUTHORIZATION_LENGTH } from '#lib/http/bearer-auth.ts';
import { errorResponder, toHttpError } from '#lib/http/error-responder.ts';
import { HttpError, INTERNAL_ERROR_MESSAGE } from '#lib/http/errors.ts';
import { MAX_BODY_BYTES, parseJsonBody } from '#lib/http/json-body.ts';
import type { ApiResult } from '#lib/http/response.ts';
import { setLogSink } from '#lib/log.ts';
import { DependencyUnavailableError } from '#lib/store/store-errors.ts';
import { thrownHttpError } from '../support/http-error.ts';

describe('errorResponder', () => {
  const context = { awsRequestId: 'r-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
  const event = { requestContext: { requestId: 'r-1' } } as APIGatewayProxyEvent;

  /** Runs the real responder in a middy chain whose handler throws `error`; `inner` sits inside it. */
  const respond = async (error: unknown, inner: MiddlewareObj<APIGatewayProxyEvent, ApiResult>[] = []) => {
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    try {
      const handler = middy<APIGatewayProxyEvent, ApiResult>()
        .use(errorResponder())
        .use(inner)
        .handler(() => Promise.reject(error));
      return { response: await handler(event, context), lines };
    } finally {
      setLogSink(previous);
    }
  };

  it('exposes an HttpError as {code, message, status} JSON, with its headers', async () => {
    const { response, lines } = await respond(new HttpError('unauthorized', 'No key.', { 'WWW-Authenticate': 'Bearer' }));
    expect(response.statusCode).toBe(401);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' });
    expect(JSON.parse(response.body)).toEqual({ code: 'unauthorized', message: 'No key.', status: 401 });
    expect(lines).toEqual([]);
  });

  it('turns any other error into a 500 that reveals nothing, and logs it', async () => {
    const { response, lines } = await respond(new TypeError('secret detail at /var/task/x.js'));
    expect(response.statusCode).toBe(500);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json' });
    const body = JSON.parse(response.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(body).toMatchObject({ code: 'internal_error', status: 500 });
    expect(response.body).not.toContain('secret detail');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'error', requestId: 'r-1', errorName: 'TypeError' });
  });

  it('answers a store outage with an exposed 503 and Retry-After, logged as a warning without a stack', async () => {
    const { response, lines } = await respond(
      new DependencyUnavailableError('store down', { cause: new Error('ECONNREFUSED'), retryAfterSeconds: 2 }),
    );
    expect(response.statusCode).toBe(503);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json', 'Retry-After': '2' });
    expect(JSON.parse(response.body)).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'warn', errorName: 'DependencyUnavailableError' });
    expect(lines[0]).not.toContain('"stack"');
  });

  it('answers 503 when the function is about to time out waiting on the store', () => {
    // The error middy's timeoutEarlyResponse throws.
    const timeout = new Error('[AbortError]: The operation was aborted.', { cause: { package: '@middy/core' } });
    timeout.name = 'TimeoutError';
    expect(toHttpError(timeout).toBody()).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(toHttpError(Object.assign(new Error('other'), { name: 'TimeoutError' })).status).toBe(500);
  });

  it('treats thrown non-errors as bugs too, and leaves a response set inside it alone', async () => {
    expect(toHttpError('a string').status).toBe(500);
    expect(toHttpError(undefined).status).toBe(500);
    expect((await respond('a string')).response.statusCode).toBe(500);
    const existing = { statusCode: 204, headers: {}, body: '' };
    const setsResponse: MiddlewareObj<APIGatewayProxyEvent, ApiResult> = {
      onError: (request) => {
        request.response = existing;
      },
    };
    expect((await respond(new Error('x'), [setsResponse])).response).toEqual(existing);
  });

  it("renders an error nobody mapped as the spec's 500 JSON body, never text/plain", async () => {
    const [errorHandler] = errorResponder();
    const handler = middy<APIGatewayProxyEvent, ApiResult>()
      .use(errorHandler as MiddlewareObj<APIGatewayProxyEvent, ApiResult>)
      .handler(() => Promise.reject(new Error('unmapped')));
    const response = await handler(event, context);
    expect(response.statusCode).toBe(500);
    expect(response.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(response.body)).toEqual({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, status: 500 });
  });
});

describe('bearerToken', () => {
  const withAuth = (value?: string) => ({ headers: value === undefined ? {} : { Authorization: value } });

  it('takes the token after a case-insensitive Bearer scheme', () => {
    expect(bearerToken(withAuth('Bearer abc'))).toBe('abc');
    expect(bearerToken(withAuth('bearer abc'))).toBe('abc');
    expect(bearerToken(withAuth('BEARER   abc  '))).toBe('abc');
    expect(bearerToken({ headers: { authorization: 'Bearer lower-case-header' } })).toBe('lower-case-header');
  });

  it('refuses several Authorization lines, whatever their casing, even when they agree', () => {
    const twice = {
      headers: { authorization: 'Bearer b' },
      multiValueHeaders: { Authorization: ['Bearer a'], authorization: ['Bearer b'] },
    };
    expect(thrownHttpError(() => bearerToken(twice)).message).toMatch(/^2 Authorization headers: send exactly one/);
    const same = { headers: { Authorization: 'Bearer a' }, multiValueHeaders: { Authorization: ['Bearer a', 'Bearer a'] } };
    expect(thrownHttpError(() => bearerToken(same)).status).toBe(401);
    expect(bearerToken({ headers: { Authorization: 'Bearer a' }, multiValueHeaders: { Authorization: ['Bearer a'] } })).toBe('a');
  });

  it.each([undefined, '', '   ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer', 'Bearer   ', 'abc'])(
    'refuses %j with a 401 challenge',
    (value) => {
      const error = thrownHttpError(() => bearerToken(withAuth(value)));
      expect(error.status).toBe(401);
      expect(error.headers['WWW-Authenticate']).toMatch(/^Bearer /);
      expect(error.message).toContain('Authorization: Bearer <API_KEY>');
    },
  );

  describe('the spellings of one key: the scheme in any case, then spaces only', () => {
    const key = 'psk_0123456789abcdefghijklmnopqrstuv';
    it.each([
      ['Bearer K', `Bearer ${key}`],
      ['bearer K', `bearer ${key}`],
      ['BEARER K', `BEARER ${key}`],
      ['Bearer  K (a run of spaces)', `Bearer  ${key}`],
      ['Bearer K with the optional whitespace HTTP strips around a value', ` \tBearer ${key}\t `],
    ])('accepts %s', (_, value) => {
      expect(bearerToken(withAuth(value))).toBe(key);
    });

    it.each([
      [
        'Bearer\tK (a tab between scheme and key)',
        `Bearer\t${key}`,
        /^Malformed Authorization header: separate "Bearer" from the API key with spaces only/,
      ],
      [
        'Bearer, a no-break space, K',
        `Bearer\u00a0${key}`,
        /^Malformed Authorization header: separate "Bearer" from the API key with spaces only/,
      ],
      [
        'Bearer, a tab and a space, K',
        `Bearer\t ${key}`,
        /^Malformed Authorization header: separate "Bearer" from the API key with spaces only/,
      ],
      ['a leading no-break space', `\u00a0Bearer ${key}`, /^Malformed Authorization header: it starts with whitespace other than a space/],
      ['a trailing no-break space', `Bearer ${key}\u00a0`, /^Malformed bearer token: it contains whitespace/],
      ['a trailing ideographic space (U+3000)', `Bearer ${key}\u3000`, /^Malformed bearer token: it contains whitespace/],
      ['a space and a tab after the scheme, then the key', `Bearer \t${key}`, /^Malformed bearer token: it contains whitespace/],
      ['the key followed by another word', `Bearer ${key} extra`, /^Malformed bearer token: it contains whitespace/],
      ['the key alone', key, /^API key without its scheme: send the API key as "Authorization: Bearer <API_KEY>"\.$/],
    ])('refuses %s with a 401 that says what to change', (_, value, message) => {
      const error = thrownHttpError(() => bearerToken(withAuth(value)));
      expect(error.status).toBe(401);
      expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="petstore"');
      expect(error.message).toMatch(message);
      expect(error.message).toContain('"Authorization: Bearer <API_KEY>"');
    });
  });

  it(`refuses a value longer than ${MAX_AUTHORIZATION_LENGTH} characters before matching it, such as 8 KiB of spaces before a line break`, () => {
    for (const value of [`Bearer${' '.repeat(8 * 1024)}\nx`, `Bearer ${' '.repeat(MAX_AUTHORIZATION_LENGTH)}psk_x`]) {
      const error = thrownHttpError(() => bearerToken(withAuth(value)));
      expect(error.status).toBe(401);
      expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="petstore"');
      expect(error.message).toBe(
        `Authorization header longer than ${MAX_AUTHORIZATION_LENGTH} characters: send the API key as "Authorization: Bearer <API_KEY>".`,
      );
    }
    const longest = `Bearer ${' '.repeat(MAX_AUTHORIZATION_LENGTH - 'Bearer  abc'.length)} abc`;
    expect(longest).toHaveLength(MAX_AUTHORIZATION_LENGTH);
    expect(bearerToken(withAuth(longest))).toBe('abc');
  });
});

describe('parseJsonBody', () => {
  const event = (body: string | null, contentType?: string, isBase64Encoded = false) => ({
    body,
    isBase64Encoded,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
  });

  it('ignores a leading byte order mark, in text and in base64 bodies alike', () => {
    expect(parseJsonBody(event('\uFEFF{"a":1}', 'application/json'))).toEqual({ a: 1 });
    expect(parseJsonBody(event(Buffer.from('\uFEFF{"a":1}').toString('base64'), 'application/json', true))).toEqual({ a: 1 });
  });

  it('parses a JSON object with a JSON content type', () => {
    expect(parseJsonBody(event('{"a":1}', 'application/json'))).toEqual({ a: 1 });
    expect(parseJsonBody(event('{"a":1}', 'Application/JSON; charset=UTF-8'))).toEqual({ a: 1 });
    expect(parseJsonBody(event(Buffer.from('{"a":"é"}').toString('base64'), 'application/json', true))).toEqual({ a: 'é' });
  });

  it.each([
    [event(null, 'application/json'), 'validation_failed'],
    [event('', 'application/json'), 'validation_failed'],
    [event('{', 'application/json'), 'validation_failed'],
    [event('[]', 'application/json'), 'validation_failed'],
    [event('null', 'application/json'), 'validation_failed'],
    [event('"x"', 'application/json'), 'validation_failed'],
    [event('{}', 'text/plain'), 'unsupported_media_type'],
    [event('{}'), 'unsupported_media_type'],
    [event('{}', 'application/json; charset=latin1'), 'unsupported_media_type'],
    [
      { ...event('{}', 'application/json'), headers: { 'content-type': 'application/json', 'Content-Encoding': 'gzip' } },
      'unsupported_media_type',
    ],
    [event(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]).toString('base64'), 'application/json', true), 'validation_failed'],
    [event(`{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`, 'application/json'), 'payload_too_large'],
  ])('refuses %j as %s', (input, code) => {
    expect(thrownHttpError(() => parseJsonBody(input)).code).toBe(code);
  });

  it('accepts a body of exactly 64 KiB', () => {
    const body = `{"name":"${'x'.repeat(MAX_BODY_BYTES - 11)}"}`;
    expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
    expect(parseJsonBody(event(body, 'application/json'))).toHaveProperty('name');
  });
});
