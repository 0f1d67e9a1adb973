/**
 * The server-side failures a client can meet: the store unreachable (503, then recovery) and a
 * handler failing unexpectedly (500, revealing nothing). Both are provoked by changing the
 * environment the handlers read in this process, so this suite runs in source mode only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#lib/config.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { closedPort, createPet, expectError, expectJson, type Pet, postJson, withEnv } from './helpers.ts';

let api: TestApi;
let pet: Pet;

beforeAll(async () => {
  api = await startTestApi();
  pet = await createPet(api, { name: 'Router', categoryId: 1, status: 'available' });
});

afterAll(async () => {
  await api?.close();
});

describe('server-side failures', () => {
  it('answers 503 service_unavailable with Retry-After when the store cannot be reached, and recovers', async () => {
    const port = await closedPort();
    await withEnv({ [ENV.dynamodbEndpoint]: `http://127.0.0.1:${port}` }, async () => {
      for (const res of [
        await api.request('/pets'),
        await postJson(api, { name: 'Lost', categoryId: 1 }),
        await api.request(`/pets/${pet.id}`),
      ]) {
        const retryAfter = res.headers.get('retry-after');
        if (res.url.includes(`/pets/${pet.id}`)) expect(res.headers.get('deprecation')).toBe('@1767225600');
        const body = await expectError(res, 503, 'service_unavailable', [/retry/i]);
        expect(Number(retryAfter)).toBeGreaterThan(0);
        expect(body.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|dynamo/i);
      }
    });
    // Same handlers, store back: the service answers again, and nothing was written meanwhile.
    const all = await expectJson<Pet[]>(await api.request('/pets?limit=100'), 200);
    expect(all.map((p) => p.name)).not.toContain('Lost');
  });

  it('answers 500 internal_error revealing nothing when a handler fails unexpectedly', async () => {
    // A misconfigured table name: the store answers ResourceNotFoundException, which is a bug, not an outage.
    await withEnv({ [ENV.petsTable]: 'NoSuchTable' }, async () => {
      for (const res of [
        await api.request('/pets'),
        await postJson(api, { name: 'Bug', categoryId: 1 }),
        await api.request(`/pets/${pet.id}`),
      ]) {
        const body = await expectError(res, 500, 'internal_error');
        expect(body.message).not.toMatch(/NoSuchTable|ResourceNotFound|dynamo|table/i);
      }
    });
    expect(await expectJson(await api.request(`/pets/${pet.id}`), 200)).toEqual(pet);
  });
});
