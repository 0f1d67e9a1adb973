/** Many clients at once: 200 concurrent creates, each a distinct, readable, listed pet. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { expectJson, expectPet, PET_STATUSES, type Pet, postJson, sortedIds, walkPages } from './helpers.ts';

let api: TestApi;

const COUNT = 200;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('200 concurrent creates', () => {
  let created: Pet[] = [];
  let sent: Array<{ name: string; categoryId: number; status: (typeof PET_STATUSES)[number] }> = [];

  it('all answer 201 with 200 distinct ids and the pets as sent', async () => {
    sent = Array.from({ length: COUNT }, (_, i) => ({
      name: `Concurrent ${i}`,
      categoryId: i + 1,
      status: PET_STATUSES[i % PET_STATUSES.length] as (typeof PET_STATUSES)[number],
    }));
    const responses = await Promise.all(sent.map((body) => postJson(api, body)));
    expect(responses.map((r) => r.status)).toEqual(Array(COUNT).fill(201));
    created = await Promise.all(responses.map(async (res) => expectPet(await expectJson(res, 201))));
    expect(new Set(created.map((p) => p.id)).size).toBe(COUNT);
    for (const [i, pet] of created.entries()) expect(pet).toEqual({ id: pet.id, ...sent[i] });
    // And each got its own Location.
    expect(new Set(responses.map((r) => r.headers.get('location'))).size).toBe(COUNT);
  });

  it('every one is readable by GET', async () => {
    expect(created).toHaveLength(COUNT);
    const reads = await Promise.all(created.map(async (pet) => expectJson<Pet>(await api.request(`/pets/${pet.id}`), 200)));
    expect(reads).toEqual(created);
  });

  it('every one is present exactly once when walking the whole list', async () => {
    expect(created).toHaveLength(COUNT);
    const walk = await walkPages(api, '/pets?limit=100');
    expect(walk.pets).toHaveLength(COUNT);
    expect(sortedIds(walk.pets)).toEqual(sortedIds(created));
    const small = await walkPages(api, '/pets?limit=7');
    expect(sortedIds(small.pets)).toEqual(sortedIds(created));
  });

  it('the status listings partition them', async () => {
    expect(created).toHaveLength(COUNT);
    for (const status of PET_STATUSES) {
      const walk = await walkPages(api, `/pets?status=${status}&limit=13`);
      expect(sortedIds(walk.pets)).toEqual(sortedIds(created.filter((p) => p.status === status)));
    }
  });

  it('concurrent reads of a list page while creating see only well-formed pages', async () => {
    const writes = Array.from({ length: 50 }, (_, i) => postJson(api, { name: `Late ${i}`, categoryId: 1 }));
    const reads = Array.from({ length: 20 }, () => api.request('/pets?limit=100'));
    const [written, read] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    for (const res of written) expect(res.status).toBe(201);
    for (const res of read) {
      const page = await expectJson<unknown[]>(res, 200);
      expect(page.length).toBeGreaterThan(0);
      page.forEach(expectPet);
    }
    await Promise.all(written.map((r) => r.body?.cancel()));
    const total = await walkPages(api, '/pets?limit=100');
    expect(total.pets).toHaveLength(COUNT + 50);
    expect(new Set(total.pets.map((p) => p.id)).size).toBe(COUNT + 50);
  });
});
