/**
 * One stage of a REST API, served from its template: what API Gateway does between a client and a
 * function, and a web ACL in front of it.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { blockListOf, FloodDetector, hostCidr } from '#lib/edge/flood-detector.ts';
import { preferredCoding } from '#lib/http/content-coding.ts';
import { toProxyEvent, type GatewayRequest } from './proxy-event.ts';
import { header as headerIn } from '#lib/http/request-headers.ts';
import { headerOf } from './headers.ts';
import { matchPath, methodFor } from './router.ts';
import {
  type ApiMethod,
  type ApiResource,
  type GatewayResponseDefinition,
  type IntegrationResponse,
  type LambdaFunctionDefinition,
  type LocalIpSet,
  type MockIntegration,
  type RestApiDefinition,
  STAGE_ADDRESS,
} from './template.ts';
import { MethodThrottle } from './throttle.ts';
import { LocalWebAcl } from './web-acl.ts';
import { type ContextVariables, renderTemplate, valueAt } from './velocity.ts';

/** What the gateway knows of a request before reading its body. */
export type RequestHead = Omit<GatewayRequest, 'body' | 'resource' | 'pathParameters' | 'stage'>;

/** How a function invocation ended, as the gateway sees it. */
export type Invocation =
  | { readonly ok: true; readonly result: unknown }
  /** The function threw, timed out or ran out of memory: Lambda reports a function error. */
  | { readonly ok: false; readonly reason: string; readonly throttled?: false }
  /** Lambda refused to run it: the function is at its reserved concurrency. */
  | { readonly ok: false; readonly reason: string; readonly throttled: true };

export type FunctionInvoker = (fn: LambdaFunctionDefinition, event: APIGatewayProxyEvent, requestId: string) => Promise<Invocation>;

export type Routed =
  /** The gateway's own answer, made without the body; `edge`: the web ACL's, which API Gateway never logs. */
  | { readonly answer: APIGatewayProxyResult; readonly edge?: true }
  /** A chunked body: the web ACL needs its size, so routing waits for it. */
  | { readonly answer?: undefined; readonly chunked: true }
  | {
      readonly answer?: undefined;
      readonly chunked?: undefined;
      readonly resource: ApiResource;
      readonly method: ApiMethod;
      readonly pathParameters: Record<string, string> | null;
    };

export interface LocalRestApiOptions {
  /** Apply the stage's limits: the web ACL's rules (their Block responses) and the method throttling (429 THROTTLED). */
  readonly throttling: boolean;
  /** API Gateway's payload limit: a larger request gets REQUEST_TOO_LARGE before any function runs. */
  readonly maxBodyBytes: number;
  /** The automatic blocks' clock, in ms (a test may run it faster); default Date.now. */
  readonly edgeClock?: () => number;
}

/** Statuses and messages API Gateway gives its own errors when no gateway response sets them. */
const DEFAULT_ERRORS = {
  MISSING_AUTHENTICATION_TOKEN: { status: 403, message: 'Missing Authentication Token' },
  THROTTLED: { status: 429, message: 'Too Many Requests' },
  REQUEST_TOO_LARGE: { status: 413, message: 'Request Too Long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type' },
  // A function error, a timeout, or a malformed proxy response: a 502 of the DEFAULT_5XX type.
  DEFAULT_5XX: { status: 502, message: 'Internal server error' },
  // Lambda could not run the function, e.g. throttled: "Execution failed due to configuration error".
  INTEGRATION_FAILURE: { status: 500, message: 'Internal server error' },
} as const;
type GatewayErrorType = keyof typeof DEFAULT_ERRORS;

export class LocalRestApi {
  readonly definition: RestApiDefinition;
  readonly #invoke: FunctionInvoker;
  readonly #throttle: MethodThrottle | undefined;
  readonly #webAcl: LocalWebAcl | undefined;
  readonly #maxBodyBytes: number;
  readonly #floods: { readonly detector: FloodDetector; readonly ipSet: LocalIpSet; readonly now: () => number } | undefined;

  constructor(definition: RestApiDefinition, invoke: FunctionInvoker, options: LocalRestApiOptions) {
    this.definition = definition;
    this.#invoke = invoke;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#throttle = options.throttling ? new MethodThrottle(definition.throttling) : undefined;
    this.#webAcl = options.throttling && definition.webAcl ? new LocalWebAcl(definition.webAcl) : undefined;
    const floods = options.throttling ? definition.webAcl?.floodBlocking : undefined;
    this.#floods = floods && { detector: new FloodDetector(floods.rule), ipSet: floods.ipSet, now: options.edgeClock ?? Date.now };
  }

  get stageName(): string {
    return this.definition.stageName;
  }

  /** `bodyBytes`: a chunked body's size, once read (route's second call). */
  route(head: RequestHead, bodyBytes?: number): Routed {
    const length = headerOf(head.rawHeaders, 'content-length');
    if (this.#webAcl && bodyBytes === undefined && length === undefined && headerOf(head.rawHeaders, 'transfer-encoding')) {
      return { chunked: true };
    }
    // The web ACL sees every request to the stage, before API Gateway does.
    const blocked = this.#webAcl?.check({
      sourceIp: head.sourceIp,
      method: head.method,
      uriPath: head.path,
      header: (name) => headerOf(head.rawHeaders, name),
      bodyBytes: bodyBytes ?? Number(length ?? 0),
    });
    if (blocked) {
      const own = (value: string) => value.replaceAll(STAGE_ADDRESS, `http://${head.domainName}`);
      const headers = Object.fromEntries(Object.entries(blocked.headers).map(([name, value]) => [name, own(value)]));
      return { answer: { statusCode: blocked.status, headers, body: blocked.body }, edge: true };
    }
    const match = matchPath(this.definition.root, head.path);
    const method = match && methodFor(match.resource, head.method);
    if (!match || !method) return { answer: this.#gatewayError('MISSING_AUTHENTICATION_TOKEN', head) };
    if (this.#throttle && !this.#throttle.tryAcquire(match.resource.path, method.httpMethod)) {
      return { answer: this.#gatewayError('THROTTLED', head, match.resource) };
    }
    if (Number(headerOf(head.rawHeaders, 'content-length') ?? 0) > this.#maxBodyBytes) {
      return { answer: this.#gatewayError('REQUEST_TOO_LARGE', head, match.resource) };
    }
    if (method.integration.type === 'MOCK') {
      const answer = this.#mock(method.integration, head, match.resource, match.pathParameters);
      if (answer) return { answer };
    }
    return { resource: match.resource, method, pathParameters: match.pathParameters };
  }

  /** Whether the answer needs the body: everything the gateway did not answer from the head. */
  needsBody(routed: Routed): boolean {
    return !routed.answer;
  }

  async answer(routed: Routed, head: RequestHead, body: Buffer): Promise<APIGatewayProxyResult> {
    const route = 'chunked' in routed ? this.route(head, body.length) : routed;
    if ('chunked' in route) throw new Error('A chunked request is routed once its body is read');
    const result = this.#encode(await this.#answer(route, head, body), head);
    // The access log line the automatic blocks read on AWS (the web ACL's own answers have none).
    if (this.#floods && !('edge' in route)) {
      const { detector, ipSet, now } = this.#floods;
      const resourcePath = 'resource' in route ? route.resource.path : '';
      const line = { sourceIp: head.sourceIp, httpMethod: head.method, resourcePath, status: result.statusCode };
      if (detector.observe(line, now()) || detector.expire(now()).length > 0) ipSet.list = blockListOf(detector.blocked.map(hostCidr));
    }
    return result;
  }

  async #answer(routed: Exclude<Routed, { chunked: true }>, head: RequestHead, body: Buffer): Promise<APIGatewayProxyResult> {
    if (routed.answer) return routed.answer;
    const { integration } = routed.method;
    if (integration.type === 'MOCK') {
      return (
        this.#mock(integration, head, routed.resource, routed.pathParameters, body.toString('utf8')) ??
        this.#gatewayError('DEFAULT_5XX', head)
      );
    }
    const fn = this.definition.functions.get(integration.functionId);
    if (!fn) throw new Error(`No function ${integration.functionId} in the template`);
    const event = toProxyEvent({
      ...head,
      body,
      resource: routed.resource.path,
      pathParameters: routed.pathParameters,
      stage: this.stageName,
    });
    const outcome = await this.#invoke(fn, event, head.requestId);
    if (!outcome.ok) return this.#gatewayError(outcome.throttled ? 'INTEGRATION_FAILURE' : 'DEFAULT_5XX', head, routed.resource);
    const result = proxyResult(outcome.result);
    return result ?? this.#gatewayError('DEFAULT_5XX', head, routed.resource);
  }

  /**
   * Content encoding, as the RestApi's MinimumCompressionSize asks: a body of at least that many
   * bytes is compressed with the coding the client prefers among gzip and deflate.
   */
  #encode(result: APIGatewayProxyResult, head: RequestHead): APIGatewayProxyResult {
    const minimum = this.definition.minimumCompressionSize;
    if (minimum === undefined || result.body === undefined || result.body === null) return result;
    if (headerIn(result.headers ?? {}, 'content-encoding') !== undefined) return result;
    // Cheapest test first: most answers go to clients that accept no coding, or are small.
    const coding = preferredCoding(headerOf(head.rawHeaders, 'accept-encoding'));
    const encoding = result.isBase64Encoded ? 'base64' : 'utf8';
    if (!coding || Buffer.byteLength(result.body, encoding) < minimum) return result;
    const bytes = Buffer.from(result.body, encoding);
    const compressed = coding === 'gzip' ? gzipSync(bytes) : deflateSync(bytes);
    return {
      ...result,
      headers: { ...result.headers, 'Content-Encoding': coding },
      body: compressed.toString('base64'),
      isBase64Encoded: true,
    };
  }

  /**
   * A MOCK integration's answer: the request template for the request's Content-Type gives the mock
   * its status, which selects the integration response.
   */
  #mock(
    integration: MockIntegration,
    head: RequestHead,
    resource: ApiResource,
    pathParameters: Record<string, string> | null,
    body?: string,
  ): APIGatewayProxyResult | undefined {
    const contentType = mediaType(headerOf(head.rawHeaders, 'content-type')) ?? 'application/json';
    const { passthroughBehavior, requestTemplates } = integration;
    const requestTemplate = requestTemplates[contentType];
    const refused =
      passthroughBehavior === 'NEVER' || (passthroughBehavior === 'WHEN_NO_TEMPLATES' && Object.keys(requestTemplates).length > 0);
    if (requestTemplate === undefined && refused) return this.#gatewayError('UNSUPPORTED_MEDIA_TYPE', head, resource);
    // A template that reads the body, or a body passed through, waits for it; `$input.params` needs the head alone.
    if (body === undefined && (requestTemplate === undefined || /\$input\.(?:body|json|path)\b/.test(requestTemplate))) return undefined;
    const input = this.#templateInput(head, resource, pathParameters, body ?? '');
    const rendered = requestTemplate === undefined ? (body ?? '') : renderTemplate(requestTemplate, input);
    const mockStatus = String((safeJson(rendered) as { statusCode?: unknown } | undefined)?.statusCode ?? 200);
    const response = selectResponse(integration.integrationResponses, mockStatus);
    if (!response) return this.#gatewayError('DEFAULT_5XX', head, resource);
    const [templateType, template] = selectTemplate(response.responseTemplates, headerOf(head.rawHeaders, 'accept'));
    const headers: Record<string, string> = templateType ? { 'Content-Type': templateType } : {};
    Object.assign(headers, mapParameters(response.responseParameters, 'method.response.header.', input.context, head));
    return { statusCode: Number(response.statusCode), headers, body: template === undefined ? '' : renderTemplate(template, input) };
  }

  /** An error the gateway makes, through the template's gateway response of that type. */
  #gatewayError(type: GatewayErrorType, head: RequestHead, resource?: ApiResource): APIGatewayProxyResult {
    const fallback = DEFAULT_ERRORS[type];
    const definition: GatewayResponseDefinition | undefined =
      this.definition.gatewayResponses.get(type) ??
      this.definition.gatewayResponses.get(fallback.status < 500 ? 'DEFAULT_4XX' : 'DEFAULT_5XX');
    const input = this.#templateInput(head, resource, null, '', {
      message: fallback.message,
      messageString: JSON.stringify(fallback.message),
      responseType: type,
    });
    const statusCode = Number(definition?.statusCode ?? fallback.status);
    if (!definition)
      return { statusCode, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: fallback.message }) };
    const [templateType, template] = selectTemplate(definition.responseTemplates, headerOf(head.rawHeaders, 'accept'));
    const headers: Record<string, string> = { 'Content-Type': templateType ?? 'application/json' };
    Object.assign(headers, mapParameters(definition.responseParameters, 'gatewayresponse.header.', input.context, head));
    const body = template === undefined ? JSON.stringify({ message: fallback.message }) : renderTemplate(template, input);
    return { statusCode, headers, body };
  }

  #templateInput(
    head: RequestHead,
    resource: ApiResource | undefined,
    pathParameters: Record<string, string> | null,
    body: string,
    error: Readonly<Record<string, string>> = {},
  ) {
    const headers = Object.fromEntries(pairs(head.rawHeaders));
    const query = Object.fromEntries(new URLSearchParams(head.search));
    return {
      context: contextVariables(head, this.definition, resource, error),
      body,
      headers,
      query,
      pathParameters: pathParameters ?? {},
    };
  }
}

/** `$context`, nested as Velocity reads it (`$context.identity.sourceIp`, `$context.error.message`). */
function contextVariables(
  head: RequestHead,
  api: RestApiDefinition,
  resource: ApiResource | undefined,
  error: Readonly<Record<string, string>>,
): ContextVariables {
  const now = Date.now();
  return {
    accountId: '000000000000',
    apiId: 'local',
    domainName: head.domainName,
    domainPrefix: head.domainName.split('.')[0],
    extendedRequestId: head.requestId,
    httpMethod: head.method,
    path: head.path,
    protocol: `HTTP/${head.httpVersion}`,
    requestId: head.requestId,
    requestTime: new Date(now).toUTCString(),
    requestTimeEpoch: now,
    resourceId: resource ? resource.path : '',
    resourcePath: resource ? resource.path : '',
    stage: api.stageName,
    identity: { sourceIp: head.sourceIp, userAgent: headerOf(head.rawHeaders, 'user-agent') ?? '' },
    error,
  };
}

/**
 * Header mappings: `'literal'`, or a value from the request or context (`context.requestId`,
 * `method.request.header.X`, `method.request.querystring.X`, `method.request.path.X`).
 */
function mapParameters(
  parameters: Readonly<Record<string, string>>,
  prefix: string,
  context: ContextVariables,
  head: RequestHead,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [target, source] of Object.entries(parameters)) {
    if (!target.startsWith(prefix)) continue;
    const name = target.slice(prefix.length);
    const value = parameterValue(source, context, head);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function parameterValue(source: string, context: ContextVariables, head: RequestHead): string | undefined {
  if (source.startsWith("'") && source.endsWith("'")) return source.slice(1, -1);
  if (source.startsWith('context.')) {
    const value = valueAt(context, source.slice('context.'.length).split('.'));
    return value === undefined ? undefined : String(value);
  }
  if (source.startsWith('method.request.header.')) return headerOf(head.rawHeaders, source.slice('method.request.header.'.length));
  if (source.startsWith('method.request.querystring.'))
    return new URLSearchParams(head.search).get(source.slice('method.request.querystring.'.length)) ?? undefined;
  throw new Error(`Local mode cannot map the response parameter source ${source}`);
}

/** The integration response whose selection pattern matches the status; else the default one. */
function selectResponse(responses: readonly IntegrationResponse[], status: string): IntegrationResponse | undefined {
  return (
    responses.find((r) => r.selectionPattern !== undefined && new RegExp(`^(?:${r.selectionPattern})$`).test(status)) ??
    responses.find((r) => r.selectionPattern === undefined || r.selectionPattern === '')
  );
}

/** The response template for the client's Accept header; else application/json; else the first. */
function selectTemplate(templates: Readonly<Record<string, string>>, accept: string | undefined): [string | undefined, string | undefined] {
  const types = Object.keys(templates);
  const accepted = (accept ?? '')
    .split(',')
    .map((part) => mediaType(part))
    .filter((t): t is string => t !== undefined);
  const chosen = accepted.find((type) => type in templates) ?? (types.includes('application/json') ? 'application/json' : types[0]);
  return [chosen, chosen === undefined ? undefined : templates[chosen]];
}

const PROXY_RESULT_FIELDS: ReadonlySet<string> = new Set([
  'statusCode',
  'headers',
  'multiValueHeaders',
  'body',
  'isBase64Encoded',
  'cookies',
]);

/**
 * A Lambda proxy result as API Gateway accepts it (statusCode, headers, multiValueHeaders, body,
 * isBase64Encoded, nothing else); undefined for anything else: the gateway's 502.
 */
function proxyResult(value: unknown): APIGatewayProxyResult | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const result = value as Record<string, unknown>;
  for (const key in result) if (Object.hasOwn(result, key) && !PROXY_RESULT_FIELDS.has(key)) return undefined;
  const statusCode = Number(result.statusCode);
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) return undefined;
  if (result.body !== undefined && result.body !== null && typeof result.body !== 'string') return undefined;
  return value as APIGatewayProxyResult;
}

function* pairs(rawHeaders: readonly string[]): Generator<[string, string]> {
  for (let i = 0; i < rawHeaders.length; i += 2) yield [rawHeaders[i] as string, rawHeaders[i + 1] as string];
}

function mediaType(value: string | undefined): string | undefined {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
