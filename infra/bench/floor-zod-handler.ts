/**
 * The FLOOR plus the service's zod schemas: the same client and GetCommand, with the request
 * schemas every function imports (lib/domain) built at load and one path parameter validated per
 * invocation, as getPet does. Against the FLOOR it measures what zod alone costs a cold start, so
 * the import and first-invocation targets can be read net of the validator the design chose.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { integerText, PetIdPath } from '../../lib/domain/requests.ts';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pathParameters?: Record<string, string> | null }): Promise<{ statusCode: number; body: string }> => {
  const parsed = PetIdPath.safeParse({ petId: integerText(event.pathParameters?.petId ?? '') });
  if (!parsed.success) return { statusCode: 400, body: '{}' };
  const { Item } = await client.send(new GetCommand({ TableName: process.env.PETS_TABLE_NAME, Key: { id: parsed.data.petId } }));
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
};
