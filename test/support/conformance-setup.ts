/**
 * Global setup of `npm run test:conformance`: one AWS DynamoDB Local for the whole run, handed to
 * the store and API suites as `dynamodbEndpoint` (see store-endpoint.ts), stopped at the end.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from './dynamodb-local.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamodb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
