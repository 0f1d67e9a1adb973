/**
 * Idempotent creates against the test store: once, under races, half-way failures, expiry and
 * later writes to the pet; and the records' DynamoDB adapter keeping the contract the protocol's
 * unit tests assume.
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbIdempotencyRecords } from '#lib/store/dynamodb-idempotency-records.ts';
import { DynamoDbPetStore } from '#lib/store/dynamodb-pet-store.ts';
import { IdempotencyKeyReusedError } from '#lib/store/store-errors.ts';
import { hashNewPet, IDEMPOTENCY_TTL_SECONDS, type IdempotencyRecord } from '#lib/store/idempotency.ts';
import { generatePetId } from '#lib/store/ids.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';
import { recordingClient, type TestTables, testTables } from '../support/store-endpoint.ts';
import { expectWriteKept } from '../support/write-invariants.ts';

let tables: TestTables;
let client: DynamoDBDocumentClient;
let pets: DynamoDbPetStore;
let names: TestTables['tableNames'];

const petCount = async (): Promise<number> => (await client.send(new ScanCommand({ TableName: names.pets, Select: 'COUNT' }))).Count ?? 0;

beforeAll(async () => {
  tables = await testTables();
  client = tables.client;
  names = tables.tableNames;
  pets = new DynamoDbPetStore(client, names.pets, names.idempotency);
});

afterAll(async () => {
  await tables?.close();
});

describe('idempotent create', () => {
  it('creates once and returns the same pet to every retry', async () => {
    const before = await petCount();
    const first = await pets.create({ name: 'Rex', categoryId: 1, status: 'available' }, { idempotencyKey: 'k-retry' });
    const again = await pets.create({ name: 'Rex', categoryId: 1, status: 'available' }, { idempotencyKey: 'k-retry' });
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ pet: first.pet, replayed: true });
    expect(await petCount()).toBe(before + 1);
  });

  it('creates once when 20 requests with the same key race', async () => {
    const before = await petCount();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => pets.create({ name: 'Racer', categoryId: 2 }, { idempotencyKey: 'k-race' })),
    );
    expect(new Set(results.map((r) => r.pet.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(results.every((r) => r.pet.name === 'Racer' && r.pet.status === undefined)).toBe(true);
    expect(await petCount()).toBe(before + 1);
  });

  it('refuses the same key with a different pet, and keys are independent', async () => {
    await pets.create({ name: 'One', categoryId: 1 }, { idempotencyKey: 'k-mismatch' });
    await expect(pets.create({ name: 'Two', categoryId: 1 }, { idempotencyKey: 'k-mismatch' })).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
    await expect(pets.create({ name: 'One', categoryId: 1, status: 'sold' }, { idempotencyKey: 'k-mismatch' })).rejects.toBeInstanceOf(
      IdempotencyKeyReusedError,
    );
    const other = await pets.create({ name: 'Two', categoryId: 1 }, { idempotencyKey: 'k-other' });
    expect(other.replayed).toBe(false);
  });

  it('finishes the create of a request that died after reserving its key', async () => {
    const petId = generatePetId();
    await client.send(
      new PutCommand({
        TableName: names.idempotency,
        Item: {
          recordKey: 'k-died',
          petId,
          bodyHash: hashNewPet({ name: 'Half', categoryId: 3 }),
          expiresAt: Math.floor(Date.now() / 1000) + 60,
        },
      }),
    );
    const result = await pets.create({ name: 'Half', categoryId: 3 }, { idempotencyKey: 'k-died' });
    // The first request never answered, so this is no replay: this request created the pet.
    expect(result).toEqual({ pet: { id: petId, name: 'Half', categoryId: 3 }, replayed: false });
    expect(await pets.get(petId)).toEqual(result.pet);
  });

  it('moves the key to a fresh id when its reserved id went to an unrelated pet', async () => {
    const { pet: unrelated } = await pets.create({ name: 'Unrelated', categoryId: 4 });
    await client.send(
      new PutCommand({
        TableName: names.idempotency,
        Item: {
          recordKey: 'k-collide',
          petId: unrelated.id,
          bodyHash: hashNewPet({ name: 'Mine', categoryId: 4 }),
          expiresAt: Math.floor(Date.now() / 1000) + 60,
        },
      }),
    );
    const recording = recordingClient(tables.store.endpoint);
    const result = await new DynamoDbPetStore(recording.client, names.pets, names.idempotency).create(
      { name: 'Mine', categoryId: 4 },
      { idempotencyKey: 'k-collide' },
    );
    recording.client.destroy();
    // The refused put reads the pet back once, and that read is what the protocol compares marks on.
    expect(recording.sent.filter((s) => s.command === 'GetItemCommand' && s.input.TableName === names.pets)).toHaveLength(1);
    expect(result.replayed).toBe(false);
    expect(result.pet.id).not.toBe(unrelated.id);
    expect(result.pet.name).toBe('Mine');
    expect(await pets.get(unrelated.id)).toEqual(unrelated);
  });

  it('treats a record past its expiry as absent, and stamps new records with a 24 h expiry', async () => {
    await client.send(
      new PutCommand({
        TableName: names.idempotency,
        Item: { recordKey: 'k-old', petId: generatePetId(), bodyHash: 'other body', expiresAt: Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const result = await pets.create({ name: 'New day', categoryId: 5 }, { idempotencyKey: 'k-old' });
    expect(result.replayed).toBe(false);
    const { Item } = await client.send(new GetCommand({ TableName: names.idempotency, Key: { recordKey: 'k-old' } }));
    expect(Item?.petId).toBe(result.pet.id);
    const ttl = (Item?.expiresAt as number) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(IDEMPOTENCY_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(IDEMPOTENCY_TTL_SECONDS);
  });
});

/**
 * A later write to a stored pet, two ways any write path may make one while keeping what every
 * write keeps (docs/data-model.md#what-every-write-keeps): the pet becomes `CHANGED`.
 */
const CHANGED = { name: 'Changed', categoryId: 7, status: 'sold' } as const;
const laterWrites: Record<string, (id: number) => Promise<unknown>> = {
  'an UpdateItem of its fields': (id) =>
    client.send(
      new UpdateCommand({
        TableName: names.pets,
        Key: { id },
        UpdateExpression: 'SET #name = :name, categoryId = :category, #status = :status, #order = :order',
        ExpressionAttributeNames: { '#name': 'name', '#status': 'status', '#order': STATUS_ORDER_ATTRIBUTE },
        ExpressionAttributeValues: {
          ':name': CHANGED.name,
          ':category': CHANGED.categoryId,
          ':status': CHANGED.status,
          ':order': statusOrder(id),
        },
      }),
    ),
  'a put of the whole changed item': async (id) => {
    const { Item } = await client.send(new GetCommand({ TableName: names.pets, Key: { id }, ConsistentRead: true }));
    await client.send(new PutCommand({ TableName: names.pets, Item: { ...Item, ...CHANGED, [STATUS_ORDER_ATTRIBUTE]: statusOrder(id) } }));
  },
};
const rawItem = async (id: number) =>
  (await client.send(new GetCommand({ TableName: names.pets, Key: { id }, ConsistentRead: true }))).Item as Record<string, unknown>;

describe.each(Object.entries(laterWrites))('after %s changed the pet', (_, write) => {
  it('a create retried under its key replays that pet, as it is now', async () => {
    const key = `k-changed-${randomUUID()}`;
    const first = await pets.create({ name: 'Before', categoryId: 1, status: 'available' }, { idempotencyKey: key });
    const before = await rawItem(first.pet.id);
    await write(first.pet.id);
    expectWriteKept(before, await rawItem(first.pet.id));
    const count = await petCount();
    const retry = await pets.create({ name: 'Before', categoryId: 1, status: 'available' }, { idempotencyKey: key });
    expect(retry).toEqual({ pet: { id: first.pet.id, ...CHANGED }, replayed: true });
    expect(await petCount()).toBe(count);
  });

  // The SDK retries a put whose answer was lost; here the pet changes before the retry arrives.
  it.each([undefined, 'k-lost'])('a create (key: %s) whose put answer is lost stores the pet once', async (keyed) => {
    const lossy = createDocumentClient({ endpoint: tables.store.endpoint });
    let lost = false;
    lossy.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const input = args.input as { TableName?: string; Item?: { id?: { N?: string } } };
        if (lost || context.commandName !== 'PutItemCommand' || input.TableName !== names.pets) return result;
        lost = true;
        await write(Number(input.Item?.id?.N));
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} });
      },
      { step: 'deserialize' },
    );
    const store = new DynamoDbPetStore(lossy, names.pets, names.idempotency);
    const count = await petCount();
    const result = await store.create({ name: 'Lost', categoryId: 1 }, keyed ? { idempotencyKey: `${keyed}-${randomUUID()}` } : {});
    lossy.destroy();
    expect(lost).toBe(true);
    expect(result.replayed).toBe(false);
    expect(await petCount()).toBe(count + 1);
    expect(await pets.get(result.pet.id)).toEqual({ id: result.pet.id, ...CHANGED });
  });
});

it('after a DeleteItem removed the pet, a create retried under its key replays it as created and stores nothing', async () => {
  const key = `k-deleted-${randomUUID()}`;
  const body = { name: 'Deleted', categoryId: 1, status: 'pending' } as const;
  const first = await pets.create(body, { idempotencyKey: key });
  await client.send(new DeleteCommand({ TableName: names.pets, Key: { id: first.pet.id } }));
  const count = await petCount();
  expect(await pets.create(body, { idempotencyKey: key })).toEqual({ pet: first.pet, replayed: true });
  expect(await pets.get(first.pet.id)).toBeUndefined();
  expect(await petCount()).toBe(count);
});

describe('DynamoDbIdempotencyRecords (the World of test/unit/idempotency-protocol.test.ts, on DynamoDB)', () => {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const record = (recordKey: string, petId: number, expiresAt = nowSeconds + 60): IdempotencyRecord => ({
    recordKey,
    petId,
    bodyHash: 'hash',
    expiresAt,
  });
  let records: DynamoDbIdempotencyRecords;
  beforeAll(() => {
    records = new DynamoDbIdempotencyRecords(client, names.idempotency);
  });

  it('reserves a free key or one whose record expired before now, never one whose record still holds', async () => {
    expect(await records.reserve(record('c-free', 1), nowSeconds)).toBe(true);
    expect(await records.reserve(record('c-free', 2), nowSeconds)).toBe(false);
    expect(await records.read('c-free')).toEqual(record('c-free', 1));
    await records.reserve(record('c-expiring', 1, nowSeconds), nowSeconds);
    expect(await records.reserve(record('c-expiring', 2), nowSeconds)).toBe(false);
    expect(await records.reserve(record('c-expiring', 3), nowSeconds + 1)).toBe(true);
    expect(await records.read('c-expiring')).toEqual(record('c-expiring', 3));
    expect(await records.read('c-none')).toBeUndefined();
  });

  it('repoints a record only from the pet id it holds, and creates none', async () => {
    await records.reserve(record('c-repoint', 1), nowSeconds);
    await records.repoint('c-repoint', 1, 2);
    await records.repoint('c-repoint', 1, 3);
    expect((await records.read('c-repoint'))?.petId).toBe(2);
    await records.repoint('c-no-record', 1, 2);
    expect(await records.read('c-no-record')).toBeUndefined();
  });

  it('marks a record created only while it holds that pet id; a marked record is never repointed; a new reservation drops the mark', async () => {
    await records.reserve(record('c-mark', 1), nowSeconds);
    await records.markCreated('c-mark', 2);
    expect(await records.read('c-mark')).toEqual(record('c-mark', 1));
    await records.markCreated('c-mark', 1);
    await records.repoint('c-mark', 1, 3);
    expect(await records.read('c-mark')).toEqual({ ...record('c-mark', 1), created: true });
    await records.markCreated('c-mark-none', 1);
    expect(await records.read('c-mark-none')).toBeUndefined();
    await records.reserve(record('c-mark', 4), nowSeconds + 61);
    expect(await records.read('c-mark')).toEqual(record('c-mark', 4));
  });
});
