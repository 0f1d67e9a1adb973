/**
 * Worker: the BASELINE, a bare node:http server that does for each route the same single DynamoDB
 * call as the service (same document client from createDocumentClient, same store, same tables)
 * and returns the JSON. No middleware, validation, authentication, logging or API Gateway event:
 * the least any implementation of these routes has to do.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '#lib/store/dynamodb-client.ts';
import { bareCalls } from './bare-calls.ts';
import { serve } from './rpc.ts';

let server: Server | undefined;

serve(
  {
    start: async (request) => {
      const client = createDocumentClient({ endpoint: request.endpoint as string });
      const table = request.petsTable as string;
      const calls = bareCalls(client, table);

      const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
        const url = new URL(req.url ?? '/', 'http://baseline');
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        if (req.method === 'GET' && url.pathname === '/v1/pets') return send(res, 200, await calls.list(url.searchParams.get('status')));
        const petId = /^\/v1\/pets\/(\d+)$/.exec(url.pathname)?.[1];
        if (req.method === 'GET' && petId !== undefined) {
          const item = await calls.get(Number(petId));
          return item ? send(res, 200, item) : send(res, 404, { code: 'not_found' });
        }
        if (req.method === 'POST' && url.pathname === '/v1/pets') {
          return send(res, 201, await calls.create(JSON.parse(Buffer.concat(chunks).toString('utf8')) as object));
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
