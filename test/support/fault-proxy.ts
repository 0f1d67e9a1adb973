/**
 * A DynamoDB endpoint that misbehaves on request: it forwards to a real store, or answers as a
 * throttled or failing DynamoDB would, or accepts the connection and never answers. The service
 * talks to it over the real SDK and real HTTP, so its timeouts, retries and error mapping are what
 * is tested, not a mock.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * - `throttle`: a ThrottlingException; `throttle:<name>` another of DynamoDB's throttling errors;
 * - `server-error`: a 500 InternalServerError;
 * - `hang`: accepts the request and never answers;
 * - `stall-after-headers`: sends the status line, headers and part of the body, then nothing;
 * - `trickle`: sends the real answer one byte every 300 ms;
 * - `garbage`: a 200 whose body is an HTML page, as a misrouted proxy would send; `slow-garbage`
 *   the same, SLOW_ANSWER_MS late (a failure the SDK does not retry, after the client waited);
 * - `slow`: forwards the request and answers SLOW_ANSWER_MS later, well inside the client's deadline;
 * - `late`: forwards the request (the store does the work) and answers LATE_ANSWER_MS later, past
 *   the client's deadline, so the client never sees that its write happened;
 * - `reset-after-write`: forwards the request, then resets the connection instead of answering.
 */
export type Fault =
  | 'pass'
  | 'throttle'
  | `throttle:${string}`
  | 'server-error'
  | 'hang'
  | 'stall-after-headers'
  | 'trickle'
  | 'garbage'
  | 'slow-garbage'
  | 'slow'
  | 'late'
  | 'reset-after-write';

/** Well inside the SDK's 1 s wait for response headers, long enough to see what happens meanwhile. */
export const SLOW_ANSWER_MS = 300;

/** Past the SDK's 1 s wait for response headers (lib/store/dynamodb-client.ts). */
export const LATE_ANSWER_MS = 1_300;

const TRICKLE_INTERVAL_MS = 300;

export interface FaultProxy {
  readonly endpoint: string;
  /** Decides per call from its DynamoDB operation (`GetItem`, …) and table. */
  decide: (operation: string, tableName: string | undefined) => Fault;
  /**
   * Every call, in order of arrival; `at` is performance.now() on arrival, `closedAt` when the
   * client closed the connection of a `hang` call (it gave up: a timeout, or an abort).
   */
  readonly calls: { operation: string; tableName: string | undefined; indexName?: string; fault: Fault; at: number; closedAt?: number }[];
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
    const at = performance.now();
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    let target: { TableName?: string; IndexName?: string } = {};
    try {
      target = JSON.parse(body.toString('utf8')) as typeof target;
    } catch {
      target = {};
    }
    const tableName = target.TableName;
    const fault = proxy.decide(operation, tableName);
    const call: FaultProxy['calls'][number] = {
      operation,
      tableName,
      fault,
      at,
      ...(target.IndexName ? { indexName: target.IndexName } : {}),
    };
    proxy.calls.push(call);
    if (fault === 'hang') {
      hanging.add(res);
      res.once('close', () => {
        call.closedAt = performance.now();
      });
      return;
    }
    if (fault === 'stall-after-headers') {
      hanging.add(res);
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': '100', 'x-amzn-RequestId': 'fault' });
      res.write('{"Item":');
      return;
    }
    if (fault === 'garbage' || fault === 'slow-garbage') {
      const answer = () => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body><h1>Welcome to nginx!</h1></body></html>');
      };
      if (fault === 'slow-garbage') setTimeout(answer, SLOW_ANSWER_MS);
      else answer();
      return;
    }
    if (fault === 'throttle' || fault.startsWith('throttle:') || fault === 'server-error') {
      const throttling = fault === 'throttle' ? 'ThrottlingException' : fault.slice('throttle:'.length);
      const [status, type, message] =
        fault === 'server-error'
          ? [500, 'com.amazonaws.dynamodb.v20120810#InternalServerError', 'Internal server error']
          : [400, `com.amazonaws.dynamodb.v20120810#${throttling}`, 'Rate of requests exceeds the allowed throughput.'];
      res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': 'fault' });
      res.end(JSON.stringify({ __type: type, message }));
      return;
    }
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        if (fault === 'reset-after-write') {
          reply.resume();
          res.socket?.resetAndDestroy();
          return;
        }
        const answer = () => {
          res.writeHead(reply.statusCode ?? 500, reply.headers);
          if (fault === 'trickle') void trickle(reply, res, hanging);
          else reply.pipe(res);
        };
        if (fault === 'late' || fault === 'slow') setTimeout(answer, fault === 'late' ? LATE_ANSWER_MS : SLOW_ANSWER_MS);
        else answer();
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

/** Forwards the upstream answer one byte at a time, TRICKLE_INTERVAL_MS apart. */
async function trickle(reply: IncomingMessage, res: ServerResponse, open: Set<ServerResponse>): Promise<void> {
  open.add(res);
  const chunks: Buffer[] = [];
  for await (const chunk of reply) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  for (let i = 0; i < bytes.length && !res.destroyed; i++) {
    res.write(bytes.subarray(i, i + 1));
    await new Promise((resolve) => setTimeout(resolve, TRICKLE_INTERVAL_MS));
  }
  res.end();
  open.delete(res);
}
