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

/** Pets: only pet items live here, because an unfiltered Scan lists the whole table. */
export const petsTable: TableDefinition = {
  logicalName: 'Pets',
  partitionKey: { name: 'id', type: 'N' },
  // Sparse: pets created without a status have no `status` attribute and are absent from it.
  globalSecondaryIndexes: [
    {
      indexName: BY_STATUS_INDEX,
      partitionKey: { name: 'status', type: 'S' },
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
