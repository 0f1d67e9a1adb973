/** The floor: the least a function of this service can be. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NewPet } from '../../lib/domain/pet.ts';
import { FLOOR_STATUS_INDEX } from './floor-table.ts';
import type { Call, StoreRequest, StoreResult } from './store-calls.ts';

const TYPICAL = { name: 'Rex', categoryId: 3, status: 'available' };

export function floorHandler(call: Call): (event: StoreRequest) => Promise<StoreResult> {
  // lib/config.ts's ENV.petsTable, named here so the floor carries none of ours but the schema.
  const run = call({
    client: DynamoDBDocumentClient.from(new DynamoDBClient({})),
    table: process.env.PETS_TABLE_NAME,
    index: FLOOR_STATUS_INDEX,
  });
  return async (event) => {
    NewPet.safeParse(event.body ? JSON.parse(event.body) : TYPICAL);
    return run(event);
  };
}
