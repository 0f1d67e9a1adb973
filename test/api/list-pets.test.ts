/** `GET /v1/pets` (listPets) end to end: the array, the status filter and the query rules. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import {
  createPets,
  expectError,
  expectJson,
  expectPet,
  nextLink,
  PET_STATUSES,
  type Pet,
  type Status,
  sortedIds,
  walkPages,
} from './helpers.ts';

let api: TestApi;
let created: Pet[] = [];

/** 25 pets: more than the default page. 7 available, 6 pending, 6 sold, 6 without status. */
const STATUS_CYCLE: ReadonlyArray<Status | undefined> = ['available', 'pending', 'sold', undefined];
const PET_COUNT = 25;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('listPets on an empty store', () => {
  // Runs first: the file's store holds no pet yet.
  it('answers 200 with an empty array and no Link', async () => {
    const res = await api.request('/pets');
    expect(await expectJson(res, 200)).toEqual([]);
    expect(res.headers.get('link')).toBeNull();
  });

  it('answers 200 with an empty array for each status filter', async () => {
    for (const status of PET_STATUSES) expect(await expectJson(await api.request(`/pets?status=${status}`), 200)).toEqual([]);
  });
});

describe('listPets with pets', () => {
  beforeAll(async () => {
    created = await createPets(api, PET_COUNT, (i) => {
      const status = STATUS_CYCLE[i % STATUS_CYCLE.length];
      return { name: `Pet ${i}`, categoryId: 100 + i, ...(status ? { status } : {}) };
    });
  });

  it('answers 200 with an array of Pets that have exactly id, name, categoryId and optionally status', async () => {
    const res = await api.request('/pets?limit=100');
    const pets = await expectJson<unknown[]>(res, 200);
    expect(Array.isArray(pets)).toBe(true);
    expect(pets).toHaveLength(PET_COUNT);
    for (const pet of pets) expectPet(pet);
    // Each listed pet is exactly the pet as created.
    const byId = new Map(created.map((p) => [p.id, p]));
    for (const pet of pets as Pet[]) expect(pet).toEqual(byId.get(pet.id));
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
  });

  it('pages at 20 pets by default', async () => {
    const res = await api.request('/pets');
    expect(await expectJson<Pet[]>(res, 200)).toHaveLength(20);
    const next = nextLink(res);
    expect(next).toBeDefined();
    expect(new URL(next as string).searchParams.get('limit')).toBe('20');
  });

  it('accepts limit=100 and returns every pet on one page, without Link', async () => {
    const res = await api.request('/pets?limit=100');
    expect(sortedIds(await expectJson<Pet[]>(res, 200))).toEqual(sortedIds(created));
    expect(res.headers.get('link')).toBeNull();
  });

  it.each([1, 5, 20, 24, 25])('returns exactly limit=%i pets when at least that many exist', async (limit) => {
    const res = await api.request(`/pets?limit=${limit}`);
    expect(await expectJson<Pet[]>(res, 200)).toHaveLength(limit);
  });

  it.each(PET_STATUSES)('?status=%s returns exactly the pets of that status', async (status) => {
    const res = await api.request(`/pets?status=${status}&limit=100`);
    const pets = await expectJson<Pet[]>(res, 200);
    for (const pet of pets) expect(expectPet(pet).status).toBe(status);
    expect(sortedIds(pets)).toEqual(sortedIds(created.filter((p) => p.status === status)));
  });

  it('?status=sold returns only sold pets', async () => {
    const pets = await expectJson<Pet[]>(await api.request('/pets?status=sold'), 200);
    expect(pets.length).toBeGreaterThan(0);
    expect(new Set(pets.map((p) => p.status))).toEqual(new Set(['sold']));
  });

  it('lists pets without status only in the unfiltered list', async () => {
    const noStatus = created.filter((p) => p.status === undefined);
    expect(noStatus.length).toBeGreaterThan(0);
    const unfiltered = await expectJson<Pet[]>(await api.request('/pets?limit=100'), 200);
    for (const pet of noStatus) {
      const listed = unfiltered.find((p) => p.id === pet.id);
      expect(listed).toEqual({ id: pet.id, name: pet.name, categoryId: pet.categoryId });
      expect(listed && 'status' in listed).toBe(false);
    }
    const filtered = (await Promise.all(PET_STATUSES.map((s) => walkPages(api, `/pets?status=${s}&limit=100`)))).flatMap((w) => w.pets);
    expect(filtered).toHaveLength(PET_COUNT - noStatus.length);
    for (const pet of noStatus) expect(filtered.map((p) => p.id)).not.toContain(pet.id);
  });

  it('combines status and limit', async () => {
    const res = await api.request('/pets?status=pending&limit=2');
    const pets = await expectJson<Pet[]>(res, 200);
    expect(pets).toHaveLength(2);
    for (const pet of pets) expect(pet.status).toBe('pending');
  });
});

describe('listPets: limit', () => {
  it.each([
    ['0', '0'],
    ['101', '101'],
    ['-1', '-1'],
    ['1.5', '1.5'],
    ['abc', 'abc'],
    ['empty', ''],
    ['1000000', '1000000'],
  ])('limit=%s → 400 validation_failed naming limit and its range', async (_, value) => {
    await expectError(await api.request(`/pets?limit=${value}`), 400, 'validation_failed', ['limit', '1', '100']);
  });

  it('limit given twice → 400 validation_failed naming limit', async () => {
    await expectError(await api.request('/pets?limit=1&limit=2'), 400, 'validation_failed', ['limit']);
  });

  it('limit given twice with the same value → 400 too', async () => {
    await expectError(await api.request('/pets?limit=5&limit=5'), 400, 'validation_failed', ['limit']);
  });
});

describe('listPets: status filter', () => {
  it.each([
    ['lost', 'lost'],
    ['empty', ''],
    ['AVAILABLE', 'AVAILABLE'],
    ['Sold', 'Sold'],
  ])('status=%s → 400 validation_failed naming status and its values', async (_, value) => {
    await expectError(await api.request(`/pets?status=${value}`), 400, 'validation_failed', ['status', 'available', 'pending', 'sold']);
  });

  it('status given twice → 400 validation_failed naming status', async () => {
    await expectError(await api.request('/pets?status=sold&status=available'), 400, 'validation_failed', ['status']);
  });
});

describe('listPets: unknown query parameters', () => {
  it.each([
    ['a typo of status', 'stauts=sold', 'stauts'],
    ['a typo of limit', 'limt=5', 'limt'],
    ['an unrelated parameter', 'foo=1', 'foo'],
    ['offset-style paging', 'offset=20', 'offset'],
    ['page-style paging', 'page=2', 'page'],
    ['__proto__', '__proto__=x', '__proto__'],
    ['constructor', 'constructor=x', 'constructor'],
  ])('%s → 400 validation_failed naming the parameter', async (_, query, name) => {
    await expectError(await api.request(`/pets?${query}`), 400, 'validation_failed', [name]);
  });

  it('names the unknown parameter even next to valid ones', async () => {
    await expectError(await api.request('/pets?limit=5&status=sold&stauts=sold'), 400, 'validation_failed', ['stauts']);
  });
});
