/** `GET /pets/{petId}`: one animal by id; deprecated in favour of the status filter (functions/get-pet.ts). */
import { petsTable } from '../store/tables.ts';
import type { Operation } from './operation.ts';

/** Midnight UTC of `day` (`2030-12-05`) as an HTTP date. */
const httpDate = (day: string): string => new Date(`${day}T00:00:00Z`).toUTCString();

export const getPet = {
  operationId: 'getPet',
  method: 'GET',
  resource: '/pets/{petId}',
  functionId: 'get-pet',
  tables: { [petsTable.logicalName]: { table: ['GetItem'] } },
  summary: 'Get an animal (deprecated)',
  description: 'One animal, by its identifier.',
  path: 'PetIdPath',
  success: { status: 200, description: 'The animal.', schema: 'Pet', headers: [] },
  errors: ['not_found'],
  deprecation: { sunset: httpDate('2030-12-05'), successor: '/pets' },
} as const satisfies Operation;
