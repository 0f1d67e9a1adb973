/**
 * The read units of whole status walks through the service's own store (DynamoDbPetStore over the real SDK): every call the store sends
 * asks the store for its consumed capacity (`ReturnConsumedCapacity: TOTAL`), and the walk sums them, so the figure is what DynamoDB
 * would bill for the calls the service makes, page after page, to the end of the listing.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PetStatus } from '#lib/domain/pet.ts';
import { DynamoDbPetStore } from '#lib/store/dynamodb-pet-store.ts';

export interface WalkUnits {
  /** Pets in the table, and of the walked status. */
  readonly tablePets: number;
  readonly statusPets: number;
  readonly limit: number;
  readonly pages: number;
  readonly calls: number;
  readonly readUnits: number;
}

export async function measureStatusWalk(
  endpoint: string,
  tableName: string,
  tablePets: number,
  status: PetStatus,
  limit = 20,
): Promise<WalkUnits> {
  const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let calls = 0;
  let readUnits = 0;
  raw.middlewareStack.add(
    (next) => async (args) => {
      calls += 1;
      const result = await next({ ...args, input: { ...(args.input as object), ReturnConsumedCapacity: 'TOTAL' } });
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits;
      if (consumed === undefined) throw new Error('the store reported no consumed capacity');
      readUnits += consumed;
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  try {
    const store = new DynamoDbPetStore(DynamoDBDocumentClient.from(raw), tableName);
    let pages = 0;
    let statusPets = 0;
    let afterId: number | undefined;
    do {
      const page = await store.list({ limit, status, ...(afterId === undefined ? {} : { afterId }) });
      pages += 1;
      statusPets += page.pets.length;
      afterId = page.nextAfterId;
    } while (afterId !== undefined);
    return { tablePets, statusPets, limit, pages, calls, readUnits };
  } finally {
    raw.destroy();
  }
}
