/**
 * The one definition of the service's DynamoDB tables. The CDK construct and the local runner both
 * build their tables from this data, so the deployed and the local schema cannot drift apart.
 */

import { ID_RANDOM_BITS } from './ids.ts';

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
 * The `byStatus` index is keyed by (`status`, `statusOrder`): one Query reads a page of a status.
 * Its sort key is the pet's id with the id's 12 random low bits moved to the top (ids.ts), so the
 * creates of one status land all over the sort-key range instead of at its end, and DynamoDB can
 * split a hot status over partitions by sort-key range (docs/scaling.md). A status listing comes
 * in this order.
 */
export const STATUS_ORDER_ATTRIBUTE = 'statusOrder';

const LOW_BITS = 2 ** ID_RANDOM_BITS;
const HIGH_BITS = 2 ** (53 - ID_RANDOM_BITS);

/**
 * The pet's position in its status listing: `(id mod 4096) × 2^41 + floor(id ÷ 4096)`. A bijection
 * of the positive safe integers, exact in doubles (every value stays below 2^53), so the position
 * of a pet follows from its id alone and the id from its position.
 */
export function statusOrder(id: number): number {
  return (id % LOW_BITS) * HIGH_BITS + Math.floor(id / LOW_BITS);
}

/** Pets: only pet items live here, because an unfiltered Scan lists the whole table. */
export const petsTable: TableDefinition = {
  logicalName: 'Pets',
  partitionKey: { name: 'id', type: 'N' },
  // Sparse: pets created without a status have neither key attribute and are absent from it.
  globalSecondaryIndexes: [
    {
      indexName: BY_STATUS_INDEX,
      partitionKey: { name: 'status', type: 'S' },
      sortKey: { name: STATUS_ORDER_ATTRIBUTE, type: 'N' },
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
