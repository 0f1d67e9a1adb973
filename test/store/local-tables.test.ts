/** The local store's tables, created from lib/store/tables.ts: again on every start, and never silently from an older schema. */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableInput, ensureTables, localTableNames } from '../../infra/local/create-tables.ts';
import { petsTable } from '#lib/store/tables.ts';
import { type TestStore, testStore } from '../support/store-endpoint.ts';

let store: TestStore;
let client: DynamoDBClient;

beforeAll(async () => {
  store = await testStore();
  client = new DynamoDBClient({
    endpoint: store.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  client?.destroy();
  await store?.close();
});

describe('ensureTables', () => {
  it('creates the tables once and accepts them as they are on the next start', async () => {
    const names = localTableNames(`${store.tablePrefix}same_`);
    await ensureTables(client, names);
    await expect(ensureTables(client, names)).resolves.toBeUndefined();
  });

  it('refuses a Pets table whose byStatus index has another key schema, naming the table and the way out', async () => {
    const names = localTableNames(`${store.tablePrefix}old_`);
    const tableName = names[petsTable.logicalName] as string;
    const current = createTableInput(petsTable, tableName);
    // The index write-sharded: partition key `<status>#<id mod 12>`, sort key id.
    await client.send(
      new CreateTableCommand({
        ...current,
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'N' },
          { AttributeName: 'statusShard', AttributeType: 'S' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byStatus',
            KeySchema: [
              { AttributeName: 'statusShard', KeyType: 'HASH' },
              { AttributeName: 'id', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    const refused = ensureTables(client, names);
    await expect(refused).rejects.toThrow(tableName);
    await expect(refused).rejects.toThrow(
      /byStatus \(statusShard HASH, id RANGE\).*byStatus \(status HASH, statusOrder RANGE\).*data directory/,
    );
  });
});
