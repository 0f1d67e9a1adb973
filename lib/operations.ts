/**
 * Every operation of the API, one descriptor each (lib/operations/operation.ts says what one
 * holds), in the order the OpenAPI document lists them. Adding one: docs/adding-an-operation.md.
 */
import { createPet } from './operations/create-pet.ts';
import { getPet } from './operations/get-pet.ts';
import { listPets } from './operations/list-pets.ts';
import type { Operation } from './operations/operation.ts';

const OPERATIONS = [listPets, createPet, getPet] as const;

/** The operationIds of the API. */
export type OperationId = (typeof OPERATIONS)[number]['operationId'];
/** A function under `functions/` that answers an operation (`list-pets`), as opposed to its deployed name. */
export type FunctionId = (typeof OPERATIONS)[number]['functionId'];

/** An operation, with its ids narrowed to the API's. */
export interface ApiOperation extends Operation {
  readonly operationId: OperationId;
  readonly functionId: FunctionId;
}

export const operations: readonly ApiOperation[] = OPERATIONS;

/** The function of each operation, in operation order. */
export const functionIds: readonly FunctionId[] = operations.map((o) => o.functionId);
