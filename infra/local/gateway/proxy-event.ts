import type { APIGatewayProxyEvent } from 'aws-lambda';
import { header as headerIn } from '#lib/http/request-headers.ts';

export const LOCAL_STAGE = 'local';

export interface GatewayRequest {
  readonly requestId: string;
  /** The gateway's own domain name (local mode: the server's `host:port`), never the client's Host header. */
  readonly domainName: string;
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly body: Buffer;
  /** Header names and values as they came, alternating (Node's `rawHeaders`). */
  readonly rawHeaders: readonly string[];
  readonly sourceIp: string;
  readonly httpVersion: string;
  readonly resource: string;
  readonly pathParameters: Record<string, string> | null;
  readonly stage?: string;
}

export function toProxyEvent(parts: GatewayRequest): APIGatewayProxyEvent {
  // rawHeaders keeps the client's casing and every repeated header, as API Gateway passes them on.
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < parts.rawHeaders.length; i += 2) {
    const name = parts.rawHeaders[i] as string;
    // The gateway says which scheme the client used; whatever a client sent there is dropped.
    if (name.toLowerCase() !== 'x-forwarded-proto') add(headers, multiValueHeaders, name, parts.rawHeaders[i + 1] as string);
  }
  add(headers, multiValueHeaders, 'X-Forwarded-Proto', 'http');
  const { single: query, multi: multiQuery } = parts.search === '' ? NO_VALUES : collect(new URLSearchParams(parts.search));
  const hasQuery = Object.keys(query).length > 0;

  // Text bodies pass as they are; bytes that are not UTF-8 are passed base64-encoded, flagged.
  const text = parts.body.length === 0 ? null : decodeUtf8(parts.body);
  const isBase64Encoded = parts.body.length > 0 && text === undefined;
  const now = Date.now();
  return {
    resource: parts.resource,
    path: parts.path,
    httpMethod: parts.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: parts.pathParameters,
    stageVariables: null,
    body: parts.body.length === 0 ? null : isBase64Encoded ? parts.body.toString('base64') : (text as string),
    isBase64Encoded,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      domainName: parts.domainName,
      domainPrefix: 'local',
      extendedRequestId: parts.requestId,
      httpMethod: parts.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: parts.sourceIp,
        user: null,
        userAgent: headerIn(headers, 'user-agent') ?? null,
        userArn: null,
      },
      path: parts.path,
      protocol: `HTTP/${parts.httpVersion}`,
      requestId: parts.requestId,
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: parts.resource,
      stage: parts.stage ?? LOCAL_STAGE,
    },
  };
}

/** A request without a query string: shared, never written to (`hasQuery` is false, so the event carries null). */
const NO_VALUES: { single: Record<string, string>; multi: Record<string, string[]> } = { single: {}, multi: {} };

// Hot path: no Map, no intermediate arrays. Own data properties, so `__proto__` stays data as in Lambda's JSON event.
function add(single: Record<string, string>, multi: Record<string, string[]>, name: string, value: string): void {
  const values = Object.hasOwn(multi, name) ? multi[name] : undefined;
  if (values) values.push(value);
  else setOwn(multi, name, [value]);
  setOwn(single, name, value);
}

function setOwn<T>(target: Record<string, T>, name: string, value: T): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
  else target[name] = value;
}

function collect(pairs: Iterable<[string, string]>): { single: Record<string, string>; multi: Record<string, string[]> } {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of pairs) add(single, multi, name, value);
  return { single, multi };
}

// ignoreBOM keeps a byte order mark in the text, as API Gateway passes the body on untouched.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
