/**
 * Worker: the local API's node:http adapter (infra/local/api-server.ts: routing, API Gateway proxy
 * event, result back to HTTP) with BARE handlers that make the same single DynamoDB call as the
 * baseline and return its JSON. Between the baseline and the full local API, it tells how much of
 * the difference is the local adapter (API Gateway's job on AWS) and how much the handler chain
 * (what Lambda runs).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type LocalApi, startLocalApi } from '../../../infra/local/api-server.ts';
import { createDocumentClient } from '../../../lib/store/dynamodb-client.ts';
import { generatePetId } from '../../../lib/store/ids.ts';
import { BY_STATUS_INDEX } from '../../../lib/store/tables.ts';
import { serve } from './rpc.ts';

const PAGE = 20;
let api: LocalApi | undefined;

serve(
  {
    start: async (request) => {
      const client = createDocumentClient({ endpoint: request.endpoint as string });
      const table = request.petsTable as string;
      const json = (statusCode: number, body: unknown): APIGatewayProxyResult => ({
        statusCode,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const list = async (event: APIGatewayProxyEvent) => {
        const status = event.queryStringParameters?.status;
        const { Items = [] } = status
          ? await client.send(
              new QueryCommand({
                TableName: table,
                IndexName: BY_STATUS_INDEX,
                KeyConditionExpression: '#status = :status',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':status': status },
                Limit: PAGE + 1,
              }),
            )
          : await client.send(new ScanCommand({ TableName: table, Limit: PAGE + 1 }));
        return json(200, Items.slice(0, PAGE));
      };
      const get = async (event: APIGatewayProxyEvent) => {
        const { Item } = await client.send(new GetCommand({ TableName: table, Key: { id: Number(event.pathParameters?.petId) }, ConsistentRead: true }));
        return Item ? json(200, Item) : json(404, { code: 'not_found' });
      };
      const create = async (event: APIGatewayProxyEvent) => {
        const body = JSON.parse(event.body ?? '{}') as object;
        // A new id on the rare collision, as the service does.
        for (let attempt = 1; ; attempt++) {
          const pet = { id: generatePetId(), ...body };
          try {
            await client.send(new PutCommand({ TableName: table, Item: pet, ConditionExpression: 'attribute_not_exists(id)' }));
            return json(201, pet);
          } catch (error) {
            if (!(error instanceof ConditionalCheckFailedException) || attempt >= 5) throw error;
          }
        }
      };
      api = await startLocalApi({
        port: 0,
        handlers: {
          'list-pets': list,
          'create-pet': create,
          'get-pet': get,
        },
      });
      return api.url;
    },
  },
  async () => api?.close(),
);
