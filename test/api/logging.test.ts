/**
 * The service's log output under real traffic: JSON lines, each with a request id, one access line
 * per request, and never the API key or an Authorization value, whatever the request carried.
 * The handlers run in this process, so `setLogSink` sees every line they write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as keysCli } from '../../infra/cli/keys.ts';
import { generateApiKey, hashApiKey, keyIdFromHash } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { LOG_LEVELS, setLogSink } from '#lib/log.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { closedPort, createPet, expectRequestId, origin, postJson, withEnv } from './helpers.ts';

let api: TestApi;
let previousSink: ReturnType<typeof setLogSink> | undefined;
let previousLevel: string | undefined;
const lines: string[] = [];

/** Every response of the traffic below that a handler answered, with the status it had. */
const handled: Array<{ requestId: string; status: number; label: string }> = [];
/** Every Authorization value sent, and every secret-looking token. */
const authorizationValues = new Set<string>();
const secrets = new Set<string>();

beforeAll(async () => {
  previousLevel = process.env.LOG_LEVEL;
  reconfigure({ LOG_LEVEL: 'info', [ENV.metricsNamespace]: 'PetStore-test' });
  previousSink = setLogSink((line) => lines.push(line));
  api = await startTestApi();
  secrets.add(api.apiKey);
  const pet = await createPet(api, { name: 'Logged', categoryId: 1, status: 'available' });

  const key = api.apiKey;
  const otherKey = generateApiKey();
  secrets.add(otherKey);
  const send = async (label: string, path: string, init: RequestInit & { auth?: string | null } = {}, viaHandler = true) => {
    const headers = new Headers(init.headers);
    if (init.auth !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${init.auth ?? key}`);
    const value = headers.get('authorization');
    if (value !== null) authorizationValues.add(value);
    const res = await api.request(path, { ...init, headers, auth: null });
    const requestId = expectRequestId(res);
    await res.body?.cancel();
    if (viaHandler) handled.push({ requestId, status: res.status, label });
    return res;
  };

  // Successes.
  await send('list', '/pets');
  await send('list filtered', '/pets?status=available&limit=1');
  await send('get', `/pets/${pet.id}`);
  await send('create', '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'A', categoryId: 1 }),
  });
  const keyed = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'logged-once' },
    body: '{"name":"K","categoryId":1}',
  };
  await send('keyed create', '/pets', keyed);
  await send('keyed replay', '/pets', keyed);
  await send('lowercase scheme', '/pets', { headers: { authorization: `bearer ${key}` } });
  await send('uppercase scheme', '/pets', { headers: { authorization: `BEARER ${key}` } });
  // Client errors, with the key in the Authorization header.
  await send('400 body', '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
  await send('400 query', '/pets?limit=0');
  await send('400 cursor', '/pets?cursor=garbage');
  await send('400 path', '/pets/abc');
  await send('404 pet', '/pets/1');
  await send('413', '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(70_000) });
  await send('415', '/pets', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
  // The key where it does not belong: in the query and in the body (the client's mistake; still never logged).
  await send('key in query', `/pets?${encodeURIComponent(key)}=1`);
  await send('key in query value', `/pets?stauts=${encodeURIComponent(key)}`);
  await send('key as body field', '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'B', categoryId: 1, [key]: key }),
  });
  await send('key as name', '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: key, categoryId: 1 }),
  });
  // Authentication failures.
  await send('401 other key', '/pets', { auth: otherKey });
  await send('401 garbage', '/pets', { auth: 'garbage-token-value' });
  await send('401 basic', '/pets', { headers: { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` } });
  await send('401 token scheme', '/pets', { headers: { authorization: `Token ${key}` } });
  await send('401 none', '/pets', { auth: null });
  // Routing answers (the gateway's, not a handler's), with the key.
  await send('404 route', '/nope', {}, false);
  await send('405 route', '/pets', { method: 'DELETE' }, false);
  // Server-side failures, logged with their details: 500 (a bug) and 503 (store unreachable).
  await withEnv({ [ENV.petsTable]: 'NoSuchTable' }, () => send('500', '/pets'));
  const port = await closedPort();
  await withEnv({ [ENV.dynamodbEndpoint]: `http://127.0.0.1:${port}` }, () => send('503', `/pets/${pet.id}`));
  await postJson(api, { name: 'Last', categoryId: 1 }).then((r) => r.body?.cancel());
  expect(origin(api)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

afterAll(async () => {
  try {
    await api?.close();
  } finally {
    if (previousSink) setLogSink(previousSink);
    reconfigure({ LOG_LEVEL: previousLevel, [ENV.metricsNamespace]: undefined });
  }
});

const parsed = (): Array<Record<string, unknown>> => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log output', () => {
  it('the traffic was answered as intended (so the checks below mean something)', () => {
    const status = Object.fromEntries(handled.map((h) => [h.label, h.status]));
    expect(status).toMatchObject({
      list: 200,
      get: 200,
      create: 201,
      'lowercase scheme': 200,
      '400 body': 400,
      '404 pet': 404,
      '413': 413,
      '415': 415,
      'key in query': 400,
      'key as body field': 400,
      'key as name': 201,
      '401 other key': 401,
      '401 basic': 401,
      'keyed create': 201,
      'keyed replay': 201,
      '500': 500,
      '503': 503,
    });
  });

  it('counts created pets, idempotent replays and refused keys as embedded metrics of the stage, by operation, and nothing else', () => {
    const records = parsed();
    const counted = (label: string) =>
      records.find((r) => r.requestId === handled.find((h) => h.label === label)?.requestId && r.message === 'request');
    const metrics = (name: string) => ({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: 'PetStore-test', Dimensions: [['operationId']], Metrics: [{ Name: name, Unit: 'Count' }] }],
      },
      [name]: 1,
    });
    expect(counted('create')).toMatchObject({ operationId: 'createPet', ...metrics('PetsCreated') });
    expect(counted('keyed create')).toMatchObject(metrics('PetsCreated'));
    expect(counted('keyed replay')).toMatchObject({ operationId: 'createPet', ...metrics('IdempotentReplays') });
    expect(counted('keyed replay')).not.toHaveProperty('PetsCreated');
    expect(counted('401 other key')).toMatchObject({ operationId: 'listPets', ...metrics('RefusedKeys') });
    for (const { label, status } of handled) {
      if (status !== 201 && status !== 401) expect(counted(label), label).not.toHaveProperty('_aws');
    }
  });

  it('writes lines', () => {
    expect(lines.length).toBeGreaterThanOrEqual(handled.length);
  });

  it('every line is one JSON object with a non-empty requestId', () => {
    for (const line of lines) {
      expect(line).not.toContain('\n');
      let record: unknown;
      expect(() => (record = JSON.parse(line)), line).not.toThrow();
      expect(record).toBeTypeOf('object');
      const requestId = (record as { requestId?: unknown }).requestId;
      expect(typeof requestId, line).toBe('string');
      expect((requestId as string).length, line).toBeGreaterThan(0);
    }
  });

  it("gives every line the `level` and RFC 3339 `timestamp` Lambda's log-level filter reads (without them it takes the line for INFO)", () => {
    for (const record of parsed()) {
      expect(LOG_LEVELS, JSON.stringify(record)).toContain(record.level);
      expect(record.timestamp, JSON.stringify(record)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(String(record.timestamp))).not.toBeNaN();
      expect(record).not.toHaveProperty('time');
    }
  });

  it('has an access line for every handled request, under its X-Request-Id, with its status', () => {
    const records = parsed();
    for (const { requestId, status, label } of handled) {
      const access = records.filter((r) => r.requestId === requestId && r.message === 'request');
      expect(access, label).toHaveLength(1);
      expect(access[0]?.status, label).toBe(status);
    }
  });

  it("names the operation on every access line, never what its function's log group says, and marks exactly each function's first request as its cold start", () => {
    const access = parsed().filter((r) => r.message === 'request');
    expect(access.length).toBeGreaterThan(0);
    for (const record of access) {
      for (const field of ['functionName', 'method', 'resource']) expect(record, JSON.stringify(record)).not.toHaveProperty(field);
    }
    // One function per operation.
    const byOperation = Map.groupBy(access, (r) => String(r.operationId));
    expect([...byOperation.keys()].sort()).toEqual(['createPet', 'getPet', 'listPets']);
    for (const [operationId, records] of byOperation) {
      expect(
        records.map((r) => r.coldStart),
        operationId,
      ).toEqual([true, ...records.slice(1).map(() => false)]);
    }
  });

  it('names the version that answered on every access line (the canary counts by it): $LATEST locally', () => {
    const access = parsed().filter((r) => r.message === 'request');
    expect(access.length).toBeGreaterThan(0);
    expect(new Set(access.map((r) => r.functionVersion))).toEqual(new Set(['$LATEST']));
  });

  it('logs the 500 at error level and the 503 as a warning or error, under their request ids', () => {
    const records = parsed();
    const detail = (label: string) => {
      const { requestId } = handled.find((h) => h.label === label) as { requestId: string };
      return records.filter((r) => r.requestId === requestId && r.message !== 'request');
    };
    expect(detail('500').map((r) => r.level)).toContain('error');
    expect(detail('503').some((r) => r.level === 'warn' || r.level === 'error')).toBe(true);
  });

  it("carries the public id of the request's key, as `npm run keys -- list` shows it, on each authenticated access line only", async () => {
    const keyId = keyIdFromHash(hashApiKey(api.apiKey));
    const listed: string[] = [];
    const target = ['--endpoint', api.stack.dynamodbEndpoint, '--table', api.stack.tableNames.apiKeys];
    expect(await keysCli(['list', ...target], (line) => listed.push(line))).toBe(0);
    expect(listed.join('\n')).toContain(keyId);

    const access = new Map(
      parsed()
        .filter((r) => r.message === 'request')
        .map((r) => [r.requestId, r]),
    );
    for (const { requestId, status, label } of handled) {
      const line = access.get(requestId);
      // The 503 is the key lookup's own failure: no key was established.
      expect(line?.keyId, label).toBe(status === 401 || label === '503' ? undefined : keyId);
    }
    // Never the key's hash, which `keys list` does not show either.
    for (const line of lines) expect(line).not.toContain(hashApiKey(api.apiKey));
  });

  it('never contains the API key, "Bearer <key>" or any Authorization value sent', () => {
    expect(authorizationValues.size).toBeGreaterThan(5);
    for (const line of lines) {
      for (const secret of secrets) {
        expect(line).not.toContain(secret);
        expect(line).not.toContain(encodeURIComponent(secret));
        expect(line.toLowerCase()).not.toContain(`bearer ${secret}`.toLowerCase());
      }
      for (const value of authorizationValues) expect(line).not.toContain(value);
      expect(line).not.toMatch(/psk_[A-Za-z0-9_-]{32}/);
    }
  });
});
