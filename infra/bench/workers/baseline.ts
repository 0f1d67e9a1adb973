/**
 * Worker: the BASELINE, a bare node:http server that does for each route the same single DynamoDB call as the service (same document
 * client from createDocumentClient, same store, same tables) and returns the JSON.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeOf } from '../scenarios.ts';
import { bareCalls } from './bare-calls.ts';
import { serve } from './rpc.ts';
import type { StoreResult } from '../store-calls.ts';

let server: Server | undefined;

serve(
  {
    start: async (request) => {
      const answer = bareCalls(request.endpoint as string, request.petsTable as string);
      const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
        const url = new URL(req.url ?? '/', 'http://baseline');
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const route = routeOf(req.method ?? '', url.pathname.replace(/^\/v1/, ''));
        if (!route) return send(res, { statusCode: 404, body: '{"code":"not_found"}' });
        const body = Buffer.concat(chunks).toString('utf8');
        send(res, await answer(route.operation, { ...route, body, queryStringParameters: Object.fromEntries(url.searchParams) }));
      };

      server = createServer((req, res) => {
        handle(req, res).catch((error: unknown) => send(res, { statusCode: 500, body: JSON.stringify({ message: String(error) }) }));
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

function send(res: ServerResponse, { statusCode, body }: StoreResult): void {
  res.writeHead(statusCode, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
