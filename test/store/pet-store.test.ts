/** DynamoDbPetStore over the real AWS SDK against the test store (dynalite, or DynamoDB Local). */
import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet, PetStatus } from '#lib/domain/pet.ts';
import { DynamoDbPetStore, WRITE_TOKEN } from '#lib/store/dynamodb-pet-store.ts';
import type { PetStore } from '#lib/store/pet-store.ts';
import { BY_STATUS_INDEX, STATUS_SHARD_ATTRIBUTE, STATUS_SHARDS, statusShardKey, statusShardKeys } from '#lib/store/tables.ts';
import { type TestTables, testTables } from '../support/store-endpoint.ts';

let tables: TestTables;
let client: DynamoDBDocumentClient;
let pets: PetStore;
let tableName: string;
const created: Pet[] = [];

async function walk(limit: number, status?: PetStatus): Promise<{ pages: Pet[][] }> {
  const pages: Pet[][] = [];
  let afterId: number | undefined;
  do {
    const page = await pets.list({ limit, ...(status ? { status } : {}), ...(afterId ? { afterId } : {}) });
    pages.push(page.pets);
    afterId = page.nextAfterId;
  } while (afterId !== undefined);
  return { pages };
}

beforeAll(async () => {
  tables = await testTables();
  client = tables.client;
  tableName = tables.tableNames.pets;
  pets = new DynamoDbPetStore(client, tableName);
  const statuses: (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];
  for (let i = 0; i < 23; i++) {
    const status = statuses[i % statuses.length];
    created.push((await pets.create({ name: `pet ${i}`, categoryId: 1 + (i % 3), ...(status ? { status } : {}) })).pet);
  }
});

afterAll(async () => {
  await tables?.close();
});

describe('DynamoDbPetStore', () => {
  it('creates pets with distinct positive safe-integer ids and reads them back', async () => {
    expect(new Set(created.map((p) => p.id)).size).toBe(created.length);
    for (const pet of created) {
      expect(Number.isSafeInteger(pet.id) && pet.id > 0).toBe(true);
      expect(await pets.get(pet.id)).toEqual(pet);
    }
  });

  it('keeps an omitted status omitted', async () => {
    const { pet } = await pets.create({ name: 'no status', categoryId: 9 });
    expect(pet).toEqual({ id: pet.id, name: 'no status', categoryId: 9 });
    expect(await pets.get(pet.id)).toEqual(pet);
    created.push(pet);
  });

  it('answers undefined for an absent id', async () => {
    expect(await pets.get(1)).toBeUndefined();
  });

  it('reads with a signal, and fails a read whose signal is aborted (its answer is not wanted)', async () => {
    const [first] = created;
    expect(await pets.get(first?.id ?? 0, { signal: new AbortController().signal })).toEqual(first);
    expect((await pets.list({ limit: 1 }, { signal: new AbortController().signal })).pets).toHaveLength(1);
    const aborted = AbortSignal.abort();
    const abortedRead = { cause: { name: 'AbortError' } };
    await expect(pets.get(first?.id ?? 0, { signal: aborted })).rejects.toMatchObject(abortedRead);
    await expect(pets.list({ limit: 1, status: 'sold' }, { signal: aborted })).rejects.toMatchObject(abortedRead);
  });

  it('stores nothing but pets in the table, each with the token of the request that wrote it', async () => {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: tableName }));
    expect(Items).toHaveLength(created.length);
    for (const item of Items) {
      expect(Object.keys(item).every((k) => ['id', 'name', 'categoryId', 'status', STATUS_SHARD_ATTRIBUTE, WRITE_TOKEN].includes(k))).toBe(
        true,
      );
      expect(item[WRITE_TOKEN]).toMatch(/^[0-9a-f-]{36}$/);
      // The index key is there exactly when the pet has a status (the index stays sparse), derived from the id.
      expect(item[STATUS_SHARD_ATTRIBUTE]).toBe(item.status === undefined ? undefined : statusShardKey(item.status, item.id));
    }
    expect(new Set(Items.map((item) => item[WRITE_TOKEN])).size).toBe(Items.length);
  });

  it.each([1, 2, 5, 24, 100])('pages the whole table exactly once with limit %i', async (limit) => {
    const { pages } = await walk(limit);
    const ids = pages.flat().map((p) => p.id);
    expect(ids.length).toBe(created.length);
    expect(new Set(ids)).toEqual(new Set(created.map((p) => p.id)));
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
    // No trailing empty page: every page but a lone first one carries pets.
    expect(pages.every((page) => page.length > 0)).toBe(true);
  });

  it.each(['available', 'pending', 'sold'] as const)('lists only %s pets, in id order, each once', async (status) => {
    const expected = created
      .filter((p) => p.status === status)
      .map((p) => p.id)
      .sort((a, b) => a - b);
    for (const limit of [1, 2, expected.length, 100]) {
      const { pages } = await walk(limit, status);
      const ids = pages.flat().map((p) => p.id);
      expect(ids).toEqual(expected);
      expect(pages.flat().every((p) => p.status === status)).toBe(true);
    }
  });

  it('announces no next page when the data ends exactly at the page boundary', async () => {
    const sold = created.filter((p) => p.status === 'sold').length;
    const page = await pets.list({ limit: sold, status: 'sold' });
    expect(page.pets).toHaveLength(sold);
    expect(page.nextAfterId).toBeUndefined();
  });

  it('gives 200 concurrent creates 200 distinct ids', async () => {
    const burst = (
      await Promise.all(Array.from({ length: 200 }, (_, i) => pets.create({ name: `burst ${i}`, categoryId: 1, status: 'pending' })))
    ).map((c) => c.pet);
    expect(new Set(burst.map((p) => p.id)).size).toBe(200);
    const listed = (await walk(100, 'pending')).pages.flat().map((p) => p.id);
    for (const pet of burst) expect(listed).toContain(pet.id);
  });
});

describe('the byStatus index under concurrent creates of one status', () => {
  const CREATES = 240;
  let burst: Pet[] = [];

  beforeAll(async () => {
    burst = (
      await Promise.all(Array.from({ length: CREATES }, (_, i) => pets.create({ name: `spread ${i}`, categoryId: 2, status: 'available' })))
    ).map((c) => c.pet);
  });

  /** How many index entries each shard of `available` holds, read straight from the index. */
  async function perShard(): Promise<number[]> {
    return Promise.all(
      statusShardKeys('available').map(async (key) => {
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: BY_STATUS_INDEX,
            KeyConditionExpression: '#k = :k',
            ExpressionAttributeNames: { '#k': STATUS_SHARD_ATTRIBUTE },
            ExpressionAttributeValues: { ':k': key },
          }),
        );
        for (const item of Items) expect(item.status).toBe('available');
        return Items.length;
      }),
    );
  }

  it(`spreads them over all ${STATUS_SHARDS} index partition keys, none taking more than twice its share`, async () => {
    const counts = await perShard();
    const before = created.filter((p) => p.status === 'available').length;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(CREATES + before);
    // 240 over 12 shards: 20 expected each (σ ≈ 4.3). An empty shard, or one above 40, is a
    // chance below 1e-6: a failure here means the writes do not spread.
    for (const count of counts) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual((2 * (CREATES + before)) / STATUS_SHARDS);
    }
  });

  it.each([3, 20, 100])('walks them across the shards with limit %i: id order, each once, full pages', async (limit) => {
    const expected = [...created.filter((p) => p.status === 'available'), ...burst].map((p) => p.id).sort((a, b) => a - b);
    const { pages } = await walk(limit, 'available');
    expect(pages.flat().map((p) => p.id)).toEqual(expected);
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
    expect(pages).toHaveLength(Math.ceil(expected.length / limit));
  });

  it('misses no pet that existed when a walk began, repeats none, while creates go on', async () => {
    const existing = new Set([...created.filter((p) => p.status === 'available'), ...burst].map((p) => p.id));
    const seen: number[] = [];
    const added: Pet[] = [];
    let afterId: number | undefined;
    do {
      const page = await pets.list({ limit: 25, status: 'available', ...(afterId ? { afterId } : {}) });
      seen.push(...page.pets.map((p) => p.id));
      afterId = page.nextAfterId;
      added.push(
        ...(await Promise.all([1, 2, 3].map((i) => pets.create({ name: `during ${i}`, categoryId: 3, status: 'available' })))).map(
          (c) => c.pet,
        ),
      );
    } while (afterId !== undefined);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    for (const id of existing) expect(seen).toContain(id);
    // Pets created during the walk have later ids, so they come on later pages, not before the cursor.
    expect(seen.length).toBeGreaterThan(existing.size);
  });
});
