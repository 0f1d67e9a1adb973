/**
 * Worker: the BASELINE, a bare node:http server that does for each route the same single DynamoDB
 * call as the service (same document client from createDocumentClient, same store, same tables)
 * and returns the JSON. No middleware, validation, authentication, logging or API Gateway event:
 * the least any implementation of these routes has to do.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../lib/store/dynamodb-client.ts';
import { generatePetId } from '../../../lib/store/ids.ts';
import { BY_STATUS_INDEX } from '../../../lib/store/tables.ts';
import { serve } from './rpc.ts';

const PAGE = 20;
let server: Server | undefined;

serve(
  {
    start: async (request) => {
      const client = createDocumentClient({ endpoint: request.endpoint as string });
      const table = request.petsTable as string;

      const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
        const url = new URL(req.url ?? '/', 'http://baseline');
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        if (req.method === 'GET' && url.pathname === '/v1/pets') {
          const status = url.searchParams.get('status');
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
          return send(res, 200, Items.slice(0, PAGE));
        }
        const petId = /^\/v1\/pets\/(\d+)$/.exec(url.pathname)?.[1];
        if (req.method === 'GET' && petId !== undefined) {
          const { Item } = await client.send(new GetCommand({ TableName: table, Key: { id: Number(petId) }, ConsistentRead: true }));
          return Item ? send(res, 200, Item) : send(res, 404, { code: 'not_found' });
        }
        if (req.method === 'POST' && url.pathname === '/v1/pets') {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as object;
          // A new id on the rare collision, as the service does (two creates in one millisecond drawing the same bits).
          for (let attempt = 1; ; attempt++) {
            const pet = { id: generatePetId(), ...body };
            try {
              await client.send(new PutCommand({ TableName: table, Item: pet, ConditionExpression: 'attribute_not_exists(id)' }));
              return send(res, 201, pet);
            } catch (error) {
              if (!(error instanceof ConditionalCheckFailedException) || attempt >= 5) throw error;
            }
          }
        }
        send(res, 404, { code: 'not_found' });
      };

      server = createServer((req, res) => {
        handle(req, res).catch((error: unknown) => send(res, 500, { code: 'internal_error', message: String(error) }));
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    },
  },
  async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  },
);

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
