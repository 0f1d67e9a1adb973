/**
 * The limits of each stage on its template: the WAF web ACL with per-client rate rules and its
 * Error-shaped 429 (production by default), reserved concurrency on every function, what a client
 * gets when a function is throttled, and the docs routes' own method throttle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/gateway-responses.ts';
import { RATE_LIMITED_BODY_KEY, WEB_ACL_WINDOW_SECONDS } from '../../infra/cdk/constructs/web-acl.ts';
import { readStageSettings, STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
const staged = synth({ context: { 'staging.webAcl': 'true', 'staging.webAclPerKeyPerMinute': '20' } });
afterAll(() => {
  app.cleanup();
  staged.cleanup();
});

describe('the web ACL', () => {
  const production = app.templates.production;
  const settings = readStageSettings('production', () => undefined);

  it('is on in production and off in staging by default, each stage saying why in its settings', () => {
    expect(settings.webAcl).toBe(true);
    expect(readStageSettings('staging', () => undefined).webAcl).toBe(false);
    production.resourceCountIs('AWS::WAFv2::WebACL', 1);
    app.templates.staging.resourceCountIs('AWS::WAFv2::WebACL', 0);
    app.templates.staging.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });

  it('limits each source IP and each Authorization value over a one-minute window, and allows the rest', () => {
    const [acl] = Object.values(resourcesOf(production, 'AWS::WAFv2::WebACL'));
    const props = acl?.Properties as Record<string, unknown>;
    expect(props).toMatchObject({ Name: 'PetStore-production', Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(JSON.stringify(props)).not.toMatch(/Token/);
    const rules = props.Rules as { Name: string; Statement: { RateBasedStatement: Record<string, unknown> } }[];
    expect(rules.map((r) => r.Statement.RateBasedStatement)).toEqual([
      { AggregateKeyType: 'IP', Limit: settings.webAclPerIpPerMinute, EvaluationWindowSec: 60 },
      {
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
        Limit: settings.webAclPerKeyPerMinute,
        EvaluationWindowSec: 60,
      },
    ]);
    // Metrics, but no sampled requests: a sample would keep the Authorization header.
    expect(JSON.stringify(props)).not.toContain('"SampledRequestsEnabled":true');
  });

  it('blocks with a 429 in the Error shape, JSON, with Retry-After of one window', () => {
    const [acl] = Object.values(resourcesOf(production, 'AWS::WAFv2::WebACL'));
    const props = acl?.Properties as Record<string, Record<string, { ContentType: string; Content: string }>> & {
      Rules: { Action: unknown }[];
    };
    const body = props.CustomResponseBodies?.[RATE_LIMITED_BODY_KEY];
    expect(body?.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body?.Content ?? '')).toEqual({ code: 'too_many_requests', message: expect.any(String), status: 429 });
    for (const rule of props.Rules) {
      expect(rule.Action).toEqual({
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: RATE_LIMITED_BODY_KEY,
            ResponseHeaders: expect.arrayContaining([
              { Name: 'Retry-After', Value: String(WEB_ACL_WINDOW_SECONDS) },
              { Name: 'Cache-Control', Value: 'no-store' },
            ]),
          },
        },
      });
    }
  });

  it('is associated with the stage', () => {
    const [stageId] = Object.keys(resourcesOf(production, 'AWS::ApiGateway::Stage'));
    const [aclId] = Object.keys(resourcesOf(production, 'AWS::WAFv2::WebACL'));
    const associations = Object.values(resourcesOf(production, 'AWS::WAFv2::WebACLAssociation'));
    expect(associations).toHaveLength(1);
    expect(associations[0]?.Properties?.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    // arn:…:apigateway:<region>::/restapis/<api>/stages/<stage>
    expect(JSON.stringify(associations[0]?.Properties?.ResourceArn)).toMatch(
      new RegExp(`/restapis/",\\{"Ref":"\\w+"\\},"/stages/",\\{"Ref":"${stageId}"\\}`),
    );
  });

  it('follows the stage settings: on in staging when asked, with its limits', () => {
    const [acl] = Object.values(resourcesOf(staged.templates.staging, 'AWS::WAFv2::WebACL'));
    const rules = (acl?.Properties?.Rules ?? []) as { Statement: { RateBasedStatement: { Limit: number } } }[];
    expect(rules.map((r) => r.Statement.RateBasedStatement.Limit)).toEqual([
      readStageSettings('staging', () => undefined).webAclPerIpPerMinute,
      20,
    ]);
    staged.templates.staging.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
  });
});

describe.each(STAGE_NAMES)('%s function limits', (stage) => {
  const template = app.templates[stage];
  const settings = readStageSettings(stage, () => undefined);

  it('reserves concurrency for every function: the stage setting for the API functions, the docs burst for docs', () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    const docsId = logicalId(app.stacks[stage].referenceFunction);
    expect(Object.keys(functions).length).toBeGreaterThan(1);
    for (const [id, fn] of Object.entries(functions)) {
      const expected = id === docsId ? settings.docsThrottlingBurstLimit : settings.reservedConcurrency;
      expect(fn.Properties?.ReservedConcurrentExecutions, id).toBe(expected);
    }
  });

  it('answers a throttled function (INTEGRATION_FAILURE) with 503 service_unavailable and Retry-After', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'INTEGRATION_FAILURE',
      StatusCode: '503',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      ResponseTemplates: { 'application/json': Match.serializedJson(Match.objectLike({ code: 'service_unavailable', status: 503 })) },
    });
    expect(GATEWAY_RESPONSES.INTEGRATION_FAILURE.headers['Retry-After']).toBe('1');
  });

  it('throttles the docs routes by their own, lower method setting', () => {
    const [stageResource] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    const methodSettings = stageResource?.Properties?.MethodSettings as Record<string, unknown>[];
    const docs = { ThrottlingRateLimit: settings.docsThrottlingRateLimit, ThrottlingBurstLimit: settings.docsThrottlingBurstLimit };
    expect(methodSettings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ResourcePath: '/~1v1~1docs', HttpMethod: 'GET', LoggingLevel: 'ERROR', ...docs }),
        expect.objectContaining({ ResourcePath: '/~1v1~1docs~1{asset}', HttpMethod: 'GET', LoggingLevel: 'ERROR', ...docs }),
      ]),
    );
    expect(settings.docsThrottlingRateLimit).toBeLessThan(settings.throttlingRateLimit);
  });
});
