/**
 * The automatic blocks in the template: the access log (Standard class) feeds the blocking function
 * through a subscription filter; the function may read and write the automatic-blocks IP set and
 * nothing else of WAF; the web ACL answers that set, and an operator's blocked sources, with 403;
 * an alarm says when it blocks; WAF's logs hash the Authorization header.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FLOOD_ENV } from '#lib/edge/flood-detector.ts';
import { floodRule } from '../../infra/cdk/constructs/edge-blocks.ts';
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
const blocking = synth({ context: { 'staging.blockedSources': '192.0.2.0/24', 'staging.loadTestSources': '198.51.100.0/24' } });
afterAll(() => {
  app.cleanup();
  blocking.cleanup();
});

describe.each(STAGE_NAMES)('%s automatic blocks', (stage) => {
  const template = app.templates[stage];
  const stack = app.stacks[stage];
  const edge = stack.api.edgeBlocks;
  const fnId = logicalId(edge?.function);
  const [[setId, set]] = Object.entries(resourcesOf(template, 'AWS::WAFv2::IPSet')).filter(([, s]) =>
    String(s.Properties?.Name).endsWith('-automatic-blocks-ipv4'),
  ) as unknown as [[string, { Properties: Record<string, unknown> }]];

  it('feeds every access log line to the blocking function, from a Standard-class group', () => {
    const filters = Object.values(resourcesOf(template, 'AWS::Logs::SubscriptionFilter'));
    expect(filters).toHaveLength(1);
    expect(filters[0]?.Properties).toMatchObject({
      LogGroupName: { Ref: logicalId(stack.api.accessLogGroup) },
      DestinationArn: { 'Fn::GetAtt': [fnId, 'Arn'] },
      FilterPattern: '',
    });
    const group = resourcesOf(template, 'AWS::Logs::LogGroup')[logicalId(stack.api.accessLogGroup)];
    expect(group?.Properties).toMatchObject({ LogGroupName: `/aws/apigateway/PetStore-${stage}/access`, LogGroupClass: 'STANDARD' });
  });

  it('gives the function the rule and the set, and WAF rights to that set only', () => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[fnId];
    const variables = (fn?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    expect(JSON.parse(String(variables[FLOOD_ENV.rule]))).toEqual(floodRule(stack.settings.loadTestSources));
    expect(variables[FLOOD_ENV.ipSetId]).toEqual({ 'Fn::GetAtt': [setId, 'Id'] });
    expect(variables[FLOOD_ENV.ipSetName]).toBe(set.Properties.Name);
    const statements = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).flatMap(
      (p) =>
        (p.Properties as { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } }).PolicyDocument.Statement,
    );
    const waf = statements.filter((s) => JSON.stringify(s.Action).includes('wafv2:'));
    expect(waf).toEqual([
      expect.objectContaining({ Action: ['wafv2:GetIPSet', 'wafv2:UpdateIPSet'], Resource: { 'Fn::GetAtt': [setId, 'Arn'] } }),
    ]);
  });

  it('starts empty, the same whatever the settings, so no deploy changes (or lifts) what the function wrote', () => {
    expect(set.Properties).toMatchObject({
      Name: `PetStore-${stage}-automatic-blocks-ipv4`,
      Scope: 'REGIONAL',
      IPAddressVersion: 'IPV4',
      Addresses: [],
    });
    const other = Object.values(resourcesOf(blocking.templates[stage], 'AWS::WAFv2::IPSet')).find(
      (s) => s.Properties?.Name === set.Properties.Name,
    );
    expect(other?.Properties).toEqual(set.Properties);
  });

  it('alarms while the automatic-blocks rule refuses requests', () => {
    const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm')[logicalId(edge?.alarm)];
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: expect.arrayContaining([{ Name: 'Rule', Value: `PetStore-${stage}-automatic-blocks` }]),
    });
    expect(Boolean(alarm?.Properties?.AlarmActions)).toBe(stack.monitoring.topic !== undefined);
  });

  it('releases on a schedule too, when no access log line comes', () => {
    expect(Object.values(resourcesOf(template, 'AWS::Events::Rule')).map((r) => r.Properties?.ScheduleExpression)).toContain(
      'rate(5 minutes)',
    );
  });

  it('hashes the Authorization header wherever WAF logs or samples it', () => {
    const [acl] = Object.values(resourcesOf(template, 'AWS::WAFv2::WebACL'));
    expect(acl?.Properties?.DataProtectionConfig).toEqual({
      DataProtections: [{ Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization'] }, Action: 'HASH' }],
    });
  });
});

describe('a block is 403, not "slow down"', () => {
  const [acl] = Object.values(resourcesOf(blocking.templates.staging, 'AWS::WAFv2::WebACL'));
  const rules = acl?.Properties?.Rules as {
    Name: string;
    Priority: number;
    Action: { Block: { CustomResponse: Record<string, unknown> } };
  }[];

  it('answers the operator’s and the automatic blocks first, with the forbidden body and no Retry-After', () => {
    expect(rules.slice(0, 2).map((r) => r.Name)).toEqual(['blocked-sources', 'automatic-blocks']);
    for (const rule of rules.slice(0, 2)) {
      const response = rule.Action.Block.CustomResponse;
      expect(response).toMatchObject({ ResponseCode: 403, CustomResponseBodyKey: 'forbidden' });
      expect(JSON.stringify(response.ResponseHeaders)).not.toContain('Retry-After');
    }
    const bodies = acl?.Properties?.CustomResponseBodies as Record<string, { Content: string }>;
    expect(JSON.parse(bodies.forbidden?.Content ?? '')).toMatchObject({ code: 'forbidden', status: 403 });
  });
});
