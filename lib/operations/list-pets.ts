/** `GET /pets`: a page of animals, optionally filtered by availability status (functions/list-pets.ts). */
import { BY_STATUS_INDEX, petsTable } from '../store/tables.ts';
import type { Operation } from './operation.ts';

export const listPets = {
  operationId: 'listPets',
  method: 'GET',
  resource: '/pets',
  functionId: 'list-pets',
  // Scan for the unfiltered list, Query on the status index for `?status=`.
  tables: { [petsTable.logicalName]: { table: ['Scan'], indexes: { [BY_STATUS_INDEX]: ['Query'] } } },
  summary: 'List animals',
  description:
    'A page of animals, optionally filtered by availability status. Neither listing is in creation order: with `status` ' +
    'the animals come in a fixed order of their own, the same on every walk whatever the `limit`; without it, in no ' +
    'particular order. Following the pages gives no animal twice, and every animal that existed when the walk began and ' +
    'was neither deleted nor given another status during it; one changed during the walk comes as its page found it, and ' +
    'with `status` one whose status changed may come or not. One written a moment before may not be listed yet. When more follow, the `Link` header with `rel="next"` gives the URL ' +
    'of the next page (it keeps `limit` and `status` and adds the opaque `cursor`); the last page has no such header.',
  query: 'ListPetsQuery',
  success: { status: 200, description: 'A page of animals (possibly empty).', schema: 'Pets', headers: ['NextPageLink'] },
  errors: ['invalid_cursor'],
} as const satisfies Operation;
