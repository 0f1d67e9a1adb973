// The one definition of the tables: the CDK construct and local mode both build from it.
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
  readonly logicalName: string; // construct id and physical-name suffix
  readonly partitionKey: KeyAttribute;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  readonly timeToLiveAttribute?: string;
}

export const BY_STATUS_INDEX = 'byStatus';

// The id's random low bits moved to the top, so a hot status spreads over the sort-key range (docs/scaling.md).
export const STATUS_ORDER_ATTRIBUTE = 'statusOrder';

const LOW_BITS = 2 ** ID_RANDOM_BITS;
const HIGH_BITS = 2 ** (53 - ID_RANDOM_BITS);

/** `(id mod 4096) × 2^41 + floor(id ÷ 4096)`: a bijection of the safe integers, exact in doubles. */
export function statusOrder(id: number): number {
  return (id % LOW_BITS) * HIGH_BITS + Math.floor(id / LOW_BITS);
}

// Only pet items: an unfiltered Scan lists the whole table.
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

// Addressed by the key's SHA-256 hash, never the key.
export const apiKeysTable: TableDefinition = {
  logicalName: 'ApiKeys',
  partitionKey: { name: 'keyHash', type: 'S' },
  globalSecondaryIndexes: [],
};

export const idempotencyTable: TableDefinition = {
  logicalName: 'Idempotency',
  partitionKey: { name: 'recordKey', type: 'S' },
  globalSecondaryIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

export const allTables: readonly TableDefinition[] = [petsTable, apiKeysTable, idempotencyTable];
