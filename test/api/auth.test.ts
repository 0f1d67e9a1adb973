/**
 * Bearer authentication end to end, on every operation: what is refused with 401, that
 * the refusal says nothing about why a key is not usable, and what is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as keysCli } from '../../infra/cli/keys.ts';
import { generateApiKey, newApiKeyRecord } from '#lib/auth/api-keys.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { type OperationId, operations } from '#lib/operations.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { type OperationRequest, validRequest } from '../support/operations.ts';
import { createPet, expectError, expectJson, expectPet, type Pet, rawError, rawRequest, walkPages } from './helpers.ts';

let api: TestApi;
let client: ReturnType<typeof createDocumentClient> | undefined;
let pet: Pet;
/** Keys that exist in the ApiKeys table but must not work; none is ever used before it is set up. */
const revokedKey = generateApiKey();
const expiredKey = generateApiKey();
/** A key that expires in the future: usable. */
const futureKey = generateApiKey();

const DAY_MS = 86_400_000;

beforeAll(async () => {
  api = await startTestApi();
  client = createDocumentClient({ endpoint: api.stack.dynamodbEndpoint });
  const keys = new DynamoDbApiKeyStore(client, api.stack.tableNames.apiKeys);
  const now = Date.now();
  await keys.add(newApiKeyRecord(expiredKey, 'expired', { now: new Date(now - 2 * DAY_MS), expiresAt: new Date(now - DAY_MS) }));
  const revoked = newApiKeyRecord(revokedKey, 'revoked');
  await keys.add(revoked);
  // Revoked before its first use: the verifier's per-process cache never saw it usable.
  expect((await keys.revoke(revoked.keyId))?.revokedAt).toBeTruthy();
  await keys.add(newApiKeyRecord(futureKey, 'future', { expiresAt: new Date(now + DAY_MS) }));
  pet = await createPet(api, { name: 'Guarded', categoryId: 1, status: 'available' });
});

afterAll(async () => {
  client?.destroy();
  await api?.close();
});

const OPERATIONS: readonly OperationId[] = operations.map((o) => o.operationId);

/** A valid request of an operation, on the pet set up above. */
function requestOf(operationId: OperationId, name: string): OperationRequest {
  const operation = operations.find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`No operation ${operationId}`);
  return validRequest(operation, { petId: pet.id, name });
}

/** Calls an operation with a valid request, and `authorization` exactly as given (null: none). */
function call(operationId: OperationId, authorization: string | null): Promise<Response> {
  const { method, path, body } = requestOf(operationId, 'Intruder');
  const headers = new Headers();
  if (authorization !== null) headers.set('authorization', authorization);
  if (body !== undefined) headers.set('content-type', 'application/json');
  return api.request(path, { method, headers, auth: null, ...(body !== undefined ? { body } : {}) });
}

async function expectUnauthorized(res: Response): Promise<{ body: string; challenge: string }> {
  const challenge = res.headers.get('www-authenticate');
  const clone = res.clone();
  await expectError(res, 401, 'unauthorized', [/Authorization: Bearer|API key/]);
  expect(challenge, 'WWW-Authenticate header').toBeTruthy();
  expect(challenge as string).toMatch(/^Bearer(?:\s|$)/);
  return { body: await clone.text(), challenge: challenge as string };
}

const refused: ReadonlyArray<[string, () => string | null]> = [
  ['no Authorization header', () => null],
  ['the Basic scheme', () => 'Basic xyz'],
  ['Basic with credentials', () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
  ['the Token scheme with the real key', () => `Token ${api.apiKey}`],
  ['the bare key without a scheme', () => api.apiKey],
  ['an empty bearer token ("Bearer ")', () => 'Bearer '],
  ['the scheme alone ("Bearer")', () => 'Bearer'],
  ['an unknown well-formed key', () => `Bearer ${generateApiKey()}`],
  ['a garbage token', () => 'Bearer not-a-key'],
  ['the key with a character changed', () => `Bearer ${api.apiKey.slice(0, -1)}${api.apiKey.endsWith('A') ? 'B' : 'A'}`],
  ['the key truncated', () => `Bearer ${api.apiKey.slice(0, -1)}`],
  ['the key followed by another word', () => `Bearer ${api.apiKey} extra`],
  ['a revoked key', () => `Bearer ${revokedKey}`],
  ['an expired key', () => `Bearer ${expiredKey}`],
  ['an expired key with a lowercase scheme', () => `bearer ${expiredKey}`],
  // Only spaces separate the scheme from the key, and nothing but the key follows it.
  ['a tab between the scheme and the key', () => `Bearer\t${api.apiKey}`],
  ['a no-break space between the scheme and the key', () => `Bearer\u00a0${api.apiKey}`],
  ['a no-break space before the scheme', () => `\u00a0Bearer ${api.apiKey}`],
  ['a no-break space after the key', () => `Bearer ${api.apiKey}\u00a0`],
];

describe.each(OPERATIONS)('%s refuses with 401 unauthorized and a Bearer challenge', (operation) => {
  it.each(refused)('%s', async (_, authorization) => {
    await expectUnauthorized(await call(operation, authorization()));
  });
});

describe('an overlong Authorization header', () => {
  it.each(OPERATIONS)('%s refuses 8 KiB of spaces before the key with the usual 401, without matching it', async (operation) => {
    const res = await call(operation, `Bearer${' '.repeat(8 * 1024)}${api.apiKey}`);
    const { body } = await expectUnauthorized(res);
    expect(JSON.parse(body)).toEqual({
      code: 'unauthorized',
      message: expect.stringMatching(
        /^Authorization header longer than \d+ characters: send the API key as "Authorization: Bearer <API_KEY>"\.$/,
      ),
      status: 401,
    });
  });
});

describe('ambiguous credentials', () => {
  it.each(OPERATIONS)('%s refuses two Authorization headers, even when one holds the valid key', async (operation) => {
    const { method, path, body } = requestOf(operation, 'Twice');
    for (const pair of [
      [`Bearer ${api.apiKey}`, `Bearer ${generateApiKey()}`],
      [`Bearer ${generateApiKey()}`, `Bearer ${api.apiKey}`],
      [`Bearer ${api.apiKey}`, `Bearer ${api.apiKey}`],
    ]) {
      const res = await rawRequest(`${api.url}${path}`, {
        method,
        headers: [
          ['Authorization', pair[0] as string],
          ['authorization', pair[1] as string],
          ['Content-Type', 'application/json'],
        ],
        ...(body ? { body } : {}),
      });
      expect(rawError(res, 401, 'unauthorized').message).toMatch(/exactly one/);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    }
  });
});

describe('no oracle', () => {
  it.each(OPERATIONS)('%s: unknown, revoked and expired keys get the identical 401', async (operation) => {
    const unknown = await expectUnauthorized(await call(operation, `Bearer ${generateApiKey()}`));
    const revoked = await expectUnauthorized(await call(operation, `Bearer ${revokedKey}`));
    const expired = await expectUnauthorized(await call(operation, `Bearer ${expiredKey}`));
    expect(revoked).toEqual(unknown);
    expect(expired).toEqual(unknown);
    // And the message does not say which of the three it was.
    const { message } = JSON.parse(unknown.body) as { message: string };
    expect(message).not.toMatch(/\b(?:has been revoked|has expired|does not exist|not found)\b/i);
  });
});

describe('never succeeds without a usable key', () => {
  it('stores nothing when createPet is refused', async () => {
    for (const authorization of [null, `Bearer ${generateApiKey()}`, `Bearer ${revokedKey}`, `Bearer ${expiredKey}`]) {
      await expectUnauthorized(await call('createPet', authorization));
    }
    const { pets } = await walkPages(api, '/pets?limit=100');
    expect(pets.map((p) => p.name)).not.toContain('Intruder');
  });

  it('answers 401, not a validation error, to an unauthenticated request with bad input', async () => {
    await expectUnauthorized(await api.request('/pets?limit=abc', { auth: null }));
    await expectUnauthorized(await api.request('/pets/abc', { auth: null }));
    await expectUnauthorized(await api.request('/pets/1', { auth: generateApiKey() }));
    await expectUnauthorized(
      await api.request('/pets', { method: 'POST', auth: null, headers: { 'content-type': 'text/plain' }, body: 'nope' }),
    );
  });
});

describe('accepted credentials', () => {
  it.each([
    ['Bearer <key>', (key: string) => `Bearer ${key}`],
    ['bearer <key>', (key: string) => `bearer ${key}`],
    ['BEARER <key>', (key: string) => `BEARER ${key}`],
    ['bEaReR <key>', (key: string) => `bEaReR ${key}`],
    ['Bearer, three spaces, <key>', (key: string) => `Bearer   ${key}`],
  ])('%s works on every operation', async (_, authorization) => {
    const list = await call('listPets', authorization(api.apiKey));
    expect(Array.isArray(await expectJson(list, 200))).toBe(true);
    const created = await call('createPet', authorization(api.apiKey));
    expectPet(await expectJson(created, 201));
    const read = await call('getPet', authorization(api.apiKey));
    expect(await expectJson(read, 200)).toEqual(pet);
  });

  it('a key works on the very next request after `npm run keys -- create` returns', async () => {
    const out: string[] = [];
    const target = ['--endpoint', api.stack.dynamodbEndpoint, '--table', api.stack.tableNames.apiKeys];
    expect(await keysCli(['create', '--label', 'just made', ...target], (line) => out.push(line))).toBe(0);
    const key = /^psk_[A-Za-z0-9_-]{32}$/m.exec(out.join('\n'))?.[0];
    expect(key).toBeDefined();
    expect(Array.isArray(await expectJson(await call('listPets', `Bearer ${key}`), 200))).toBe(true);
  });

  it('a key whose expiry is still in the future works', async () => {
    expect(await expectJson(await call('getPet', `Bearer ${futureKey}`), 200)).toEqual(pet);
  });

  it("the helper's other-token option is refused too", async () => {
    await expectUnauthorized(await api.request('/pets', { auth: 'other' }));
  });
});
