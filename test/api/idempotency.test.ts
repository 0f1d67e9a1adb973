/**
 * `Idempotency-Key` on `POST /pets`, end to end: retries and races create one pet, whatever
 * another operation wrote to it in between.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '#lib/operations.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { petsTable } from '#lib/store/tables.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { validRequest } from '../support/operations.ts';
import { expectWriteKept } from '../support/write-invariants.ts';
import { rawError, rawRequest } from './helpers.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

function create(body: unknown, key?: string, auth?: string): Promise<Response> {
  return api.request('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify(body),
    ...(auth ? { auth } : {}),
  });
}

async function countByName(name: string): Promise<number> {
  let count = 0;
  let next: string | undefined = `${api.url}/pets?limit=100`;
  while (next) {
    const response: Response = await fetch(next, { headers: { authorization: `Bearer ${api.apiKey}` } });
    count += ((await response.json()) as { name: string }[]).filter((p) => p.name === name).length;
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return count;
}

describe('Idempotency-Key', () => {
  it('returns the same pet, with the same id and Location, to a retry', async () => {
    const key = randomUUID();
    const first = await create({ name: 'Once', categoryId: 1 }, key);
    const retry = await create({ categoryId: 1, name: 'Once' }, key); // same pet, other key order
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    const pet = await first.json();
    expect(await retry.json()).toEqual(pet);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countByName('Once')).toBe(1);
  });

  it('creates one pet when ten requests with the same key race', async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 10 }, () => create({ name: 'Raced', categoryId: 2, status: 'pending' }, key)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { id: number }).id)));
    expect(ids.size).toBe(1);
    expect(await countByName('Raced')).toBe(1);
  });

  it('refuses the same key with a different body: 422, and nothing created', async () => {
    const key = randomUUID();
    expect((await create({ name: 'Original', categoryId: 1 }, key)).status).toBe(201);
    const reused = await create({ name: 'Different', categoryId: 1 }, key);
    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toBe('application/json');
    expect(await reused.json()).toEqual({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('Idempotency-Key'),
      status: 422,
    });
    expect(await countByName('Different')).toBe(0);
  });

  it('scopes keys to the API key that used them', async () => {
    const { generateApiKey, newApiKeyRecord } = await import('#lib/auth/api-keys.ts');
    const { DynamoDbApiKeyStore } = await import('#lib/store/dynamodb-api-key-store.ts');
    const { createDocumentClient } = await import('#lib/store/dynamodb-client.ts');
    const client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
    const other = generateApiKey();
    await new DynamoDbApiKeyStore(client, api.stack.tableNames.apiKeys).add(newApiKeyRecord(other, 'other client'));
    client.destroy();

    const key = randomUUID();
    const mine = await (await create({ name: 'Scoped', categoryId: 1 }, key)).json();
    const theirs = await create({ name: 'Scoped', categoryId: 1 }, key, other);
    expect(theirs.status).toBe(201);
    expect(((await theirs.json()) as { id: number }).id).not.toBe((mine as { id: number }).id);
  });

  it('refuses two Idempotency-Key headers with 400, creating nothing', async () => {
    const name = `Two keys ${randomUUID()}`;
    const res = await rawRequest(`${api.url}/pets`, {
      method: 'POST',
      headers: [
        ['Authorization', `Bearer ${api.apiKey}`],
        ['Content-Type', 'application/json'],
        ['Idempotency-Key', randomUUID()],
        ['Idempotency-Key', randomUUID()],
      ],
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    expect(rawError(res, 400, 'validation_failed').message).toMatch(/Idempotency-Key/);
    expect(await countByName(name)).toBe(0);
  });

  it('accepts the structured-field form and refuses malformed keys', async () => {
    const key = randomUUID();
    const quoted = await create({ name: 'Quoted', categoryId: 1 }, `"${key}"`);
    const bare = await create({ name: 'Quoted', categoryId: 1 }, key);
    expect(await bare.json()).toEqual(await quoted.json());
    for (const bad of ['', 'a'.repeat(256), 'with space', 'caf\u00e9', '""', 'a"b', '"unbalanced']) {
      const response = await api
        .request('/pets', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': bad },
          body: JSON.stringify({ name: 'Bad key', categoryId: 1 }),
        })
        .catch(() => undefined);
      // fetch itself refuses some header values; those never reach the service.
      if (response) {
        expect(response.status, JSON.stringify(bad)).toBe(400);
        expect(((await response.json()) as { message: string }).message).toContain('Idempotency-Key');
      }
    }
  });
});

/** Every operation whose function may write a pet, as its descriptor grants: each keeps what every write keeps. */
const WRITES: readonly string[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
const writers = operations.filter((o) => o.tables[petsTable.logicalName]?.table?.some((action) => WRITES.includes(action)));

describe.each(writers.map((o) => [o.operationId, o] as const))('after %s wrote to a pet created with a key', (_, operation) => {
  it('the pet keeps its write token, record key and index position, and a retried create replays it (if gone, as created, and it stays gone)', async () => {
    const client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
    const item = async (id: number) =>
      (await client.send(new GetCommand({ TableName: api.stack.tableNames.pets, Key: { id }, ConsistentRead: true }))).Item;
    const key = randomUUID();
    const body = { name: 'Written to', categoryId: 1, status: 'available' };
    const pet = (await (await create(body, key)).json()) as { id: number };
    const before = await item(pet.id);
    const { method, path, body: request } = validRequest(operation, { petId: pet.id, name: `written by ${operation.operationId}` });
    const written = await api.request(path, {
      method,
      ...(request ? { headers: { 'content-type': 'application/json' }, body: request } : {}),
    });
    expect(written.status, await written.text()).toBe(operation.success.status);
    const after = await item(pet.id);
    expectWriteKept(before ?? {}, after);
    const retry = await create(body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // Gone: the replay names the pet as created, and the pet stays gone (an id is never reused).
    if (after === undefined) {
      expect(await retry.json()).toEqual(pet);
      expect(await item(pet.id)).toBeUndefined();
    } else expect(((await retry.json()) as { id: number }).id).toBe(pet.id);
    client.destroy();
  });
});
