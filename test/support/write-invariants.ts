/** What every write keeps of a stored pet item (docs/data-model.md#what-every-write-keeps), checked on the item before and after one. */
import { expect } from 'vitest';
import { WRITE_TOKEN } from '#lib/store/dynamodb-pet-store.ts';
const RECORD_KEY = 'recordKey';
import { STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';

export function expectWriteKept(before: Record<string, unknown>, after: Record<string, unknown> | undefined): void {
  if (after === undefined) return;
  expect(after.id).toBe(before.id);
  expect(after[WRITE_TOKEN], 'the create’s write token').toBe(before[WRITE_TOKEN]);
  expect(after[RECORD_KEY], 'the create’s idempotency record key').toBe(before[RECORD_KEY]);
  if (after.status !== undefined)
    expect(after[STATUS_ORDER_ATTRIBUTE], 'the status index’s sort key').toBe(statusOrder(after.id as number));
}
