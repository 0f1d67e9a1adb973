// The socket's concerns (limits, clients that go away); the gateway (gateway/rest-api.ts) does what API Gateway does.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { timeoutScale } from '#lib/config.ts';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';
import { HttpError } from '#lib/http/errors.ts';
import { MAX_BODY_BYTES } from '#lib/http/json-body.ts';
import { COMMON_RESPONSE_HEADERS, errorResult } from '#lib/http/response.ts';
import { API_BASE_PATH } from '#lib/routes.ts';
import { headerOf } from './gateway/headers.ts';
import type { LocalRestApi, RequestHead } from './gateway/rest-api.ts';

// Slow or idle clients must not exhaust the process: its file descriptors are the embedded store's too.
const MAX_CONNECTIONS = 1_000;
const SCALE = timeoutScale();
const SERVER_LIMITS = {
  headersTimeout: 5_000 * SCALE,
  requestTimeout: 30_000 * SCALE,
  keepAliveTimeout: 5_000 * SCALE,
  connectionsCheckingInterval: 1_000,
} as const;

const NO_BODY = Buffer.alloc(0);

export interface LocalApi {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface LocalApiOptions {
  readonly api: LocalRestApi;
  readonly port?: number;
  readonly host?: string;
}

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const { api } = options;
  // The host clients address this server by, as API Gateway asserts its own domain name.
  let authority = '';
  const server = createServer(SERVER_LIMITS, (req, res) => {
    handle(req, res, api, authority).catch((error: unknown) => {
      // The gateway answers every error it knows of; reaching here is a bug in local mode.
      process.stderr.write(`local API error: ${(error as Error).stack ?? String(error)}\n`);
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

async function handle(req: IncomingMessage, res: ServerResponse, api: LocalRestApi, domainName: string): Promise<void> {
  // Split by hand: `new URL()` would read a path such as `//host` as an authority.
  const [path = '/', search = ''] = splitTarget(req.url ?? '/');
  const head: RequestHead = {
    requestId: randomUUID(),
    domainName,
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    search,
    rawHeaders: req.rawHeaders,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    httpVersion: req.httpVersion,
  };
  // The gateway's own answers come before the body is read; Node then drops the rest.
  const routed = api.route(head);
  if (!api.needsBody(routed)) return send(res, await api.answer(routed, head, NO_BODY));

  const body = hasBody(req.rawHeaders) ? await readBody(req, MAX_BODY_BYTES) : { bytes: NO_BODY, cut: false };
  // The client went away half-way through its body: there is nobody to answer.
  if (body === undefined) return;
  const result = await api.answer(routed, head, body.bytes);
  // Drained, not closed: closing could reset the connection before the client reads the answer.
  if (body.cut) res.once('finish', () => req.resume());
  send(res, result);
}

// A request Node's parser refuses gets the Error shape, not a bare 400; its framing can no longer be trusted.
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

/** An error answered before any gateway saw the request, with the headers gateway errors carry. */
function gatewayError(error: HttpError, requestId: string): APIGatewayProxyResult {
  const result = errorResult(error);
  return { ...result, headers: { ...result.headers, ...COMMON_RESPONSE_HEADERS, [REQUEST_ID_HEADER]: requestId } };
}

// RFC 9112 §6.3; a GET skips the stream iterator an empty read would still build.
function hasBody(rawHeaders: readonly string[]): boolean {
  const length = headerOf(rawHeaders, 'content-length');
  return headerOf(rawHeaders, 'transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** At most one byte past `limit`, enough for a 413. `cut`: bytes left unread; undefined: the client left. */
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
