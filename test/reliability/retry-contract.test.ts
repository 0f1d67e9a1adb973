/**
 * The retry contract's 503 after a write (infra/openapi/contract.ts RETRY_CONTRACT): the store keeps
 * the pet but the function never learns it, so the client gets a 503. Retried with the same
 * `Idempotency-Key`, the create answers that one pet; retried without one, it stores a second.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let proxy: FaultProxy;

beforeAll(async () => {
  api = await startTestApi();
  proxy = await startFaultProxy(api.stack.dynamodbEndpoint);
  // Production's store deadlines: every put of a pet answers past them, after the store did it.
  reconfigure({ [ENV.dynamodbEndpoint]: proxy.endpoint, [ENV.timeoutScale]: undefined });
});

afterAll(async () => {
  await proxy?.close();
  await api?.close();
});

const create = (name: string, key?: string) =>
  fetch(`${api.url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ name, categoryId: 1 }),
  });

async function stored(name: string): Promise<number> {
  const client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: api.stack.tableNames.pets }));
    return Items.filter((item) => item.name === name).length;
  } finally {
    client.destroy();
  }
}

/** A create answered 503 although its pet was stored: every answer to a put of a pet comes too late. */
async function createLosingEveryAnswer(name: string, key?: string): Promise<Response> {
  proxy.decide = (op, table) => (op === 'PutItem' && table === api.stack.tableNames.pets ? 'late' : 'pass');
  try {
    return await create(name, key);
  } finally {
    proxy.decide = () => 'pass';
  }
}

describe('a 503 after the pet was stored', () => {
  it('with an Idempotency-Key: the retry with the same key answers that pet, stored once', async () => {
    const name = `stored-then-503-keyed-${Date.now()}`;
    const first = await createLosingEveryAnswer(name, name);
    expect(first.status).toBe(503);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stored(name)).toBe(1);
    const retry = await create(name, name);
    expect(retry.status).toBe(201);
    expect(await stored(name)).toBe(1);
  });

  it('without a key: the pet is stored, and a retry stores a second one', async () => {
    const name = `stored-then-503-unkeyed-${Date.now()}`;
    const first = await createLosingEveryAnswer(name);
    expect(first.status).toBe(503);
    expect(await stored(name)).toBe(1);
    expect((await create(name)).status).toBe(201);
    expect(await stored(name)).toBe(2);
  });
});
