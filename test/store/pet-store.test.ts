/** DynamoDbPetStore over the real AWS SDK against the test store (dynalite, or DynamoDB Local). */
import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet, PetStatus } from '#lib/domain/pet.ts';
import { DynamoDbPetStore, WRITE_TOKEN } from '#lib/store/dynamodb-pet-store.ts';
import type { PetStore } from '#lib/store/pet-store.ts';
import { BY_STATUS_INDEX, STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';
import { type TestTables, testTables } from '../support/store-endpoint.ts';

let tables: TestTables;
let client: DynamoDBDocumentClient;
let pets: PetStore;
let tableName: string;
const created: Pet[] = [];

/** The ids of `list` in the order a status listing gives them: by their position in the index. */
const inStatusOrder = (list: readonly Pet[]): number[] => list.map((p) => p.id).sort((a, b) => statusOrder(a) - statusOrder(b));

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
      expect(Object.keys(item).every((k) => ['id', 'name', 'categoryId', 'status', STATUS_ORDER_ATTRIBUTE, WRITE_TOKEN].includes(k))).toBe(
        true,
      );
      expect(item[WRITE_TOKEN]).toMatch(/^[0-9a-f-]{36}$/);
      // The index's sort key is there exactly when the pet has a status (the index stays sparse), derived from the id.
      expect(item[STATUS_ORDER_ATTRIBUTE]).toBe(item.status === undefined ? undefined : statusOrder(item.id));
    }
    expect(new Set(Items.map((item) => item[WRITE_TOKEN])).size).toBe(Items.length);
  });

  it.each([1, 2, 5, 24, 100])('pages the whole table exactly once with limit %i', async (limit) => {
    const { pages } = await walk(limit);
    const ids = pages.flat().map((p) => p.id);
    expect(ids.length).toBe(created.length);
    // Each pet whole: a page names the Pet fields it reads (ProjectionExpression), and no others.
    expect(pages.flat().sort((a, b) => a.id - b.id)).toEqual([...created].sort((a, b) => a.id - b.id));
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
    // No trailing empty page: every page but a lone first one carries pets.
    expect(pages.every((page) => page.length > 0)).toBe(true);
  });

  it.each(['available', 'pending', 'sold'] as const)(
    'lists only %s pets, in the index order, each once, whatever the limit',
    async (status) => {
      const expected = inStatusOrder(created.filter((p) => p.status === status));
      for (const limit of [1, 2, expected.length, 100]) {
        const { pages } = await walk(limit, status);
        const ids = pages.flat().map((p) => p.id);
        expect(ids).toEqual(expected);
        expect(pages.flat()).toEqual(expected.map((id) => created.find((p) => p.id === id)));
      }
    },
  );

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

describe('the byStatus index under a burst of creates of one status', () => {
  const CREATES = 240;
  /** Creates in flight at once: the spread comes from the ids, not from the concurrency. */
  const IN_FLIGHT = 24;
  const burst: Pet[] = [];

  beforeAll(async () => {
    for (let start = 0; start < CREATES; start += IN_FLIGHT) {
      const batch = Array.from({ length: IN_FLIGHT }, (_, i) =>
        pets.create({ name: `spread ${start + i}`, categoryId: 2, status: 'available' }),
      );
      burst.push(...(await Promise.all(batch)).map((c) => c.pet));
    }
  });

  const RANGES = 8;
  /** Which of RANGES equal slices of the sort-key range (0 to 2^53) holds this sort key. */
  const rangeOf = (order: number): number => Math.floor(order / 2 ** (53 - Math.log2(RANGES)));

  it(`spreads them over the whole sort-key range: each of ${RANGES} equal slices takes its share`, async () => {
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: BY_STATUS_INDEX,
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'available' },
      }),
    );
    const burstIds = new Set(burst.map((p) => p.id));
    const counts = Array.from({ length: RANGES }, () => 0);
    for (const item of Items) {
      expect(item.status).toBe('available');
      if (!burstIds.has(item.id)) continue;
      const range = rangeOf(item[STATUS_ORDER_ATTRIBUTE]);
      counts[range] = (counts[range] ?? 0) + 1;
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(CREATES);
    // 240 over 8 slices: 30 expected each (σ ≈ 5.1). An empty slice, or one above 60, is a chance
    // below 1e-6: a failure here means the creates of one status do not spread.
    for (const count of counts) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual((2 * CREATES) / RANGES);
    }
    // The ids themselves, created within a second or so, would all fall in one slice: the end.
    expect(new Set(burst.map((p) => rangeOf(p.id))).size).toBe(1);
  });

  it.each([3, 20, 100])('walks them with limit %i: the index order, each once, full pages', async (limit) => {
    const expected = inStatusOrder([...created.filter((p) => p.status === 'available'), ...burst]);
    const { pages } = await walk(limit, 'available');
    expect(pages.flat().map((p) => p.id)).toEqual(expected);
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
    expect(pages).toHaveLength(Math.ceil(expected.length / limit));
  });

  it('misses no pet that existed when a walk began, repeats none, while creates go on', async () => {
    const existing = new Set([...created.filter((p) => p.status === 'available'), ...burst].map((p) => p.id));
    const seen: number[] = [];
    let afterId: number | undefined;
    do {
      const page = await pets.list({ limit: 25, status: 'available', ...(afterId ? { afterId } : {}) });
      seen.push(...page.pets.map((p) => p.id));
      afterId = page.nextAfterId;
      await Promise.all([1, 2, 3].map((i) => pets.create({ name: `during ${i}`, categoryId: 3, status: 'available' })));
    } while (afterId !== undefined);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(inStatusOrder(seen.map((id) => ({ id, name: '', categoryId: 1 }))));
    // A pet created during the walk lands before or after the cursor: listed then, or on a later walk.
    for (const id of existing) expect(seen).toContain(id);
  });
});
