/**
 * The store client's retry and outage paths end to end, through a fault proxy in front of the
 * store (test/support/fault-proxy.ts): against the handler sources under `npm test`, and against
 * the deployed bundles under `npm run test:bundles`, whose SDK is the one Lambda runs.
 * test/reliability/store-faults.test.ts covers every fault in depth, in this process only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { operations } from '#lib/operations.ts';
import { validRequest } from '../support/operations.ts';
import { STORE_TIMEOUTS } from '#lib/store/dynamodb-client.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { localMode } from '../support/local-api.ts';
import { type TestStore, testStore } from '../support/store-endpoint.ts';
import { expectError } from './helpers.ts';

let store: TestStore;
let proxy: FaultProxy;
let stack: LocalStack;
let petId: number;
const apiKey = generateApiKey();

function send({ method, path, body }: { method: string; path: string; body?: string }): Promise<Response> {
  const headers = { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) };
  return fetch(`${stack.url}${path}`, { method, headers, ...(body ? { body } : {}) });
}

const petsCalls = () => proxy.calls.filter((c) => c.tableName === stack.tableNames.pets);

beforeAll(async () => {
  store = await testStore();
  proxy = await startFaultProxy(store.endpoint);
  stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    apiKey,
    dynamodbEndpoint: proxy.endpoint,
    tablePrefix: store.tablePrefix,
    onFunctionOutput: () => undefined,
    ...localMode(),
  });
  const created = await send({ method: 'POST', path: '/pets', body: JSON.stringify({ name: 'Retried', categoryId: 1 }) });
  expect(created.status).toBe(201);
  petId = ((await created.json()) as { id: number }).id;
});

beforeEach(() => {
  proxy.decide = () => 'pass';
  proxy.calls.length = 0;
});

afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await store?.close();
});

describe.each(operations.map((o) => [o.operationId, o] as const))('%s against a failing store', (_, operation) => {
  it('retries a failed store call and answers as if nothing had happened', async () => {
    let failures = 1;
    proxy.decide = (_call, table) => (table === stack.tableNames.pets && failures-- > 0 ? 'server-error' : 'pass');
    const response = await send(validRequest(operation, { petId, name: 'Once' }));
    expect(response.status, await response.clone().text()).toBe(operation.success.status);
    expect(petsCalls().map((c) => c.fault)).toEqual(['server-error', 'pass']);
  });

  it('answers 503 with Retry-After after its last attempt while the store is throttled, then recovers', async () => {
    proxy.decide = (_call, table) => (table === stack.tableNames.pets ? 'throttle' : 'pass');
    const response = await send(validRequest(operation, { petId, name: 'Throttled' }));
    expect(response.headers.get('retry-after')).toBe('2');
    await expectError(response, 503, 'service_unavailable', [/retry/i]);
    expect(petsCalls()).toHaveLength(STORE_TIMEOUTS.maxAttempts);
    proxy.decide = () => 'pass';
    expect((await send(validRequest(operation, { petId, name: 'Recovered' }))).status).toBe(operation.success.status);
  });
});
