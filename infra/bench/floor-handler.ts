/**
 * The floor: the least a function of this service can be. It creates the DynamoDB document client
 * at load and, per invocation, parses a pet with the service's NewPet schema (zod/mini,
 * lib/domain/pet.ts; the body, or a typical pet) and makes the request's one store call
 * (store-calls.ts) on a table of the pets' own fields (floor-table.ts). The benchmark bundles one
 * call's floor at a time (infra/bench/bundles.ts), so a floor holds only its own command.
 */
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
