/**
 * The FLOOR of the cold-start benchmark: the least a function of this service can be. It creates
 * the DynamoDB document client at module load and makes one GetCommand per invocation. Bundled in
 * the same run with the same esbuild options as the real functions (infra/cdk/bundling.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (): Promise<{ statusCode: number; body: string }> => {
  const { Item } = await client.send(new GetCommand({ TableName: process.env.PETS_TABLE_NAME, Key: { id: 1 } }));
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
};
