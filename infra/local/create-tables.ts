import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
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

// A table with other keys than its definition is an error: DynamoDB cannot change a key schema in place.
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  for (const definition of allTables) {
    const tableName = names[definition.logicalName];
    if (!tableName) throw new Error(`No table name for ${definition.logicalName}`);
    const existing = await describeTable(client, tableName);
    if (existing) {
      const want = keySchemas(createTableInput(definition, tableName));
      const have = keySchemas(existing);
      if (have !== want) {
        throw new Error(
          `Table ${tableName} exists with another key schema than lib/store/tables.ts defines (has ${have}, wants ${want}). ` +
            'Delete the local data directory (PETSTORE_DATA_DIR, default .data) or the table, and start again.',
        );
      }
      continue;
    }
    try {
      await client.send(new CreateTableCommand(createTableInput(definition, tableName)));
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 0.2, maxDelay: 1 }, { TableName: tableName });
  }
}

interface KeySchemas {
  readonly KeySchema?: readonly KeySchemaElement[];
  readonly GlobalSecondaryIndexes?: readonly { readonly IndexName?: string; readonly KeySchema?: readonly KeySchemaElement[] }[];
}

function keySchemas(table: KeySchemas): string {
  const keys = (schema: readonly KeySchemaElement[] = []) => schema.map((k) => `${k.AttributeName} ${k.KeyType}`).join(', ');
  const indexes = (table.GlobalSecondaryIndexes ?? []).map((i) => `${i.IndexName} (${keys(i.KeySchema)})`).sort();
  return [`(${keys(table.KeySchema)})`, ...indexes].join(' + ');
}

async function describeTable(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}
