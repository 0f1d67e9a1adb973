/** `GET /v1/pets/{petId}` (getPet, deprecated) end to end. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { createPet, expectError, expectJson, expectPet, type Pet } from './helpers.ts';

let api: TestApi;
let withStatus: Pet;
let withoutStatus: Pet;

beforeAll(async () => {
  api = await startTestApi();
  withStatus = await createPet(api, { name: 'Rex', categoryId: 4, status: 'sold' });
  withoutStatus = await createPet(api, { name: 'Nemo', categoryId: 5 });
});

afterAll(async () => {
  await api?.close();
});

/** The three headers that mark every answer of the deprecated getPet. */
function expectDeprecationHeaders(res: Response): void {
  expect(res.headers.get('deprecation')).toBe('@1767225600');
  expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(res.headers.get('link')).toBe(`<${api.url}/pets>; rel="successor-version"`);
}

describe('getPet: 200', () => {
  it('returns the pet as created', async () => {
    const res = await api.request(`/pets/${withStatus.id}`);
    const pet = expectPet(await expectJson(res, 200));
    expect(pet).toEqual({ id: withStatus.id, name: 'Rex', categoryId: 4, status: 'sold' });
    expectDeprecationHeaders(res);
  });

  it('returns a pet created without status without a status key', async () => {
    const res = await api.request(`/pets/${withoutStatus.id}`);
    const pet = await expectJson<Record<string, unknown>>(res, 200);
    expect(pet).toEqual({ id: withoutStatus.id, name: 'Nemo', categoryId: 5 });
    expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name']);
  });

  it('is repeatable: reading twice gives the same pet', async () => {
    const a = await expectJson<Pet>(await api.request(`/pets/${withStatus.id}`), 200);
    const b = await expectJson<Pet>(await api.request(`/pets/${withStatus.id}`), 200);
    expect(a).toEqual(b);
  });
});

describe('getPet: 404', () => {
  it.each([
    ['a small id', '1'],
    ['a large id', '123456789012345'],
    ['the largest safe integer', '9007199254740991'],
  ])('answers 404 not_found for a well-formed id of no pet (%s), naming the id', async (_, id) => {
    const res = await api.request(`/pets/${id}`);
    await expectError(res, 404, 'not_found', [id]);
    expectDeprecationHeaders(res);
  });
});

describe('getPet: 400 for a petId that is not a positive safe integer', () => {
  it.each([
    ['abc', 'abc'],
    ['0', '0'],
    ['-1', '-1'],
    ['1.5', '1.5'],
    ['007 (leading zeros)', '007'],
    ['2^53', '9007199254740992'],
    ['16 nines (above 2^53-1)', '9999999999999999'],
    ['a 20-digit number', '12345678901234567890'],
    ['+1', '%2B1'],
    ['1e3', '1e3'],
    ['0x10', '0x10'],
    ['a space-padded number', '%201'],
  ])('%s → 400 validation_failed naming petId', async (_, id) => {
    const res = await api.request(`/pets/${id}`);
    await expectError(res, 400, 'validation_failed', ['petId']);
    expectDeprecationHeaders(res);
  });
});

describe('getPet: deprecation headers on every answer', () => {
  it('marks a 401 too', async () => {
    const missing = await api.request(`/pets/${withStatus.id}`, { auth: null });
    await expectError(missing, 401, 'unauthorized');
    expectDeprecationHeaders(missing);
    const unknown = await api.request(`/pets/${withStatus.id}`, { auth: generateApiKey() });
    await expectError(unknown, 401, 'unauthorized');
    expectDeprecationHeaders(unknown);
  });

  it('points the successor Link at the list operation, which answers', async () => {
    const res = await api.request(`/pets/${withStatus.id}`);
    await res.body?.cancel();
    const successor = /^<([^>]+)>; rel="successor-version"$/.exec(res.headers.get('link') ?? '')?.[1];
    expect(successor).toBe(`${api.url}/pets`);
    const list = await fetch(`${successor}?status=sold`, { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect((await expectJson<Pet[]>(list, 200)).map((p) => p.id)).toContain(withStatus.id);
  });

  it('does not mark listPets or createPet', async () => {
    const list = await api.request('/pets');
    expect(list.status).toBe(200);
    await list.body?.cancel();
    const created = await api.request('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'New', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    await created.body?.cancel();
    for (const res of [list, created]) {
      expect(res.headers.get('deprecation')).toBeNull();
      expect(res.headers.get('sunset')).toBeNull();
      expect(res.headers.get('link') ?? '').not.toContain('successor-version');
    }
  });
});
