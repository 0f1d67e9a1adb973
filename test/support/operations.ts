/**
 * What the suites that treat every operation alike (authentication, store faults, grants) take
 * from an operation's descriptor (lib/operations/): a valid request, and the DynamoDB grants.
 */
export { grantsOf } from '#lib/operations/operation.ts';
export { type OperationRequest, validRequest } from '../../infra/openapi/schemas.ts';
