/**
 * The floors' own Pets table: keyed by id, with a `byStatus` index keyed by (`status`, `id`), the
 * plainest index a status page can read. It is defined here, not from lib/store/tables.ts, so the
 * floor of a status page stays one Query on such an index whatever key schema the service uses.
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
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}
