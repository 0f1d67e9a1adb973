/**
 * The SDK + zod floor: the SDK-only floor (infra/bench/floor-handler.ts) plus the service's NewPet
 * schema (zod/mini, lib/domain/pet.ts) parsed once per invocation: the body for a create, a
 * typical pet otherwise. Against it, a function's import and first invocation are read net of
 * the validator the design chose.
 */
import { NewPet } from '../../lib/domain/pet.ts';
import * as floor from './floor-handler.ts';

const TYPICAL = { name: 'Rex', categoryId: 3, status: 'available' };

const parsed = (event: floor.FloorEvent): boolean => NewPet.safeParse(event.body ? JSON.parse(event.body) : TYPICAL).success;

const withSchema =
  (operation: (event: floor.FloorEvent) => Promise<floor.FloorResult>) =>
  async (event: floor.FloorEvent): Promise<floor.FloorResult> =>
    parsed(event) ? operation(event) : { statusCode: 400, body: '{}' };

// Pure: a bundle of one operation drops the others.
export const get = /* @__PURE__ */ withSchema(floor.get);
export const list = /* @__PURE__ */ withSchema(floor.list);
export const create = /* @__PURE__ */ withSchema(floor.create);
