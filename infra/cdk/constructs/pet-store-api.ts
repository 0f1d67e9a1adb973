/**
 * The stage's REST API, built from the shared route table (lib/routes.ts): a `v1` resource at the root with the routes under it, each a
 * Lambda proxy integration; mock methods that answer wrong methods (405 + Allow) and unknown paths (404) exactly like local mode;
 * Gateway Responses that give every gateway-made error the service's Error body; per-stage throttling, a lower one on the docs routes
 * and, where the stage asks for it, a WAF web ACL with per-client limits; JSON access logs; and an optional custom domain whose root
 * maps to the stage, so the base address ends in `/v1` either way.
 */
import { type RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  BasePathMapping,
  type CfnRestApi,
  DomainName,
  EndpointAccessMode,
  EndpointType,
  IpAddressType,
  GatewayResponse,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  ResponseType,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';
import { ERROR_CODES } from '#lib/http/errors.ts';
import { COMMON_RESPONSE_HEADERS, withHeaders } from '#lib/http/response.ts';
import { mapValues } from '#lib/map-values.ts';
import { REFERENCE_PAGE_METHOD, REFERENCE_PAGE_PATH } from '#lib/openapi/reference-page.ts';
import { openApiMappingTemplate } from '../../openapi/serve.ts';
import {
  API_BASE_PATH,
  allowedMethods,
  OPENAPI_DOCUMENT_PATH,
  PUBLIC_DOCUMENT_METHODS,
  resources,
  type Route,
  routes,
} from '#lib/routes.ts';
import { DOCS_THROTTLED_METHODS, stageCapacity } from '../capacity.ts';
import type { StageSettings } from '../stages.ts';
import { GATEWAY_RESPONSES, type GatewayError, NOT_FOUND_BODY, errorBody, methodNotAllowedBody } from './gateway-responses.ts';
import { pascal } from '../pascal.ts';
import { allowedOriginHeaders, originSelectingTemplate, originStatus, preflightHeaders } from './cors-preflight.ts';
import { logGroupClass, serviceLogGroup } from './log-groups.ts';
import { EdgeBlocks, floodRule } from './edge-blocks.ts';
import { WebAcl } from './web-acl.ts';

/** The execute-api endpoint's and the custom domain's: TLS 1.2 or 1.3 (docs/operators.md, "TLS"). */
const TLS_POLICY = SecurityPolicy.TLS13_1_2_PQ_2025_09;

export interface PetStoreApiProps {
  readonly settings: StageSettings;
  /** What each route invokes: the function itself, or its `live` alias in production. */
  readonly targets: Readonly<Record<Route['functionId'], IFunction>>;
  /** Serves GET /v1/docs and /v1/docs/{asset}, the API reference page. */
  readonly referenceTarget: IFunction;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * Access log line, one JSON object per request; the only line of what the gateway answers itself
 * (the functions' line adds key and version).
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTimeEpoch: '$context.requestTimeEpoch',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatencyMs: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatencyMs: '$context.integration.latency',
  errorResponseType: '$context.error.responseType',
  // The X-Ray trace id, also on the function's request line (lib/http/request-line.ts): one id, gateway to function.
  xrayTraceId: '$context.xrayTraceId',
};

/**
 * Content types the mock methods have a request template for: the template feeds the mock its
 * status, which picks a CORS origin's answer (cors-preflight.ts).
 */
export const MOCK_CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'text/xml',
  'application/octet-stream',
] as const;

export class PetStoreApi extends Construct {
  readonly api: RestApi;
  /** `https://…/v1`: the custom domain when configured, the execute-api address otherwise. */
  readonly baseUrl: string;
  /** Always the execute-api address of the stage, ending in `/v1`. */
  readonly executeApiBaseUrl: string;
  readonly accessLogGroup: LogGroup;
  readonly domain?: DomainName;
  readonly webAcl?: WebAcl;
  readonly edgeBlocks?: EdgeBlocks;

  constructor(scope: Construct, id: string, props: PetStoreApiProps) {
    super(scope, id);
    const { settings } = props;
    const capacity = stageCapacity(settings);
    const stackName = Stack.of(this).stackName;
    const base = API_BASE_PATH.replace(/^\/+/, '');

    this.accessLogGroup = serviceLogGroup(this, 'AccessLogs', {
      baseName: `/aws/apigateway/${stackName}/access`,
      // Standard where the automatic blocks subscribe to it: Infrequent Access has no subscription filters.
      logGroupClass: settings.webAcl ? LogGroupClass.STANDARD : logGroupClass({ metricFilters: false }),
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });

    this.api = new RestApi(this, 'RestApi', {
      restApiName: stackName,
      description: `Pet Store API (${settings.stage})`,
      endpointConfiguration: { types: [EndpointType.REGIONAL], ipAddressType: IpAddressType.IPV4 },
      // Only with a custom domain (stages.ts): the execute-api address then answers 403.
      disableExecuteApiEndpoint: settings.disableExecuteApiEndpoint,
      // Content encoding: gzip or deflate when the client accepts it and the body is this large.
      minCompressionSize: Size.bytes(settings.minimumCompressionSizeBytes),
      // The account-level logging role is PetStore-account's (infra/cdk/account-stack.ts), not a
      // stage's: with one per stage, each deploy re-pointed the one account setting.
      cloudWatchRole: false,
      deployOptions: {
        stageName: settings.stage,
        throttlingRateLimit: capacity.apiThrottle.rateLimit,
        throttlingBurstLimit: capacity.apiThrottle.burstLimit,
        tracingEnabled: settings.tracing,
        // Detailed metrics: each method's requests, errors and latency, for the dashboard.
        metricsEnabled: true,
        // Execution logs for errors only, never request/response data (it would hold API keys).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        // The docs routes and the OpenAPI document answer large bodies without a key: the docs'
        // own low throttle. A method setting replaces the stage's, so it repeats the logging settings.
        methodOptions: Object.fromEntries(
          DOCS_THROTTLED_METHODS.map(({ method, resource }) => [
            `/${base}${resource}/${method}`,
            {
              throttlingRateLimit: settings.docsThrottlingRateLimit,
              throttlingBurstLimit: settings.docsThrottlingBurstLimit,
              loggingLevel: MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
            },
          ]),
        ),
      },
    });
    // RestApi adds an `Endpoint` output (the stage root, without /v1); the stack outputs BaseUrl instead.
    this.api.node.tryRemoveChild('Endpoint');
    // The execute-api endpoint takes keys too: TLS 1.2 or 1.3, not the Regional default TLS_1_0
    // (docs/operators.md). RestApi's props have no security policy; its CloudFormation resource does.
    const cfnApi = this.api.node.defaultChild as CfnRestApi;
    cfnApi.securityPolicy = TLS_POLICY;
    cfnApi.endpointAccessMode = EndpointAccessMode.STRICT;
    // A change of them alone redeploys the stage: CDK hashes the RestApi's properties into the deployment's id.

    // Pre-create the execution log group API Gateway would otherwise create without retention. Its
    // name is API Gateway's, so it cannot carry a class (log-groups.ts): Standard, errors only.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${settings.stage}`,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);

    this.addRoutes(props.targets, settings.allowedOrigins);
    this.addReferencePage(props.referenceTarget);
    this.addGatewayResponses(settings.allowedOrigins, settings.webAcl ? capacity.limitHeaders : {});
    this.executeApiBaseUrl = this.api.urlForPath(API_BASE_PATH);
    this.baseUrl = this.executeApiBaseUrl;
    if (settings.customDomain) {
      const { domainName, certificateArn, hostedZoneId, hostedZoneName } = settings.customDomain;
      this.domain = new DomainName(this, 'CustomDomain', {
        domainName,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: TLS_POLICY,
        endpointAccessMode: EndpointAccessMode.STRICT,
      });
      // No base path: the domain's root is the stage, and the `v1` resource gives the prefix.
      new BasePathMapping(this, 'RootMapping', {
        domainName: this.domain,
        restApi: this.api,
        stage: this.api.deploymentStage,
      });
      new ARecord(this, 'AliasRecord', {
        // Given, not looked up: synth needs no AWS account or network.
        zone: HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId, zoneName: hostedZoneName }),
        recordName: `${domainName}.`,
        target: RecordTarget.fromAlias(new ApiGatewayDomain(this.domain)),
      });
      this.baseUrl = `https://${domainName}${API_BASE_PATH}`;
    }
    if (settings.webAcl) {
      const webAcl = new WebAcl(this, 'WebAcl', {
        stage: this.api.deploymentStage,
        baseUrl: this.baseUrl,
        ...capacity.webAcl,
        loadTestSources: settings.loadTestSources,
        blockedSources: settings.blockedSources,
        // Only what WAF blocked is logged (web-acl.ts).
        logGroup: serviceLogGroup(this, 'WafLogs', {
          baseName: `aws-waf-logs-${stackName}`,
          logGroupClass: LogGroupClass.STANDARD,
          retention: props.logRetention,
          removalPolicy: props.logRemovalPolicy,
        }),
      });
      this.webAcl = webAcl;
      this.edgeBlocks = new EdgeBlocks(this, 'EdgeBlocks', {
        webAcl,
        accessLogGroup: this.accessLogGroup,
        rule: floodRule(settings.loadTestSources),
        fn: {
          logLevel: settings.logLevel,
          logRetention: props.logRetention,
          logRemovalPolicy: props.logRemovalPolicy,
          tracing: settings.tracing,
        },
      });
    }

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Clients authenticate with Bearer API keys that the functions verify (hashed keys in DynamoDB); the mocks only answer 404/405.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'No Cognito: clients authenticate with Bearer API keys that the functions verify.',
      },
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Requests are validated in the functions (zod), which answer with the service Error body and precise messages.',
      },
    );
    if (!this.webAcl) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'This stage has its web ACL off (stage setting webAcl): the stage throttle and in-function key checks bound abuse.',
      });
    }
  }

  private addRoutes(targets: PetStoreApiProps['targets'], allowedOrigins: readonly string[]): void {
    // With allowed origins, the gateway's own answers carry CORS for them too (cors-preflight.ts).
    const cors = allowedOrigins.length > 0 ? { origins: allowedOrigins, originHeaders: allowedOriginHeaders } : undefined;
    // `/` and `/v1` answer 404 like any unknown path; `{proxy+}` catches every other unknown path.
    const base = this.api.root.resourceForPath(API_BASE_PATH);
    for (const resource of [this.api.root, base, this.api.root.addResource('{proxy+}')]) {
      addMockMethod(resource, { status: 404, body: NOT_FOUND_BODY, ...(cors ? { cors } : {}) });
    }
    for (const path of resources) {
      const resource = this.api.root.resourceForPath(API_BASE_PATH + path);
      for (const route of routes.filter((r) => r.resource === path)) {
        resource.addMethod(
          route.method,
          // allowTestInvoke off: no extra invoke permission for the console's test button.
          new LambdaIntegration(targets[route.functionId], { proxy: true, allowTestInvoke: false }),
          { operationName: route.operationId, authorizationType: AuthorizationType.NONE },
        );
      }
      // The CORS preflight, answered by the gateway: no function runs.
      if (cors) addPreflight(resource, allowedMethods(path), allowedOrigins);
      // API Gateway prefers a resource's explicit methods over ANY, so ANY sees only the others.
      addMockMethod(resource, methodNotAllowed(`${API_BASE_PATH}${path}`, allowedMethods(path), cors ? { cors } : {}));
    }
    // The OpenAPI document, answered by the gateway itself: no function, no auth (docs/openapi.md).
    const document = this.api.root.resourceForPath(API_BASE_PATH + OPENAPI_DOCUMENT_PATH);
    for (const method of PUBLIC_DOCUMENT_METHODS) {
      addMockMethod(document, {
        method,
        status: 200,
        body: openApiMappingTemplate(),
        // Public, without credentials: browser-hosted tools on any origin may load it by URL.
        headers: { 'Cache-Control': 'no-cache', ...ANY_ORIGIN },
      });
    }
    addMockMethod(document, methodNotAllowed(`${API_BASE_PATH}${OPENAPI_DOCUMENT_PATH}`, PUBLIC_DOCUMENT_METHODS, { headers: ANY_ORIGIN }));
  }

  /** The API reference page and its assets: public like the document, answered (405 included) by one function. */
  private addReferencePage(target: IFunction): void {
    const page = this.api.root.resourceForPath(API_BASE_PATH + REFERENCE_PAGE_PATH);
    const assets = page.addResource('{asset}');
    for (const resource of [page, assets]) {
      resource.addMethod(REFERENCE_PAGE_METHOD, new LambdaIntegration(target, { proxy: true, allowTestInvoke: false }), {
        operationName: resource === page ? 'getReferencePage' : 'getReferenceAsset',
        authorizationType: AuthorizationType.NONE,
      });
    }
  }

  /**
   * A gateway response cannot pick a header by the request's Origin: with one allowed origin it names it (a page on another origin
   * cannot read the answer either way); with several, it only says `Vary: Origin` (docs/cors.md). Each says the client's `limits`.
   */
  private addGatewayResponses(allowedOrigins: readonly string[], limits: Readonly<Record<string, string>>): void {
    const [only] = allowedOrigins;
    const cors = allowedOrigins.length === 1 && only ? allowedOriginHeaders(only) : allowedOrigins.length > 1 ? { Vary: 'Origin' } : {};
    for (const [type, error] of Object.entries(GATEWAY_RESPONSES) as [string, GatewayError][]) {
      new GatewayResponse(this, `Gateway${pascal(type)}`, {
        restApi: this.api,
        type: ResponseType.of(type),
        statusCode: String(ERROR_CODES[error.code]),
        responseHeaders: {
          'Content-Type': quoted('application/json'),
          ...mapValues(withHeaders({ ...COMMON_RESPONSE_HEADERS, ...limits, ...error.headers }, cors), quoted),
          [REQUEST_ID_HEADER]: 'context.requestId',
        },
        templates: { 'application/json': errorBody(error.code, error.message) },
      });
    }
  }
}

interface MockAnswer {
  /** ANY unless given: the mock answers every method the resource has no explicit method for. */
  readonly method?: string;
  readonly status: number;
  /** Mapping template of the response body (VTL: `$context…` is substituted). */
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * CORS: the allowed origins, each answered with these extra headers (`originHeaders(origin)`);
   * `Vary: Origin` on every answer. Without it the mock ignores Origin.
   */
  readonly cors?: { readonly origins: readonly string[]; readonly originHeaders: (origin: string) => Record<string, string> };
}

/** The public documents (the OpenAPI document, the reference page) may be read from any origin. */
const ANY_ORIGIN = { 'Access-Control-Allow-Origin': '*' } as const;

/** The 405 of `path` (as clients address it, `/v1/pets`), which allows `allowed`: Error body and `Allow`. */
function methodNotAllowed(path: string, allowed: readonly string[], more: Pick<MockAnswer, 'headers' | 'cors'> = {}): MockAnswer {
  return { ...more, status: 405, body: methodNotAllowedBody(path, allowed), headers: { Allow: allowed.join(', '), ...more.headers } };
}

/** A method (ANY by default) whose MOCK integration always answers `answer`, with the common headers. */
function addMockMethod(resource: IResource, answer: MockAnswer): void {
  const staticHeaders = withHeaders(
    { 'Content-Type': 'application/json', ...COMMON_RESPONSE_HEADERS, ...answer.headers },
    answer.cors ? { Vary: 'Origin' } : {},
  );
  const perOrigin = (answer.cors?.origins ?? []).map((origin, i) => ({
    statusCode: String(answer.status),
    selectionPattern: originStatus(i),
    responseParameters: responseParameters(withHeaders(staticHeaders, answer.cors?.originHeaders(origin) ?? {})),
    responseTemplates: { 'application/json': answer.body },
  }));
  // Every origin's answer carries the same header names; the first one's stand for all.
  const [firstOrigin] = answer.cors?.origins ?? [];
  const declared = { ...staticHeaders, ...(answer.cors && firstOrigin ? answer.cors.originHeaders(firstOrigin) : {}) };
  const requestTemplate = answer.cors ? originSelectingTemplate(answer.cors.origins) : '{"statusCode": 200}';
  resource.addMethod(
    answer.method ?? 'ANY',
    new MockIntegration({
      passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
      requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((type) => [type, requestTemplate])),
      integrationResponses: [
        // No selectionPattern: the default response, whatever the mock's own status.
        {
          statusCode: String(answer.status),
          responseParameters: responseParameters(staticHeaders),
          responseTemplates: { 'application/json': answer.body },
        },
        ...perOrigin,
      ],
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode: String(answer.status),
          responseParameters: declaredParameters(declared),
        },
      ],
    },
  );
}

/**
 * The CORS preflight (OPTIONS) of a resource: 204 with the methods and headers a page may use for
 * an allowed origin; 403 `forbidden` for any other, with no CORS header, so the browser stops there.
 */
function addPreflight(resource: IResource, methods: readonly string[], origins: readonly string[]): void {
  const forbidden = withHeaders({ 'Content-Type': 'application/json', ...COMMON_RESPONSE_HEADERS }, { Vary: 'Origin' });
  const [first = ''] = origins;
  const allowed = (origin: string) => withHeaders(COMMON_RESPONSE_HEADERS, preflightHeaders(origin, methods));
  const requestTemplate = originSelectingTemplate(origins);
  resource.addMethod(
    'OPTIONS',
    new MockIntegration({
      passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
      requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((type) => [type, requestTemplate])),
      integrationResponses: [
        {
          statusCode: '403',
          responseParameters: responseParameters(forbidden),
          responseTemplates: {
            // Static: echoing the client's Origin into JSON would let it write the body.
            'application/json': errorBody(
              'forbidden',
              "This origin may not call this API from a browser (CORS): it is not in the stage's allowedOrigins.",
            ),
          },
        },
        ...origins.map((origin, i) => ({
          statusCode: '204',
          selectionPattern: originStatus(i),
          responseParameters: responseParameters(allowed(origin)),
          responseTemplates: { 'application/json': '' },
        })),
      ],
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [
        { statusCode: '403', responseParameters: declaredParameters(forbidden) },
        { statusCode: '204', responseParameters: declaredParameters(allowed(first)) },
      ],
    },
  );
}

/** An integration response's header mappings: each static value quoted, plus the request id. */
function responseParameters(headers: Readonly<Record<string, string>>): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, quoted(value)])),
    [`method.response.header.${REQUEST_ID_HEADER}`]: 'context.requestId',
  };
}

/** The method response's declaration of those headers (API Gateway requires it). */
function declaredParameters(headers: Readonly<Record<string, string>>): Record<string, boolean> {
  return Object.fromEntries([...Object.keys(headers), REQUEST_ID_HEADER].map((name) => [`method.response.header.${name}`, true]));
}

function quoted(value: string): string {
  return `'${value}'`;
}
