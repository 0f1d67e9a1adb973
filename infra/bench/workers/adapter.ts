/**
 * Worker: the local API (infra/local/api-server.ts and the template-driven gateway: routing, API
 * Gateway proxy event, result back to HTTP) with BARE handlers that make the same single DynamoDB call as the
 * baseline and return its JSON. Between the baseline and the full local API, it tells how much of
 * the difference is the local adapter (API Gateway's job on AWS) and how much the handler chain
 * (what Lambda runs).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type LocalApi, startLocalApi } from '../../local/api-server.ts';
import { sourceStageApi } from '../../local/stage-api.ts';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { bareCalls } from './bare-calls.ts';
import { serve } from './rpc.ts';

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
      const calls = bareCalls(client, table);
      const list = async (event: APIGatewayProxyEvent) => json(200, await calls.list(event.queryStringParameters?.status));
      const get = async (event: APIGatewayProxyEvent) => {
        const item = await calls.get(Number(event.pathParameters?.petId));
        return item ? json(200, item) : json(404, { code: 'not_found' });
      };
      const create = async (event: APIGatewayProxyEvent) => json(201, await calls.create(JSON.parse(event.body ?? '{}') as object));
      const stage = await sourceStageApi({ handlers: { 'list-pets': list, 'create-pet': create, 'get-pet': get } });
      api = await startLocalApi({ api: stage.api, port: 0 });
      return api.url;
    },
  },
  async () => api?.close(),
);
