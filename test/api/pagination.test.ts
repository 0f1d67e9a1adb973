/**
 * Paging through `GET /v1/pets`: the opaque `cursor`, the `Link: <…>; rel="next"` header, and a
 * complete walk that sees every pet exactly once, with and without a status filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOrder } from '#lib/store/tables.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { createPets, expectError, expectJson, nextLink, PET_STATUSES, type Pet, type Status, sortedIds, walkPages } from './helpers.ts';

let api: TestApi;
let pets: Pet[] = [];

/** 29 pets: 10 available, 7 pending, 6 sold (an exact multiple of 2 and 3), 6 without status. */
const PLAN: ReadonlyArray<[Status | undefined, number]> = [
  ['available', 10],
  ['pending', 7],
  ['sold', 6],
  [undefined, 6],
];

beforeAll(async () => {
  api = await startTestApi();
  const statuses = PLAN.flatMap(([status, count]) => Array.from({ length: count }, () => status));
  pets = await createPets(api, statuses.length, (i) => {
    const status = statuses[i];
    return { name: `Paged ${i}`, categoryId: i + 1, ...(status ? { status } : {}) };
  });
});

afterAll(async () => {
  await api?.close();
});

const expected = (status: Status | undefined): Pet[] => (status === undefined ? pets : pets.filter((p) => p.status === status));

/** The cursor of the first page's next link for `query`. */
async function firstCursor(query: string): Promise<string> {
  const res = await api.request(`/pets?${query}`);
  await expectJson(res, 200);
  const next = nextLink(res);
  expect(next, `a next link for ${query}`).toBeDefined();
  const cursor = new URL(next as string).searchParams.get('cursor');
  expect(cursor).toBeTruthy();
  return cursor as string;
}

const listWith = (params: Record<string, string>): Promise<Response> => api.request(`/pets?${new URLSearchParams(params)}`);

describe('walking every page', () => {
  const cases = [1, 2, 7].flatMap((limit) => [undefined, ...PET_STATUSES].map((status) => [limit, status] as const));

  it.each(cases)('limit=%i, status=%s: every pet exactly once, full pages until the last', async (limit, status) => {
    const query = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}) });
    const walk = await walkPages(api, `/pets?${query}`);
    const want = expected(status);

    // Count and set of ids: nothing missed, nothing repeated.
    expect(walk.pets).toHaveLength(want.length);
    expect(new Set(walk.pets.map((p) => p.id)).size).toBe(want.length);
    expect(sortedIds(walk.pets)).toEqual(sortedIds(want));
    if (status) for (const pet of walk.pets) expect(pet.status).toBe(status);

    // Every page but the last is full; the last is not empty; the page count is minimal.
    expect(walk.pages).toHaveLength(Math.ceil(want.length / limit));
    for (const page of walk.pages.slice(0, -1)) expect(page).toHaveLength(limit);
    expect(walk.pages.at(-1)?.length).toBeGreaterThan(0);

    // Each Link is absolute on this API, and keeps limit and status.
    expect(walk.links).toHaveLength(walk.pages.length - 1);
    for (const link of walk.links) {
      expect(link.startsWith(`${api.url}/pets?`)).toBe(true);
      const params = new URL(link).searchParams;
      expect(params.get('limit')).toBe(String(limit));
      expect(params.get('status')).toBe(status ?? null);
      expect(params.get('cursor')).toBeTruthy();
      expect([...params.keys()].sort()).toEqual(status ? ['cursor', 'limit', 'status'] : ['cursor', 'limit']);
    }
  });

  it('walks with the default limit: pages of 20, the Link keeping limit=20', async () => {
    const walk = await walkPages(api, '/pets');
    expect(sortedIds(walk.pets)).toEqual(sortedIds(pets));
    expect(walk.pages.map((p) => p.length)).toEqual([20, pets.length - 20]);
    expect(new URL(walk.links[0] as string).searchParams.get('limit')).toBe('20');
  });

  it('has no Link on a last page that ends exactly at the end of the data', async () => {
    // 6 sold pets: limit 6 is one full page, limit 3 two full pages, and no empty page follows.
    const one = await listWith({ status: 'sold', limit: '6' });
    expect(await expectJson<Pet[]>(one, 200)).toHaveLength(6);
    expect(one.headers.get('link')).toBeNull();
    const walk = await walkPages(api, '/pets?status=sold&limit=3');
    expect(walk.pages.map((p) => p.length)).toEqual([3, 3]);
  });

  it('has no Link when everything fits on the first page', async () => {
    const res = await listWith({ limit: '100' });
    expect(await expectJson<Pet[]>(res, 200)).toHaveLength(pets.length);
    expect(res.headers.get('link')).toBeNull();
  });

  it('the cursor is opaque: it does not show a pet id or the status in plain text', async () => {
    const cursor = await firstCursor('status=sold&limit=2');
    const firstPage = await expectJson<Pet[]>(await listWith({ status: 'sold', limit: '2' }), 200);
    expect(cursor).not.toContain(String(firstPage.at(-1)?.id));
    expect(cursor).not.toContain('sold');
  });
});

describe('refused cursors', () => {
  it('a forged cursor (one character changed) → 400 invalid_cursor', async () => {
    const cursor = await firstCursor('limit=2');
    const swap = (c: string): string => (c === 'A' ? 'B' : 'A');
    for (const at of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const forged = cursor.slice(0, at) + swap(cursor[at] as string) + cursor.slice(at + 1);
      expect(forged).not.toBe(cursor);
      await expectError(await listWith({ limit: '2', cursor: forged }), 400, 'invalid_cursor', ['cursor']);
    }
  });

  it('a truncated cursor → 400 invalid_cursor', async () => {
    const cursor = await firstCursor('limit=2');
    for (const cut of [cursor.slice(0, -1), cursor.slice(0, Math.floor(cursor.length / 2)), cursor.slice(1)]) {
      await expectError(await listWith({ limit: '2', cursor: cut }), 400, 'invalid_cursor', ['cursor']);
    }
  });

  it.each([
    ['garbage', 'garbage'],
    ['a number', '12345'],
    ['a dot', '.'],
    ['JSON', '{"a":1}'],
  ])('a made-up cursor (%s) → 400 invalid_cursor', async (_, cursor) => {
    await expectError(await listWith({ cursor }), 400, 'invalid_cursor', ['cursor']);
  });

  it('an empty cursor= → 400 validation_failed naming cursor', async () => {
    await expectError(await api.request('/pets?cursor='), 400, 'validation_failed', ['cursor']);
  });

  it('a cursor longer than the documented 128 characters → 400 validation_failed naming cursor and the bound', async () => {
    const cursor = await firstCursor('limit=2');
    await expectError(await listWith({ cursor: `${cursor}${'A'.repeat(129 - cursor.length)}` }), 400, 'validation_failed', [
      'cursor',
      '128',
    ]);
  });

  it('a cursor given twice → 400', async () => {
    const cursor = await firstCursor('limit=2');
    const res = await api.request(`/pets?limit=2&cursor=${encodeURIComponent(cursor)}&cursor=${encodeURIComponent(cursor)}`);
    await expectError(res, 400, 'validation_failed', ['cursor']);
  });

  it('a cursor from a status=sold listing used with status=available → 400 invalid_cursor', async () => {
    const cursor = await firstCursor('status=sold&limit=2');
    // It works where it was issued.
    expect(await expectJson<Pet[]>(await listWith({ status: 'sold', limit: '2', cursor }), 200)).toHaveLength(2);
    await expectError(await listWith({ status: 'available', limit: '2', cursor }), 400, 'invalid_cursor', ['cursor']);
  });

  it('a cursor from a status=sold listing used without status → 400 invalid_cursor', async () => {
    const cursor = await firstCursor('status=sold&limit=2');
    await expectError(await listWith({ limit: '2', cursor }), 400, 'invalid_cursor', ['cursor']);
  });

  it('a cursor from the unfiltered listing used with a status → 400 invalid_cursor', async () => {
    const cursor = await firstCursor('limit=2');
    await expectError(await listWith({ status: 'sold', limit: '2', cursor }), 400, 'invalid_cursor', ['cursor']);
  });
});

describe('a status walk over many pets, spread across the index', () => {
  let many: TestApi;
  let available: Pet[] = [];

  beforeAll(async () => {
    many = await startTestApi();
    available = await createPets(many, 90, (i) => ({ name: `Many ${i}`, categoryId: 1, status: 'available' }), 15);
  });

  afterAll(async () => {
    await many?.close();
  });

  /** The documented order of a status listing (docs/behaviour.md): by each id's `statusOrder`. */
  const inListingOrder = (list: readonly Pet[]): number[] => list.map((p) => p.id).sort((a, b) => statusOrder(a) - statusOrder(b));

  it.each([4, 25, 100])('limit=%i: every pet once, in the listing order, full pages until the last', async (limit) => {
    const walk = await walkPages(many, `/pets?status=available&limit=${limit}`);
    expect(walk.pets.map((p) => p.id)).toEqual(inListingOrder(available));
    expect(walk.pages).toHaveLength(Math.ceil(available.length / limit));
    for (const page of walk.pages.slice(0, -1)) expect(page).toHaveLength(limit);
  });

  it('gives the same order on every walk, whatever the limit, and it is not creation order', async () => {
    const orders = await Promise.all(
      [1, 7, 30].map(async (limit) => (await walkPages(many, `/pets?status=available&limit=${limit}`)).pets),
    );
    for (const order of orders) expect(order.map((p) => p.id)).toEqual(orders[0]?.map((p) => p.id));
    // 90 pets in creation order by chance: 1 in 90!. Clients must not rely on either order.
    expect(orders[0]?.map((p) => p.id)).not.toEqual(sortedIds(available));
  });

  it('misses no pet that existed when the walk began, and repeats none, while creates go on', async () => {
    const seen: Pet[] = [];
    let next: string | undefined = `${many.url}/pets?status=available&limit=10`;
    while (next) {
      const res: Response = await fetch(next, { headers: { authorization: `Bearer ${many.apiKey}` } });
      seen.push(...(await expectJson<Pet[]>(res, 200)));
      next = nextLink(res);
      await createPets(many, 3, (i) => ({ name: `During ${i}`, categoryId: 2, status: 'available' }));
    }
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    for (const pet of available) expect(seen.map((p) => p.id)).toContain(pet.id);
  });
});
