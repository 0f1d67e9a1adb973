/**
 * What a client sees when DynamoDB fails: 503 with Retry-After for throttling, errors and
 * timeouts, within a bounded time; a failed key lookup is a 503, never a 401; nothing half-written.
 * And, seen by the same proxy, that each function calls DynamoDB only as its descriptor grants:
 * local mode enforces no IAM, so this is where a missing grant shows before a deploy.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalApi } from '../../infra/local/api-server.ts';
import { sourceStageApi } from '../../infra/local/stage-api.ts';
import { ENV } from '#lib/config.ts';
import { type OperationId, operations } from '#lib/operations.ts';
import { reconfigure } from '#lib/services.ts';
import { createDocumentClient, STORE_TIMEOUTS } from '#lib/store/dynamodb-client.ts';
import { TIMEOUT_SECONDS } from '../../infra/cdk/function-limits.ts';
import { apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import { lambdaContext, proxyEvent } from '../../infra/bench/scenarios.ts';
import { type FaultProxy, SLOW_ANSWER_MS, startFaultProxy } from '../support/fault-proxy.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { grantsOf, validRequest } from '../support/operations.ts';

let api: TestApi;
let proxy: FaultProxy;

/** Every operation as `[operationId, method, path, body, success status]`. */
const requests = operations.map((operation) => {
  const { method, path, body } = validRequest(operation, { petId: 1, name: 'Rex' });
  return [operation.operationId, method, path, body, operation.success.status] as const;
});

function call(method: string, path: string, body: string | undefined, auth = api.apiKey): Promise<Response> {
  return fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body } : {}),
  });
}

/** 503 service_unavailable in the Error shape; Retry-After is 2 s for throttling, else 1 s. */
async function expect503(response: Response, retryAfter: '1' | '2' = '1'): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('retry-after')).toBe(retryAfter);
  expect(await response.json()).toEqual({ code: 'service_unavailable', message: expect.stringContaining('Retry'), status: 503 });
}

/**
 * The bound on every 503 here: the function's own timeout. A 503 after it would be the function
 * timing out (middy's), not the store client giving up; how much sooner depends on the machine.
 */
const FUNCTION_TIMEOUT_MS = TIMEOUT_SECONDS * 1000;

/**
 * The store calls of the last request. Exact attempt counts hold because one client serves this
 * file and the SDK's retry quota (500 tokens; 5 a retry, 10 after a timeout) outlasts its ~300.
 */
const petsCalls = () => proxy.calls.filter((c) => c.tableName === api.stack.tableNames.pets);

beforeAll(async () => {
  api = await startTestApi();
  // Point the handlers at the proxy in front of the real store; tables and key are already there.
  // This suite is about production's timeouts: the store client gets them, not the tests' allowance.
  proxy = await startFaultProxy(api.stack.dynamodbEndpoint);
  reconfigure({ [ENV.dynamodbEndpoint]: proxy.endpoint, [ENV.timeoutScale]: undefined });
});

beforeEach(() => {
  proxy.decide = () => 'pass';
  proxy.calls.length = 0;
});

afterAll(async () => {
  await proxy?.close();
  await api?.close();
});

describe('store faults', () => {
  it('serves normally through the proxy', async () => {
    expect((await call('GET', '/pets', undefined)).status).toBe(200);
  });

  it.each(requests)('%s answers 503 when the pets table is throttled, after 3 attempts', async (_name, method, path, body) => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? 'throttle' : 'pass');
    await expect503(await call(method, path, body), '2');
    expect(petsCalls()).toHaveLength(3);
  });

  // Each is a throttling error DynamoDB really sends (the first on provisioned capacity, the
  // second on on-demand tables, the third on account request limits): none may become a 500.
  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'])(
    'treats %s as throttling: 503 with Retry-After: 2',
    async (name) => {
      proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? `throttle:${name}` : 'pass');
      await expect503(await call('GET', '/pets', undefined), '2');
    },
  );

  it.each(requests)('%s answers 503 when DynamoDB fails with 500s', async (_name, method, path, body) => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? 'server-error' : 'pass');
    await expect503(await call(method, path, body));
  });

  it.each(requests)('%s answers 503, not 401, when the key lookup fails', async (_name, method, path, body) => {
    proxy.decide = () => 'throttle';
    // A key the verifier has not cached yet, so the lookup really happens.
    const fresh = await createFreshKey();
    await expect503(await call(method, path, body, fresh), '2');
  });

  describe('the key is verified before the store is asked for anything else', () => {
    const keyCalls = () => proxy.calls.filter((c) => c.tableName === api.stack.tableNames.apiKeys);

    it.each(requests)('%s reaches the pets table only after the key lookup has answered', async (_name, method, path, body, success) => {
      proxy.decide = (_op, table) => (table === api.stack.tableNames.apiKeys ? 'slow' : 'pass');
      const fresh = await createFreshKey();
      expect([success, 404]).toContain((await call(method, path, body, fresh)).status);
      const [lookup] = keyCalls();
      const [first] = petsCalls();
      expect((first?.at ?? 0) - (lookup?.at ?? Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(SLOW_ANSWER_MS - 5);
    });

    it('an unknown key gets the 401 without a read; the same key again asks the store nothing (the miss is cached)', async () => {
      proxy.decide = (_op, table) => (table === api.stack.tableNames.apiKeys ? 'slow' : 'hang');
      const unknown = `psk_${'Z'.repeat(32)}`;
      const first = await call('GET', '/pets', undefined, unknown);
      expect(first.status).toBe(401);
      expect(await first.json()).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(keyCalls()).toHaveLength(1);
      expect(petsCalls()).toHaveLength(0);
      proxy.calls.length = 0;
      expect((await call('GET', '/pets', undefined, unknown)).status).toBe(401);
      expect(proxy.calls).toHaveLength(0);
    });

    it('a failed key lookup is a 503 without a read', async () => {
      // One lookup attempt that fails (the SDK does not retry it).
      proxy.decide = (_op, table) => (table === api.stack.tableNames.apiKeys ? 'slow-garbage' : 'hang');
      const fresh = await createFreshKey();
      await expect503(await call('GET', '/pets', undefined, fresh));
      expect(keyCalls()).toHaveLength(1);
      expect(petsCalls()).toHaveLength(0);
    });

    it('a cached key makes one store call: the read', async () => {
      expect((await call('GET', '/pets', undefined)).status).toBe(200);
      proxy.calls.length = 0;
      expect((await call('GET', '/pets', undefined)).status).toBe(200);
      expect(proxy.calls.map((c) => c.tableName)).toEqual([api.stack.tableNames.pets]);
    });
  });

  describe('each function calls DynamoDB only as its descriptor grants', () => {
    /** The calls of the last request as `X <table>[/index/<name>]`, tables by logical name. */
    const made = () => {
      const logical = new Map([
        [api.stack.tableNames.pets, petsTable.logicalName],
        [api.stack.tableNames.apiKeys, apiKeysTable.logicalName],
        [api.stack.tableNames.idempotency, idempotencyTable.logicalName],
      ]);
      return proxy.calls.map((c) => `${c.operation} ${logical.get(c.tableName ?? '')}${c.indexName ? `/index/${c.indexName}` : ''}`);
    };
    const expectGranted = (operationId: OperationId) => {
      const operation = operations.find((o) => o.operationId === operationId);
      if (!operation) throw new Error(`No operation ${operationId}`);
      const calls = made();
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) expect(grantsOf(operation), call).toContain(call);
    };

    it.each(requests)('%s', async (operationId, method, path, body, success) => {
      expect([success, 404]).toContain((await call(method, path, body, await createFreshKey())).status);
      expectGranted(operationId);
    });

    it('listPets filtered by status (the status index)', async () => {
      expect((await call('GET', '/pets?status=available', undefined, await createFreshKey())).status).toBe(200);
      expect(made().some((c) => c.includes('/index/'))).toBe(true);
      expectGranted('listPets');
    });

    it('createPet with an Idempotency-Key, then its replay', async () => {
      const key = await createFreshKey();
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `grants-${Date.now()}` };
      const init = { method: 'POST', headers, body: JSON.stringify({ name: 'Granted', categoryId: 1 }) };
      expect((await fetch(`${api.url}/pets`, init)).status).toBe(201);
      expectGranted('createPet');
      proxy.calls.length = 0;
      const replay = await fetch(`${api.url}/pets`, init);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expectGranted('createPet');
    });
  });

  it('answers 503 when DynamoDB accepts the connection but never answers', async () => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? 'hang' : 'pass');
    const started = performance.now();
    await expect503(await call('GET', '/pets', undefined));
    // 3 attempts, each cut at the request timeout, inside the function timeout.
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * STORE_TIMEOUTS.requestTimeoutMs);
    expect(performance.now() - started).toBeLessThan(FUNCTION_TIMEOUT_MS);
    expect(petsCalls()).toHaveLength(3);
  });

  it.each(['stall-after-headers', 'trickle'] as const)(
    'answers 503 when DynamoDB sends its headers and then %s, each attempt cut at its deadline',
    async (fault) => {
      proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? fault : 'pass');
      const started = performance.now();
      await expect503(await call('GET', '/pets', undefined));
      // 3 attempts, each cut at its deadline, inside the function timeout.
      expect(performance.now() - started).toBeLessThan(FUNCTION_TIMEOUT_MS);
      expect(petsCalls()).toHaveLength(3);
    },
  );

  it('answers 503, not 401, when the key lookup trickles: the lookup has the same deadline', async () => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.apiKeys ? 'trickle' : 'pass');
    const fresh = await createFreshKey();
    const started = performance.now();
    await expect503(await call('GET', '/pets', undefined, fresh));
    expect(performance.now() - started).toBeLessThan(FUNCTION_TIMEOUT_MS);
  });

  it('answers 503 when something that is not DynamoDB answers 200 with an HTML page', async () => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? 'garbage' : 'pass');
    await expect503(await call('GET', '/pets', undefined));
  });

  it('answers 503 to a keyed create when the Idempotency table fails, and the retry creates the pet once', async () => {
    const name = `keyed-${Date.now()}`;
    const create = () =>
      fetch(`${api.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `fault-${name}` },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    for (const fault of ['throttle', 'server-error', 'hang'] as const) {
      proxy.decide = (_op, table) => (table === api.stack.tableNames.idempotency ? fault : 'pass');
      await expect503(await create(), fault === 'throttle' ? '2' : '1');
    }
    proxy.decide = () => 'pass';
    const first = await create();
    expect(first.status).toBe(201);
    const again = await create();
    expect(again.status).toBe(201);
    expect(((await again.json()) as { id: number }).id).toBe(((await first.json()) as { id: number }).id);
    expect(await countPets(name)).toBe(1);
  });

  it("answers 503 when the function is about to time out waiting on the store (middy's early timeout)", async () => {
    proxy.decide = (_op, table) => (table === api.stack.tableNames.pets ? 'hang' : 'pass');
    const { handler } = await import('../../functions/list-pets.ts');
    const deadline = Date.now() + 1_500;
    const context = { ...lambdaContext('list-pets', 'early-timeout'), getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
    const result = await handler(proxyEvent({ method: 'GET', path: '/pets' }, api.apiKey, 'early-timeout'), context);
    // middy answered first: the store client had not made its 3 attempts.
    expect(petsCalls().length).toBeLessThan(STORE_TIMEOUTS.maxAttempts);
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(result.body)).toMatchObject({ code: 'service_unavailable', status: 503 });
    // The read in flight is aborted with the answer, not left to time out and retry.
    const answered = performance.now();
    await expectReadAborted();
    expect(petsCalls().filter((c) => c.at > answered)).toHaveLength(0);
  });

  // The SDK retries a put whose answer it never got; the retry then finds the item its first
  // attempt stored. That is this request's pet, not an id collision to store it again for.
  describe.each(['late', 'reset-after-write'] as const)('when the store writes a pet but its answer is lost (%s)', (fault) => {
    /** The first PutItem of a pet gets `fault`; everything after it passes. */
    const loseFirstPetAnswer = () => {
      let faulted = false;
      proxy.decide = (op, table) => {
        if (faulted || op !== 'PutItem' || table !== api.stack.tableNames.pets) return 'pass';
        faulted = true;
        return fault;
      };
    };

    it('an unkeyed create stores the pet once and answers 201 with it', async () => {
      const name = `lost-answer-${fault}-${Date.now()}`;
      loseFirstPetAnswer();
      const response = await call('POST', '/pets', JSON.stringify({ name, categoryId: 1 }));
      expect(response.status).toBe(201);
      const pet = (await response.json()) as { id: number };
      expect(
        petsCalls()
          .filter((c) => c.operation === 'PutItem')
          .map((c) => c.fault),
      ).toEqual([fault, 'pass']);
      // The failed condition's item is read back, to see whose it is.
      expect(petsCalls().filter((c) => c.operation === 'GetItem')).toHaveLength(1);
      expect(await countPets(name)).toBe(1);
      expect((await call('GET', `/pets/${pet.id}`, undefined)).status).toBe(200);
    });

    it('a keyed create stores the pet once, and its only request is not marked as a replay', async () => {
      const name = `lost-answer-keyed-${fault}-${Date.now()}`;
      loseFirstPetAnswer();
      const response = await fetch(`${api.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json', 'idempotency-key': name },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      expect(await countPets(name)).toBe(1);
    });

    it("a keyed create whose reservation's answer is lost stores the pet once, not as a replay", async () => {
      // The retried reservation fails its condition on the record it just wrote, and reads it back:
      // the same pet id and body hash, so the request goes on as the one that reserved the key.
      const name = `lost-reservation-${fault}-${Date.now()}`;
      let faulted = false;
      proxy.decide = (op, table) => {
        if (faulted || op !== 'PutItem' || table !== api.stack.tableNames.idempotency) return 'pass';
        faulted = true;
        return fault;
      };
      const response = await fetch(`${api.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json', 'idempotency-key': name },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      expect(faulted).toBe(true);
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
      expect(await countPets(name)).toBe(1);
    });
  });

  it('writes nothing when a create fails', async () => {
    const before = await countPets();
    proxy.decide = (op, table) => (op === 'PutItem' && table === api.stack.tableNames.pets ? 'server-error' : 'pass');
    await expect503(await call('POST', '/pets', JSON.stringify({ name: 'Lost?', categoryId: 1 })));
    expect(await countPets()).toBe(before);
  });
});

describe('an unreachable store', () => {
  it('gives every operation a 503 Error before the function times out once the store goes away, the key already verified', async () => {
    const doomed = await startFaultProxy(api.stack.dynamodbEndpoint);
    reconfigure({ [ENV.dynamodbEndpoint]: doomed.endpoint });
    try {
      expect((await call('GET', '/pets', undefined)).status).toBe(200);
      await doomed.close();
      for (const [, method, path, body] of requests) {
        const started = performance.now();
        await expect503(await call(method, path, body));
        expect(performance.now() - started).toBeLessThan(FUNCTION_TIMEOUT_MS);
      }
    } finally {
      reconfigure({ [ENV.dynamodbEndpoint]: proxy.endpoint });
    }
  });

  it('gives every operation a 503 Error before the function times out', async () => {
    const closed = await startLocalApiOnClosedPort();
    try {
      for (const [, method, path, body] of requests) {
        const started = performance.now();
        const response = await fetch(`${closed.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${api.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        });
        await expect503(response);
        expect(performance.now() - started).toBeLessThan(FUNCTION_TIMEOUT_MS);
      }
    } finally {
      await closed.close();
      reconfigure({ [ENV.dynamodbEndpoint]: proxy.endpoint });
    }
  });
});

/**
 * The last call to the pets table, which hangs, was closed by an abort with the answer, not by the
 * SDK's own request timeout: the SDK retries a call it timed out, and no call follows this one for
 * longer than that timeout. Fails if the connection never closes.
 */
async function expectReadAborted(): Promise<void> {
  await expect.poll(() => petsCalls().at(-1)?.closedAt, { interval: 10 }).toBeDefined();
  const calls = petsCalls().length;
  await new Promise((resolve) => setTimeout(resolve, 2 * STORE_TIMEOUTS.requestTimeoutMs));
  expect(petsCalls()).toHaveLength(calls);
}

/** Pets in the real store (not through the proxy), all of them or those with this name. */
async function countPets(name?: string): Promise<number> {
  const client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: api.stack.tableNames.pets }));
    return name === undefined ? Items.length : Items.filter((item) => item.name === name).length;
  } finally {
    client.destroy();
  }
}

async function createFreshKey(): Promise<string> {
  const { generateApiKey, newApiKeyRecord } = await import('#lib/auth/api-keys.ts');
  const { DynamoDbApiKeyStore } = await import('#lib/store/dynamodb-api-key-store.ts');
  const client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
  const key = generateApiKey();
  await new DynamoDbApiKeyStore(client, api.stack.tableNames.apiKeys).add(newApiKeyRecord(key, 'fault test'));
  client.destroy();
  return key;
}

/** A second local API whose store endpoint is a port nobody listens on. */
async function startLocalApiOnClosedPort() {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  reconfigure({ [ENV.dynamodbEndpoint]: `http://127.0.0.1:${port}` });
  return startLocalApi({ api: (await sourceStageApi()).api, port: 0 });
}
