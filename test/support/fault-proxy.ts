/**
 * A DynamoDB endpoint that misbehaves on request: it forwards to a real store, or answers as a
 * throttled or failing DynamoDB would, or accepts the connection and never answers. The service
 * talks to it over the real SDK and real HTTP, so its timeouts, retries and error mapping are what
 * is tested, not a mock.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'pass' | 'throttle' | 'server-error' | 'hang';

export interface FaultProxy {
  readonly endpoint: string;
  /** Decides per call from its DynamoDB operation (`GetItem`, …) and table. */
  decide: (operation: string, tableName: string | undefined) => Fault;
  readonly calls: { operation: string; tableName: string | undefined; fault: Fault }[];
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const hanging = new Set<ServerResponse>();
  const proxy: FaultProxy = {
    endpoint: '',
    decide: () => 'pass',
    calls: [],
    close: async () => undefined,
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    let tableName: string | undefined;
    try {
      tableName = (JSON.parse(body.toString('utf8')) as { TableName?: string }).TableName;
    } catch {
      tableName = undefined;
    }
    const fault = proxy.decide(operation, tableName);
    proxy.calls.push({ operation, tableName, fault });
    if (fault === 'hang') {
      hanging.add(res);
      return;
    }
    if (fault === 'throttle' || fault === 'server-error') {
      const [status, type, message] =
        fault === 'throttle'
          ? [400, 'com.amazonaws.dynamodb.v20120810#ThrottlingException', 'Rate of requests exceeds the allowed throughput.']
          : [500, 'com.amazonaws.dynamodb.v20120810#InternalServerError', 'Internal server error'];
      res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': 'fault' });
      res.end(JSON.stringify({ __type: type, message }));
      return;
    }
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 500, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
