/**
 * Creates the service's tables on a local endpoint from the shared definitions in
 * lib/store/tables.ts, the same data the CDK app deploys, so the two cannot drift.
 */
import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { allTables, type KeyAttribute, type TableDefinition } from '#lib/store/tables.ts';

export type TableNames = Record<string, string>;

/** Physical names in local mode: the logical names, with an optional prefix (tests use one per suite). */
export function localTableNames(prefix = ''): TableNames {
  return Object.fromEntries(allTables.map((t) => [t.logicalName, `${prefix}${t.logicalName}`]));
}

export function createTableInput(definition: TableDefinition, tableName: string) {
  const attributes = new Map<string, KeyAttribute>();
  const keys = [
    definition.partitionKey,
    ...definition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, ...(i.sortKey ? [i.sortKey] : [])]),
  ];
  for (const key of keys) attributes.set(key.name, key);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes.values()].map((a): AttributeDefinition => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: [{ AttributeName: definition.partitionKey.name, KeyType: 'HASH' as const }],
    ...(definition.globalSecondaryIndexes.length > 0
      ? {
          GlobalSecondaryIndexes: definition.globalSecondaryIndexes.map((index) => ({
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
              ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
            ],
            Projection: { ProjectionType: 'ALL' as const },
          })),
        }
      : {}),
  };
}

/** Creates every table that does not exist yet and waits until all are ACTIVE. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  for (const definition of allTables) {
    const tableName = names[definition.logicalName];
    if (!tableName) throw new Error(`No table name for ${definition.logicalName}`);
    if (await tableExists(client, tableName)) continue;
    try {
      await client.send(new CreateTableCommand(createTableInput(definition, tableName)));
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 0.2, maxDelay: 1 }, { TableName: tableName });
  }
}

async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}
