/**
 * What the suites that treat every operation alike (authentication, store faults, grants) take
 * from an operation's descriptor (lib/operations/): a valid request, and the DynamoDB grants.
 */
import type { ApiOperation } from '#lib/operations.ts';
import { componentExample } from '../../infra/openapi/schemas.ts';

export { grantsOf } from '#lib/operations/operation.ts';

export interface OperationRequest {
  readonly method: string;
  /** Relative to the base URL (`/pets/1`). */
  readonly path: string;
  /** A JSON body, for an operation that takes one. */
  readonly body?: string;
}

/** `petId` fills the path's `{petId}`; a request body is its schema's example, named `name` if it has a name. */
export function validRequest(operation: ApiOperation, { petId, name }: { petId: number; name: string }): OperationRequest {
  return {
    method: operation.method,
    path: operation.resource.replace('{petId}', String(petId)),
    ...(operation.requestBody ? { body: JSON.stringify(named(componentExample(operation.requestBody.schema), name)) } : {}),
  };
}

const named = (example: unknown, name: string): unknown =>
  typeof example === 'object' && example !== null && 'name' in example ? { ...example, name } : example;
