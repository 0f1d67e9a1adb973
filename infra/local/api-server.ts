/**
 * The local API: a node:http server that does what API Gateway's REST API does for this service.
 * It routes with the shared route table, answers unknown paths (404) and wrong methods (405) itself
 * as the gateway's mock integrations do, turns each request into a REST proxy event, calls the very
 * handler module the CDK deploys, and writes the handler's result back.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../../lib/http/access-log.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { MAX_BODY_BYTES } from '../../lib/http/json-body.ts';
import { errorResult } from '../../lib/http/response.ts';
import {
  GATEWAY_MAX_BODY_BYTES,
  GATEWAY_TOO_LARGE_MESSAGE,
  methodNotAllowedError,
  notFoundError,
} from '../../lib/http/gateway-errors.ts';
import { API_BASE_PATH, matchResource, routes, type Route } from '../../lib/routes.ts';
import { openApiDocumentResponse } from '../../lib/openapi/serve.ts';
import { COMMON_ERROR_HEADERS } from '../constructs/gateway-errors.ts';
import { lambdaContext, toProxyEvent } from './lambda-event.ts';

/**
 * Bounds that keep idle or slow clients from exhausting the process (its file descriptors are the
 * embedded store's too): at most MAX_CONNECTIONS at once, further ones refused at once; headers
 * within 5 s, the whole request within 30 s, idle keep-alive connections closed after 5 s, all
 * checked every second.
 */
const MAX_CONNECTIONS = 1_000;
const SERVER_LIMITS = { headersTimeout: 5_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 } as const;

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface LocalApi {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface LocalApiOptions {
  readonly port?: number;
  readonly host?: string;
  /** Handlers by function name; defaults to importing `functions/<name>.ts`. */
  readonly handlers?: Record<Route['functionName'], ProxyHandler>;
}

export async function loadHandlers(): Promise<Record<Route['functionName'], ProxyHandler>> {
  const entries = await Promise.all(
    routes.map(async (route) => {
      const module = (await import(`../../functions/${route.functionName}.ts`)) as { handler: ProxyHandler };
      return [route.functionName, module.handler] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Route['functionName'], ProxyHandler>;
}

export async function startLocalApi(options: LocalApiOptions = {}): Promise<LocalApi> {
  const handlers = options.handlers ?? (await loadHandlers());
  // The host clients address this server by, as API Gateway asserts its own domain name.
  let authority = '';
  const server = createServer(SERVER_LIMITS, (req, res) => {
    handle(req, res, handlers, authority).catch((error: unknown) => {
      // The handlers answer their own errors; reaching here is a bug in this adapter.
      process.stderr.write(`local API adapter error: ${(error as Error).stack ?? String(error)}\n`);
      if (!res.headersSent) send(res, errorResult(new HttpError('internal_error', 'The local API failed to handle this request.')));
      else res.destroy();
    });
  });
  server.on('clientError', answerMalformedRequest);
  server.maxConnections = MAX_CONNECTIONS;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  authority = `${host}:${port}`;
  return { url: `http://${authority}${API_BASE_PATH}`, port, close: () => closeServer(server) };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: Record<Route['functionName'], ProxyHandler>,
  domainName: string,
): Promise<void> {
  const requestId = randomUUID();
  // Split by hand: `new URL()` would read a path such as `//host` as an authority.
  const [path = '/', search = ''] = splitTarget(req.url ?? '/');
  const method = (req.method ?? 'GET').toUpperCase();

  // Everything the gateway answers by itself is answered before a byte of the body is read; Node
  // then reads and drops the rest of it (no memory held; requestTimeout bounds how long).
  // Public documentation, before the route table and without authentication: GET /v1/openapi.json.
  const documentation = openApiDocumentResponse(method, path, requestId);
  if (documentation) return send(res, documentation);
  const match = path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`) ? matchResource(path.slice(API_BASE_PATH.length)) : undefined;
  if (!match) return send(res, gatewayError(notFoundError(), requestId));
  const route = routes.find((r) => r.resource === match.resource && r.method === method);
  if (!route) return send(res, gatewayError(methodNotAllowedError(method, match.resource), requestId));
  if (Number(req.headers['content-length'] ?? 0) > GATEWAY_MAX_BODY_BYTES) {
    return send(res, gatewayError(new HttpError('payload_too_large', GATEWAY_TOO_LARGE_MESSAGE), requestId));
  }

  const body = await readBody(req, MAX_BODY_BYTES);
  // The client went away half-way through its body: there is nobody to answer.
  if (body === undefined) return;
  const event = toProxyEvent({
    requestId,
    domainName,
    method,
    path,
    search,
    rawHeaders: req.rawHeaders,
    body: body.bytes,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    httpVersion: req.httpVersion,
    resource: API_BASE_PATH + match.resource,
    pathParameters: match.pathParameters,
  });
  const result = await handlers[route.functionName](event, lambdaContext(requestId, route.functionName));
  // The rest of a cut body is read and dropped after the answer, as Node does for a body nobody
  // read: closing at once could reset the connection before the client has read the answer.
  if (body.cut) res.once('finish', () => req.resume());
  send(res, result);
}

/**
 * A request Node's HTTP parser refuses (an unknown method, a malformed request line or header)
 * never reaches `handle`. Node would answer a bare 400; this answers it in the Error shape, as
 * every other refusal, and closes the connection, whose framing can no longer be trusted.
 */
function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || !error.code?.startsWith('HPE_')) {
    socket.destroy();
    return;
  }
  const what =
    error.code === 'HPE_INVALID_METHOD'
      ? 'its method is not an HTTP method'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'its headers are too large'
        : 'it is not valid HTTP/1.1';
  const result = gatewayError(new HttpError('validation_failed', `The request could not be read: ${what}.`), randomUUID());
  const body = Buffer.from(result.body, 'utf8');
  const head = [
    `HTTP/1.1 ${result.statusCode} ${STATUS_CODES[result.statusCode] ?? ''}`,
    ...Object.entries(result.headers ?? {}).map(([name, value]) => `${name}: ${String(value)}`),
    `Content-Length: ${body.length}`,
    'Connection: close',
  ];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

/** An error the gateway makes, with the headers its gateway responses and mocks carry too. */
function gatewayError(error: HttpError, requestId: string): APIGatewayProxyResult {
  const result = errorResult(error);
  return { ...result, headers: { ...result.headers, ...COMMON_ERROR_HEADERS, [REQUEST_ID_HEADER]: requestId } };
}


/**
 * The body, but never more than one byte past `limit`: that byte is enough for the function to
 * answer 413 as it would on AWS, and a client sending megabytes holds 64 KiB here, not its
 * megabytes. `cut` says bytes were left unread; undefined: the client left half-way.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Buffer; cut: boolean } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Leaving the loop early must not destroy the request: its socket still carries the answer.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > limit) return { bytes: Buffer.concat(chunks).subarray(0, limit + 1), cut: true };
    }
  } catch {
    return undefined;
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

function splitTarget(target: string): [string, string] {
  const at = target.indexOf('?');
  return at === -1 ? [target, ''] : [target.slice(0, at), target.slice(at + 1)];
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) res.setHeader(name, values.map(String));
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
