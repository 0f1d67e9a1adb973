/**
 * The store calls (infra/bench/store-calls.ts) on the service's own table, with the service's document client: what the baseline server
 * answers each operation with, the same store work as the service's.
 */
import { PAGE_FIELDS } from '#lib/store/dynamodb-pet-store.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { BY_STATUS_INDEX, STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';
import type { ApiOperation } from '#lib/operations.ts';
import { type StoreCall, storeCall } from '../scenarios.ts';
import * as calls from '../store-calls.ts';

const CALLS: Record<StoreCall, calls.Call> = calls;

export function bareCalls(
  endpoint: string,
  table: string,
): (operation: ApiOperation, request: calls.StoreRequest) => Promise<calls.StoreResult> {
  const layout: calls.Layout = {
    client: createDocumentClient({ endpoint }),
    table,
    index: BY_STATUS_INDEX,
    page: PAGE_FIELDS,
    stored: (pet) => (pet.status === undefined ? {} : { [STATUS_ORDER_ATTRIBUTE]: statusOrder(pet.id) }),
  };
  const bound = Object.fromEntries(Object.entries(CALLS).map(([kind, call]) => [kind, call(layout)])) as Record<
    StoreCall,
    ReturnType<calls.Call>
  >;
  return (operation, request) => bound[storeCall(operation, request.queryStringParameters?.status ?? '')](request);
}
