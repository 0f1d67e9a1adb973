/**
 * What the suites that treat every operation alike (authentication, store faults, grants) take
 * from an operation's descriptor (lib/operations/): a valid request, and the DynamoDB grants.
 */
export { grantsOf, type OperationRequest, validRequest } from '#lib/operations/operation.ts';
