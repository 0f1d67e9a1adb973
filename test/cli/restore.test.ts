/**
 * The local part of the way back from a restore (docs/operators.md, "Restore"): a stage's tables
 * copied into tables of new names, as a point-in-time restore makes them, and the API started on
 * those tables answers with what was written before, under the same key.
 */
import { paginateScan, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { type LocalStack, openLocalStore, startLocalStack } from '../../infra/local/local-stack.ts';
import { localMode, startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let restored: LocalStack;

beforeAll(async () => {
  api = await startTestApi();
}, 120_000);

afterAll(async () => {
  await restored?.close();
  await api.close();
});

describe('a restore, rehearsed locally', () => {
  it('serves what the old tables held from the restored ones, under the same key', async () => {
    const created = await api.request('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Restored', categoryId: 1, status: 'available' }),
    });
    const pet = (await created.json()) as { id: number };

    // The restore: every table copied, item by item, into a table of a new name.
    const { dynamodbEndpoint, tableNames } = api.stack;
    const target = await openLocalStore({ dynamodbEndpoint, tablePrefix: `restored${Date.now().toString(36)}_` });
    const client = createDocumentClient({ endpoint: dynamodbEndpoint });
    for (const key of ['pets', 'apiKeys', 'idempotency'] as const) {
      for await (const page of paginateScan({ client }, { TableName: tableNames[key] })) {
        for (const item of page.Items ?? []) await client.send(new PutCommand({ TableName: target.tableNames[key], Item: item }));
      }
      expect(target.tableNames[key]).not.toBe(tableNames[key]);
    }
    client.destroy();
    await target.close();

    // The app pointed at the restored tables.
    const prefix = target.tableNames.pets.replace(/Pets$/, '');
    restored = await startLocalStack({ port: 0, dataDir: ':memory:', dynamodbEndpoint, tablePrefix: prefix, ...localMode() });
    const answer = await fetch(`${restored.url}/pets/${pet.id}`, { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: pet.id, name: 'Restored', categoryId: 1, status: 'available' });
  });
});
