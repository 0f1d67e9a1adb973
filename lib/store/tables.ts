/**
 * The one definition of the service's DynamoDB tables. The CDK construct and the local runner both
 * build their tables from this data, so the deployed and the local schema cannot drift apart.
 */

export type KeyType = 'S' | 'N';

export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Logical name: the CDK construct id and the suffix of the physical name. */
  readonly logicalName: string;
  readonly partitionKey: KeyAttribute;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry that DynamoDB TTL deletes, if any. */
  readonly timeToLiveAttribute?: string;
}

export const BY_STATUS_INDEX = 'byStatus';

/**
 * The `byStatus` index is write-sharded: its partition key is `<status>#<shard>`, with the shard
 * derived from the pet's id, so creates of one status spread over STATUS_SHARDS index partitions
 * instead of all writing the end of one (a partition takes about 1,000 write units a second).
 * A status listing queries every shard and merges them by id (docs/scaling.md says why 12).
 */
export const STATUS_SHARD_ATTRIBUTE = 'statusShard';
export const STATUS_SHARDS = 12;

/** The `byStatus` partition key of the pet with this id and status. */
export function statusShardKey(status: string, id: number): string {
  return `${status}#${id % STATUS_SHARDS}`;
}

/** Every `byStatus` partition key of one status, the shards a status listing queries. */
export function statusShardKeys(status: string): string[] {
  return Array.from({ length: STATUS_SHARDS }, (_, shard) => `${status}#${shard}`);
}

/** Pets: only pet items live here, because an unfiltered Scan lists the whole table. */
export const petsTable: TableDefinition = {
  logicalName: 'Pets',
  partitionKey: { name: 'id', type: 'N' },
  // Sparse: pets created without a status have no shard attribute and are absent from it.
  globalSecondaryIndexes: [
    {
      indexName: BY_STATUS_INDEX,
      partitionKey: { name: STATUS_SHARD_ATTRIBUTE, type: 'S' },
      sortKey: { name: 'id', type: 'N' },
    },
  ],
};

/** ApiKeys: one item per issued key, addressed by the SHA-256 hash of the key (never the key). */
export const apiKeysTable: TableDefinition = {
  logicalName: 'ApiKeys',
  partitionKey: { name: 'keyHash', type: 'S' },
  globalSecondaryIndexes: [],
};

/**
 * Idempotency: one item per (API key, Idempotency-Key) of `POST /pets`, holding the id reserved for
 * that create and a hash of its body. DynamoDB's TTL deletes records a day after their creation.
 */
export const idempotencyTable: TableDefinition = {
  logicalName: 'Idempotency',
  partitionKey: { name: 'recordKey', type: 'S' },
  globalSecondaryIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

export const allTables: readonly TableDefinition[] = [petsTable, apiKeysTable, idempotencyTable];
