/** `POST /pets`: add an animal, optionally under an `Idempotency-Key` (functions/create-pet.ts). */
import { MAX_BODY_SIZE } from '../http/errors.ts';
import { idempotencyTable, petsTable } from '../store/tables.ts';
import type { Operation } from './operation.ts';

export const createPet = {
  operationId: 'createPet',
  method: 'POST',
  resource: '/pets',
  functionId: 'create-pet',
  // Conditional PutItem of the pet. With an Idempotency-Key: reserve/read/mark/repoint the record, and
  // read back the pet a retried request already created (lib/store/idempotency.ts).
  tables: {
    [petsTable.logicalName]: { table: ['PutItem', 'GetItem'] },
    [idempotencyTable.logicalName]: { table: ['PutItem', 'GetItem', 'UpdateItem'] },
  },
  summary: 'Add an animal',
  description: 'Stores a new animal; the service assigns its `id`. `Location` gives the URL of the new animal.',
  headers: [
    {
      schema: 'IdempotencyKeyHeader',
      description:
        'Makes the create safe to retry: every request with the same key and the same body creates the animal once ' +
        'and answers with it; the same key with another body is a 422. 1 to 255 visible ASCII characters other than `"` ' +
        '(a UUID, say), bare or as a quoted string; scoped to the API key, remembered for 24 hours.',
      required: false,
    },
  ],
  requestBody: { schema: 'NewPet', description: `The animal to add, as a JSON object of at most ${MAX_BODY_SIZE}.` },
  success: {
    status: 201,
    description: 'Animal added (or, with an `Idempotency-Key` seen before, the animal that key added); the body carries the assigned `id`.',
    schema: 'Pet',
    headers: ['Location', 'IdempotentReplayed'],
  },
  errors: ['idempotency_key_reused'],
} as const satisfies Operation;
