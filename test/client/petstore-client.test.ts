/**
 * The official client (lib/client/) against local mode: keyed creates and their replays, a walk of
 * every page, typed errors, and the waits the retry contract asks, with the store throttled by a
 * fault proxy in front of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { PetStoreClient, PetStoreError } from '#lib/client/petstore-client.ts';
import { ENV } from '#lib/config.ts';
import { reconfigure } from '#lib/services.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let proxy: FaultProxy;
let client: PetStoreClient;

beforeAll(async () => {
  api = await startTestApi();
  proxy = await startFaultProxy(api.stack.dynamodbEndpoint);
  reconfigure({ [ENV.dynamodbEndpoint]: proxy.endpoint });
  client = new PetStoreClient({ baseUrl: api.url, apiKey: api.apiKey });
});

afterAll(async () => {
  await proxy?.close();
  await api?.close();
});

/** The store throttles the pets table's first `times` calls from now on (the SDK makes 3 attempts a request). */
function throttlePets(times: number): void {
  let left = times;
  proxy.decide = (_op, table) => (table === api.stack.tableNames.pets && left-- > 0 ? 'throttle' : 'pass');
}

describe('the official client', () => {
  it('creates a pet once per key: fresh, then replayed, its Location on the API', async () => {
    const first = await client.createPet({ name: 'Client', categoryId: 3 }, 'client-key-1');
    expect(first).toMatchObject({ pet: { name: 'Client', categoryId: 3 }, replayed: false });
    expect(first.location).toBe(`${api.url}/pets/${first.pet.id}`);
    const again = await client.createPet({ name: 'Client', categoryId: 3 }, 'client-key-1');
    expect(again).toEqual({ ...first, replayed: true });
    expect(await client.getPet(first.pet.id)).toEqual(first.pet);
  });

  it("sees the stage's per-client limits on every answer of a function, and no remaining count", async () => {
    const { webAcl } = stageCapacity(readStageSettings('staging', () => undefined));
    const response = await api.request('/pets?limit=1');
    expect(response.headers.get('RateLimit-Policy')).toBe(
      `"per-key";q=${webAcl.perKeyPerMinute};w=60, "per-address";q=${webAcl.perIpPerMinute};w=60`,
    );
    expect(response.headers.get('X-RateLimit-Limit')).toBe(String(webAcl.perKeyPerMinute));
    expect(response.headers.get('RateLimit-Remaining')).toBeNull();
  });

  it('walks every page of a listing, each pet once', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await client.createPet({ name: `Walk ${i}`, categoryId: 9, status: 'pending' })).pet);
    const seen = [];
    for await (const pet of client.pets({ status: 'pending', limit: 2 })) seen.push(pet);
    expect(seen.map((pet) => pet.id).sort()).toEqual(created.map((pet) => pet.id).sort());
  });

  it('throws a typed error with the code, the status and the request id', async () => {
    const error = await client.getPet(987_654_321).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
  });

  it('waits out a 503 as Retry-After asks, then answers; a keyed create is stored once', async () => {
    throttlePets(3);
    const started = performance.now();
    const { pet, replayed } = await client.createPet({ name: 'Patient', categoryId: 4 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(replayed).toBe(false);
    expect((await api.request(`/pets/${pet.id}`)).status).toBe(200);
  });

  it('throws the last answer, with its wait, once the retries are spent or the wait is past the cap', async () => {
    for (const options of [{ retries: 0 }, { maxWaitSeconds: 1 }]) {
      throttlePets(3);
      const impatient = new PetStoreClient({ baseUrl: api.url, apiKey: api.apiKey, ...options });
      const error = await impatient.getPet(1).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 503, code: 'service_unavailable', retryAfterSeconds: 2 });
    }
  });
});
