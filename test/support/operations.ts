/**
 * What the suites that treat every operation alike (authentication, store faults, grants) take
 * from an operation's descriptor (lib/operations/): a valid request, and the DynamoDB grants.
 */
import type { ApiOperation } from '#lib/operations.ts';

export { grantsOf } from '#lib/operations/operation.ts';

export interface OperationRequest {
  readonly method: string;
  /** Relative to the base URL (`/pets/1`). */
  readonly path: string;
  /** A JSON body, for an operation that takes one. */
  readonly body?: string;
}

/** `petId` fills the path's `{petId}`; an operation with a request body gets a new pet named `name`. */
export function validRequest(operation: ApiOperation, { petId, name }: { petId: number; name: string }): OperationRequest {
  return {
    method: operation.method,
    path: operation.resource.replace('{petId}', String(petId)),
    ...(operation.requestBody ? { body: JSON.stringify({ name, categoryId: 1 }) } : {}),
  };
}
