/**
 * The single DynamoDB call each route needs and nothing else, shared by the baseline server and the
 * adapter-with-bare-handlers worker so both measure exactly the same store work.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { PAGE_FIELDS } from '#lib/store/dynamodb-pet-store.ts';
import { generatePetId } from '#lib/store/ids.ts';
import { BY_STATUS_INDEX, STATUS_ORDER_ATTRIBUTE, statusOrder } from '#lib/store/tables.ts';

const PAGE = 20;

export function bareCalls(client: DynamoDBDocumentClient, table: string) {
  return {
    /** One Query of the status index, or one Scan, of a page plus one, naming the Pet fields (as the service does). */
    list: async (status: string | null | undefined): Promise<Record<string, unknown>[]> => {
      const { Items = [] } = await client.send(
        status
          ? new QueryCommand({
              TableName: table,
              IndexName: BY_STATUS_INDEX,
              KeyConditionExpression: '#status = :status',
              ...PAGE_FIELDS,
              ExpressionAttributeValues: { ':status': status },
              Limit: PAGE + 1,
            })
          : new ScanCommand({ TableName: table, Limit: PAGE + 1, ...PAGE_FIELDS }),
      );
      return Items.slice(0, PAGE);
    },
    get: async (id: number): Promise<Record<string, unknown> | undefined> =>
      (await client.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }))).Item,
    /** A conditional put, with a new id on the rare collision, as the service does. */
    create: async (body: { status?: string }): Promise<Record<string, unknown>> => {
      for (let attempt = 1; ; attempt++) {
        const pet = { id: generatePetId(), ...body };
        const order = pet.status === undefined ? {} : { [STATUS_ORDER_ATTRIBUTE]: statusOrder(pet.id) };
        try {
          await client.send(
            new PutCommand({ TableName: table, Item: { ...pet, ...order }, ConditionExpression: 'attribute_not_exists(id)' }),
          );
          return pet;
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException) || attempt >= 5) throw error;
        }
      }
    },
  };
}
