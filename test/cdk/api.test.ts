/**
 * The REST API of both stages: `/v1/pets` and `/v1/pets/{petId}` with Lambda proxy integrations,
 * mocks that answer 404/405 exactly like local mode, Gateway Responses in the Error shape, the stage
 * named after the environment with its throttling and JSON access logs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type CfnRestApi, ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { buildApp } from '../../infra/cdk/app.ts';
import { ERROR_CODES } from '#lib/http/errors.ts';
import { buildOpenApiDocument } from '../../infra/openapi/document.ts';
import { openApiMappingTemplate } from '../../infra/openapi/serve.ts';
import { methodNotAllowedError, notFoundError } from '#lib/http/gateway-errors.ts';
import { allowedMethods, resources, routes } from '#lib/routes.ts';
import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/gateway-responses.ts';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { cdkJsonContext, readStageSettings, STAGE_NAMES, type StageName } from '../../infra/cdk/stages.ts';
import { resourcesOf, synth, logicalId } from './synth.ts';

const app = synth();
afterAll(() => app.cleanup());

// `any` on purpose: CloudFormation JSON is untyped, and the assertions below check its shape.
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped; the assertions check its shape.
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json> };

function all(template: Template, type: string): Record<string, Resource> {
  return resourcesOf(template, type) as Record<string, Resource>;
}

/** Path of every API Gateway resource id (`/`, `/v1`, `/v1/pets`, …). */
function resourcePaths(template: Template): Map<string, string> {
  const apiResources = all(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const cached = paths.get(id);
    if (cached) return cached;
    const resource = apiResources[id];
    if (!resource) throw new Error(`No resource ${id}`);
    const parent = resource.Properties.ParentId as { Ref?: string; 'Fn::GetAtt'?: unknown };
    const parentPath = parent.Ref ? pathOf(parent.Ref) : '';
    const path = `${parentPath}/${resource.Properties.PathPart as string}`;
    paths.set(id, path);
    return path;
  };
  for (const id of Object.keys(apiResources)) pathOf(id);
  return paths;
}

interface MethodInfo {
  readonly path: string;
  readonly method: string;
  readonly properties: Record<string, Json>;
}

function methods(template: Template): MethodInfo[] {
  const paths = resourcePaths(template);
  return Object.values(all(template, 'AWS::ApiGateway::Method')).map((m) => {
    const resourceId = m.Properties.ResourceId as { Ref?: string };
    return {
      path: resourceId.Ref ? (paths.get(resourceId.Ref) as string) : '/',
      method: m.Properties.HttpMethod as string,
      properties: m.Properties,
    };
  });
}

function methodAt(template: Template, path: string, method: string): MethodInfo {
  const found = methods(template).filter((m) => m.path === path && m.method === method);
  expect(found, `${method} ${path}`).toHaveLength(1);
  return found[0] as MethodInfo;
}

/** What a mapping template renders to once API Gateway substitutes `$context.httpMethod`. */
function render(template: string, httpMethod = 'DELETE'): unknown {
  return JSON.parse(template.replaceAll('$context.httpMethod', httpMethod));
}

describe.each(STAGE_NAMES)('%s REST API', (stage: StageName) => {
  const template = app.templates[stage];
  const stack = app.stacks[stage];

  it('has a v1 resource at the root with the route resources under it', () => {
    const paths = [...resourcePaths(template).values()].sort();
    expect(paths).toEqual(['/v1', '/v1/docs', '/v1/docs/{asset}', '/v1/openapi.json', '/v1/pets', '/v1/pets/{petId}', '/{proxy+}'].sort());
    expect(resources.map((r) => `/v1${r}`).every((p) => paths.includes(p))).toBe(true);
  });

  it.each(routes.map((r) => [r.method, r.resource, r] as const))('%s %s is a Lambda proxy integration of its function', (_m, _r, route) => {
    const method = methodAt(template, `/v1${route.resource}`, route.method);
    expect(method.properties.Integration.Type).toBe('AWS_PROXY');
    expect(method.properties.Integration.IntegrationHttpMethod).toBe('POST');
    expect(method.properties.OperationName).toBe(route.operationId);
    // Staging invokes the function itself; production its `live` alias, which CodeDeploy shifts.
    const target = stage === 'production' ? logicalId(stack.liveAliases?.[route.functionId]) : logicalId(stack.functions[route.functionId]);
    expect(JSON.stringify(method.properties.Integration.Uri)).toContain(`"${target}"`);
  });

  it('serves the API reference page and its assets from the docs function, public, on one method for every HTTP method', () => {
    for (const path of ['/v1/docs', '/v1/docs/{asset}']) {
      // ANY: the function answers GET and HEAD, and 405 to the others (test/api/reference-page.test.ts).
      const any = methodAt(template, path, 'ANY').properties;
      expect(any.AuthorizationType).toBe('NONE');
      expect(any.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(any.Integration.Uri)).toContain(`"${logicalId(stack.referenceFunction)}"`);
    }
  });

  it('has no methods besides the routes and the mocks', () => {
    const expected = [
      ...routes.map((r) => `${r.method} /v1${r.resource}`),
      ...resources.map((r) => `ANY /v1${r}`),
      'ANY /',
      'ANY /v1',
      'ANY /{proxy+}',
      'GET /v1/openapi.json',
      'HEAD /v1/openapi.json',
      'ANY /v1/openapi.json',
      'ANY /v1/docs',
      'ANY /v1/docs/{asset}',
    ];
    expect(
      methods(template)
        .map((m) => `${m.method} ${m.path}`)
        .sort(),
    ).toEqual(expected.sort());
  });

  it.each(resources)('ANY on %s answers 405 with Allow, exactly like local mode', (resource) => {
    const method = methodAt(template, `/v1${resource}`, 'ANY');
    expect(method.properties.Integration.Type).toBe('MOCK');
    const [response, ...others] = method.properties.Integration.IntegrationResponses;
    expect(others).toHaveLength(0);
    expect(response.SelectionPattern).toBeUndefined();
    expect(response.StatusCode).toBe('405');
    const local = methodNotAllowedError('DELETE', resource);
    expect(render(response.ResponseTemplates['application/json'], 'DELETE')).toEqual(local.toBody());
    expect(response.ResponseParameters).toMatchObject({
      'method.response.header.Allow': `'${allowedMethods(resource).join(', ')}'`,
      'method.response.header.Content-Type': "'application/json'",
      'method.response.header.X-Request-Id': 'context.requestId',
    });
    expect(local.headers.Allow).toBe(allowedMethods(resource).join(', '));
    expect(method.properties.MethodResponses).toEqual([
      expect.objectContaining({ StatusCode: '405', ResponseParameters: expect.objectContaining({ 'method.response.header.Allow': true }) }),
    ]);
  });

  it.each(['GET', 'HEAD'])('serves the OpenAPI document from a mock (%s), without auth, as generated', (verb) => {
    const method = methodAt(template, '/v1/openapi.json', verb);
    expect(method.properties.AuthorizationType).toBe('NONE');
    expect(method.properties.Integration.Type).toBe('MOCK');
    const [response] = method.properties.Integration.IntegrationResponses;
    expect(response.StatusCode).toBe('200');
    expect(response.ResponseTemplates['application/json']).toBe(openApiMappingTemplate());
    expect(JSON.parse(response.ResponseTemplates['application/json'])).toEqual(buildOpenApiDocument());
    expect(response.ResponseParameters['method.response.header.Content-Type']).toBe("'application/json'");
    const other = methodAt(template, '/v1/openapi.json', 'ANY');
    expect(other.properties.Integration.IntegrationResponses[0].StatusCode).toBe('405');
    expect(other.properties.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Allow']).toBe("'GET, HEAD'");
  });

  it.each(['/', '/v1', '/{proxy+}'])('ANY on %s answers 404 not_found, exactly like local mode', (path) => {
    const method = methodAt(template, path, 'ANY');
    expect(method.properties.Integration.Type).toBe('MOCK');
    const [response] = method.properties.Integration.IntegrationResponses;
    expect(response.StatusCode).toBe('404');
    expect(render(response.ResponseTemplates['application/json'])).toEqual(notFoundError().toBody());
    expect(response.ResponseParameters['method.response.header.Content-Type']).toBe("'application/json'");
    expect(method.properties.Integration.RequestTemplates['application/json']).toBe('{"statusCode": 200}');
  });

  it('lets every mock answer whatever the Content-Type: routing answers come before media-type checks', () => {
    const mocks = methods(template).filter((m) => m.properties.Integration.Type === 'MOCK');
    expect(mocks.length).toBeGreaterThan(5);
    for (const { method, path, properties } of mocks) {
      // A Content-Type without a request template passes through to the mock's default response
      // (the one without a selection pattern), never the gateway's 415.
      expect(properties.Integration.PassthroughBehavior, `${method} ${path}`).toBe('WHEN_NO_MATCH');
      const defaults = properties.Integration.IntegrationResponses.filter((r: { SelectionPattern?: string }) => !r.SelectionPattern);
      expect(defaults, `${method} ${path}`).toHaveLength(1);
    }
  });

  it('answers every gateway-made error with the Error body, JSON and the request id', () => {
    const gatewayResponses = Object.values(all(template, 'AWS::ApiGateway::GatewayResponse'));
    const allTypes = Object.getOwnPropertyNames(ResponseType).filter(
      (key) => (ResponseType as unknown as Record<string, unknown>)[key] instanceof ResponseType,
    );
    expect(gatewayResponses.map((g) => g.Properties.ResponseType).sort()).toEqual(allTypes.sort());
    for (const { Properties: p } of gatewayResponses) {
      const body = JSON.parse(p.ResponseTemplates['application/json']) as { code: string; message: string; status: number };
      expect(Object.keys(body).sort(), p.ResponseType).toEqual(['code', 'message', 'status']);
      expect(String(body.status), p.ResponseType).toBe(p.StatusCode);
      expect(body.code).toMatch(/^[a-z_]+$/);
      if (body.code in ERROR_CODES) expect(body.status).toBe(ERROR_CODES[body.code as keyof typeof ERROR_CODES]);
      expect(p.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Content-Type': "'application/json'",
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
      });
    }
  });

  it.each([
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'not_found'],
    ['RESOURCE_NOT_FOUND', '404', 'not_found'],
    ['THROTTLED', '429', 'too_many_requests'],
    ['QUOTA_EXCEEDED', '429', 'too_many_requests'],
    ['INTEGRATION_TIMEOUT', '504', 'gateway_timeout'],
    ['INTEGRATION_FAILURE', '503', 'service_unavailable'],
    ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
    ['UNSUPPORTED_MEDIA_TYPE', '415', 'unsupported_media_type'],
    ['BAD_REQUEST_BODY', '400', 'validation_failed'],
    ['UNAUTHORIZED', '401', 'unauthorized'],
    ['ACCESS_DENIED', '403', 'forbidden'],
    ['DEFAULT_4XX', '400', 'validation_failed'],
    ['DEFAULT_5XX', '500', 'internal_error'],
  ])('%s → %s %s', (type, status, code) => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: type,
      StatusCode: status,
      ResponseTemplates: { 'application/json': Match.serializedJson(Match.objectLike({ code, status: Number(status) })) },
    });
  });

  it("says the client's limits on every answer of its own, the throttle's 429 among them", () => {
    const limits = stageCapacity(readStageSettings(stage, () => undefined)).limitHeaders;
    for (const response of Object.values(all(template, 'AWS::ApiGateway::GatewayResponse'))) {
      expect(response.Properties.ResponseParameters).toMatchObject(
        Object.fromEntries(Object.entries(limits).map(([name, value]) => [`gatewayresponse.header.${name}`, `'${value}'`])),
      );
    }
  });

  it('gives unknown paths the same body as local mode', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      ResponseTemplates: { 'application/json': JSON.stringify(notFoundError().toBody()) },
    });
    expect(GATEWAY_RESPONSES.THROTTLED.headers['Retry-After']).toBe('1');
  });

  it(`names the deployment stage "${stage}" and throttles it from context`, () => {
    const { rateLimit, burstLimit } = stageCapacity(readStageSettings(stage, () => undefined)).apiThrottle;
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: stage,
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: rateLimit,
          ThrottlingBurstLimit: burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]),
    });
  });

  it('writes JSON access logs that never include headers', () => {
    const [stageResource] = Object.values(all(template, 'AWS::ApiGateway::Stage'));
    const format = stageResource?.Properties.AccessLogSetting.Format as string;
    const fields = JSON.parse(format) as Record<string, string>;
    expect(fields).toMatchObject({ requestId: '$context.requestId', status: '$context.status', httpMethod: '$context.httpMethod' });
    expect(format.toLowerCase()).not.toMatch(/authorization|header|apikey|api_key/);
    const logGroupId = stageResource?.Properties.AccessLogSetting.DestinationArn['Fn::GetAtt'][0] as string;
    expect(template.toJSON().Resources[logGroupId].Properties).toMatchObject({
      // Standard: the automatic blocks subscribe to it (test/cdk/edge-blocks.test.ts), which Infrequent Access cannot.
      LogGroupName: `/aws/apigateway/PetStore-${stage}/access`,
      LogGroupClass: 'STANDARD',
    });
  });

  it('subscribes only the automatic blocks to its logs', () => {
    expect(Object.values(all(template, 'AWS::Logs::SubscriptionFilter')).map((f) => f.Properties.DestinationArn)).toEqual([
      { 'Fn::GetAtt': [logicalId(stack.api.edgeBlocks?.function), 'Arn'] },
    ]);
  });

  it('is a regional API on IPv4, without the RestApi default Endpoint output', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: `PetStore-${stage}`,
      EndpointConfiguration: { Types: ['REGIONAL'], IpAddressType: 'ipv4' },
    });
    expect(Object.keys(template.toJSON().Outputs ?? {}).some((id) => id.includes('Endpoint'))).toBe(false);
  });

  it('takes keys over TLS 1.2 or 1.3 only on its execute-api endpoint, never the Regional default TLS_1_0', () => {
    // An enhanced policy, which needs an endpoint access mode (STRICT: SNI must match the host).
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
  });

  it('outputs a base URL ending in /<stage>/v1', () => {
    const value = template.toJSON().Outputs.BaseUrl.Value as { 'Fn::Join': [string, unknown[]] };
    const parts = value['Fn::Join'][1];
    expect(parts[0]).toBe('https://');
    expect(parts.at(-1)).toBe('/v1');
    expect(JSON.stringify(parts)).toContain('.execute-api.');
    expect(parts.at(-2)).toEqual({ Ref: logicalId(stack.api.api.deploymentStage) });
  });

  it('has no custom domain unless context asks for one', () => {
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    template.resourceCountIs('AWS::ApiGateway::BasePathMapping', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });
});

describe('CORS', () => {
  const ORIGINS = ['https://app.example.com', 'http://localhost:5173'];

  it('is off by default: no preflight method, no ALLOWED_ORIGINS, the document public to every origin', () => {
    const staging = app.templates.staging;
    expect(methods(staging).filter((m) => m.method === 'OPTIONS')).toEqual([]);
    for (const fn of Object.values(all(staging, 'AWS::Lambda::Function')))
      expect(fn.Properties.Environment?.Variables ?? {}).not.toHaveProperty('ALLOWED_ORIGINS');
    for (const method of ['GET', 'ANY']) {
      const [response] = methodAt(staging, '/v1/openapi.json', method).properties.Integration.IntegrationResponses;
      expect(response.ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe("'*'");
    }
  });

  it('with allowedOrigins: a gateway-answered preflight per pet resource, one integration response per origin, and the functions told', () => {
    const cors = synth({ context: { 'staging.allowedOrigins': ORIGINS.join(',') } });
    try {
      const template = cors.templates.staging;
      for (const path of ['/v1/pets', '/v1/pets/{petId}']) {
        const preflight = methodAt(template, path, 'OPTIONS').properties.Integration;
        expect(preflight.Type).toBe('MOCK');
        expect(preflight.RequestTemplates['application/json']).toContain(`"${ORIGINS[1]}"`);
        const [denied, ...allowed] = preflight.IntegrationResponses;
        expect(denied).toMatchObject({ StatusCode: '403' });
        expect(denied.SelectionPattern).toBeUndefined();
        expect(
          allowed.map((r: Json) => [
            r.SelectionPattern,
            r.StatusCode,
            r.ResponseParameters['method.response.header.Access-Control-Allow-Origin'],
          ]),
        ).toEqual([
          ['201', '204', `'${ORIGINS[0]}'`],
          ['202', '204', `'${ORIGINS[1]}'`],
        ]);
        const wrongMethod = methodAt(template, path, 'ANY').properties.Integration.IntegrationResponses;
        expect(wrongMethod.map((r: Json) => r.ResponseParameters['method.response.header.Access-Control-Allow-Origin'])).toEqual([
          undefined,
          `'${ORIGINS[0]}'`,
          `'${ORIGINS[1]}'`,
        ]);
      }
      for (const fn of Object.values(cors.stacks.staging.functions)) {
        expect(template.toJSON().Resources[logicalId(fn)].Properties.Environment.Variables.ALLOWED_ORIGINS).toBe(ORIGINS.join(','));
      }
      // Two origins: a gateway response cannot choose, so it only varies.
      const throttled = Object.values(all(template, 'AWS::ApiGateway::GatewayResponse')).find(
        (r) => r.Properties.ResponseType === 'THROTTLED',
      );
      expect(throttled?.Properties.ResponseParameters['gatewayresponse.header.Vary']).toBe("'Accept-Encoding, Origin'");
      expect(throttled?.Properties.ResponseParameters).not.toHaveProperty('gatewayresponse.header.Access-Control-Allow-Origin');
    } finally {
      cors.cleanup();
    }
  });
});

describe('content encoding', () => {
  it.each(['staging', 'production'] as const)('%s compresses response bodies of 1 KiB and more (cdk.json)', (stage) => {
    app.templates[stage].hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: 1024 });
  });
});

describe('stages differ where they should', () => {
  it('throttles production higher than staging', () => {
    const limits = (stage: StageName) => {
      const [s] = Object.values(all(app.templates[stage], 'AWS::ApiGateway::Stage'));
      return s?.Properties.MethodSettings[0] as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
    };
    expect(limits('production').ThrottlingRateLimit).toBeGreaterThan(limits('staging').ThrottlingRateLimit);
    expect(limits('production').ThrottlingBurstLimit).toBeGreaterThan(limits('staging').ThrottlingBurstLimit);
  });
});

describe('a change of the TLS policy alone', () => {
  it("makes a new deployment, so the stage serves it (CDK hashes the RestApi's properties into its id)", () => {
    const staging = (securityPolicy?: string) => {
      const { stacks } = buildApp({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
      if (securityPolicy) (stacks.staging.api.api.node.defaultChild as CfnRestApi).securityPolicy = securityPolicy;
      const template = Template.fromStack(stacks.staging);
      const [deployment] = Object.keys(all(template, 'AWS::ApiGateway::Deployment'));
      const [stageResource] = Object.values(all(template, 'AWS::ApiGateway::Stage'));
      expect(stageResource?.Properties.DeploymentId).toEqual({ Ref: deployment });
      return deployment;
    };
    const before = staging();
    expect(before).toBe(Object.keys(all(app.templates.staging, 'AWS::ApiGateway::Deployment'))[0]);
    expect(staging('SecurityPolicy_TLS13_1_3_2025_09')).not.toBe(before);
  });
});
