/**
 * The floors' own Pets table, the least any design stores: items of a pet's own fields alone, keyed by
 * id, with a `byStatus` index keyed by (`status`, `id`) that projects the others and nothing more. It
 * is defined here, not from lib/store/tables.ts, so a status page's floor stays one Query of it.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const FLOOR_STATUS_INDEX = 'byStatus';

export function floorTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'id', AttributeType: 'N' },
      { AttributeName: 'status', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      {
        IndexName: FLOOR_STATUS_INDEX,
        KeySchema: [
          { AttributeName: 'status', KeyType: 'HASH' },
          { AttributeName: 'id', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['name', 'categoryId'] },
      },
    ],
  };
}
