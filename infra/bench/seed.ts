/**
 * Fills a Pets table directly through the SDK: BatchWriteItem, 25 items a call, a bounded number of calls in flight.
 */
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { WRITE_TOKEN } from '#lib/store/dynamodb-pet-store.ts';
import { STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';

const BATCH = 25;
const STATUSES = ['available', 'pending', 'sold', undefined] as const;

export type SeedItem = (id: number) => Record<string, string | number>;

/** A pet as the service stores it, with a write token of a random UUID's length (a fixed one, for repeatable runs). */
export const seedPet: SeedItem = (id) => {
  const status = STATUSES[id % STATUSES.length];
  return {
    id,
    name: `seed-pet-${id}`,
    categoryId: 1 + (id % 10),
    ...(status ? { status, [STATUS_ORDER_ATTRIBUTE]: statusOrder(id) } : {}),
    [WRITE_TOKEN]: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  };
};

/** The same pet for the floors' table: its own fields only, the least any design stores. */
export const floorSeedPet: SeedItem = (id) => {
  const { [STATUS_ORDER_ATTRIBUTE]: _order, [WRITE_TOKEN]: _token, ...pet } = seedPet(id);
  return pet;
};

export async function seedPets(
  client: DynamoDBDocumentClient,
  tableName: string,
  firstId: number,
  count: number,
  item: SeedItem = seedPet,
  parallel = 8,
): Promise<number[]> {
  const ids = Array.from({ length: count }, (_, i) => firstId + i);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const chunk = ids.slice(next, next + BATCH);
      next += BATCH;
      let requestItems: BatchWriteCommandInput['RequestItems'] = {
        [tableName]: chunk.map((id) => ({ PutRequest: { Item: item(id) } })),
      };
      for (let attempt = 0; requestItems && Object.keys(requestItems).length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
        const output: BatchWriteCommandOutput = await client.send(new BatchWriteCommand({ RequestItems: requestItems }));
        requestItems = output.UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return ids;
}
