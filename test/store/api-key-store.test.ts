import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, newApiKeyRecord } from '#lib/auth/api-keys.ts';
import { KeyVerifier } from '#lib/auth/key-verifier.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { recordingClient, type TestTables, testTables } from '../support/store-endpoint.ts';

let tables: TestTables;
let keys: DynamoDbApiKeyStore;

beforeAll(async () => {
  tables = await testTables();
  keys = new DynamoDbApiKeyStore(tables.client, tables.tableNames.apiKeys);
});

afterAll(async () => {
  await tables?.close();
});

describe('DynamoDbApiKeyStore', () => {
  it('adds, finds by hash, lists and revokes keys, storing no key in plain text', async () => {
    const key = generateApiKey();
    const record = newApiKeyRecord(key, 'ops');
    await keys.add(record);
    await expect(keys.add(record)).rejects.toThrow(); // never replaces a record
    expect(await keys.findByHash(hashApiKey(key))).toEqual(record);
    expect(await keys.findByHash(hashApiKey(generateApiKey()))).toBeUndefined();

    const listed = await keys.list();
    expect(listed.map((r) => r.keyId)).toContain(record.keyId);
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = await keys.revoke(record.keyId);
    expect(revoked?.revokedAt).toBeDefined();
    expect((await keys.findByHash(record.keyHash))?.revokedAt).toBe(revoked?.revokedAt);
    expect(await keys.revoke('key_unknown')).toBeUndefined();
  });

  it('backs the verifier: a revoked key stops verifying once the cache lapses', async () => {
    const key = generateApiKey();
    const record = newApiKeyRecord(key, 'verify');
    await keys.add(record);
    const verifier = new KeyVerifier(keys, { cacheMs: 0 });
    expect((await verifier.verify(key))?.keyId).toBe(record.keyId);
    await keys.revoke(record.keyId);
    expect(await verifier.verify(key)).toBeUndefined();
  });

  it('looks a key up with a strongly consistent read, so a key works the moment it is created', async () => {
    const { client, sent } = recordingClient(tables.store.endpoint);
    try {
      const store = new DynamoDbApiKeyStore(client, tables.tableNames.apiKeys);
      const record = newApiKeyRecord(generateApiKey(), 'consistent');
      await store.add(record);
      expect(await store.findByHash(record.keyHash)).toEqual(record);
      expect(sent.filter((s) => s.command === 'GetItemCommand').map((s) => s.input)).toEqual([
        { TableName: tables.tableNames.apiKeys, Key: { keyHash: record.keyHash }, ConsistentRead: true },
      ]);
    } finally {
      client.destroy();
    }
  });
});
