/**
 * What operators rely on: alarms (paging in production), canary deployments in production only,
 * stack outputs for the key CLI, the optional custom domain and alarm e-mail from context, and a
 * clean cdk-nag report on both stacks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Alias, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, LogGroupClass } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ENV } from '#lib/config.ts';
import { allTables } from '#lib/store/tables.ts';
import { functionIds } from '#lib/operations.ts';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { cdkJsonContext, OUTPUT_IDS, readStageSettings, STAGE_NAMES, type StageName, tableNameOutputId } from '../../infra/cdk/stages.ts';
import {
  CANARY,
  CANARY_DEPLOYMENT,
  CANARY_EXCESS,
  CANARY_MIN_REQUESTS,
  LOG_COUNTED_WINDOW,
  LOG_DELAY_MINUTES,
  Monitoring,
} from '../../infra/cdk/constructs/monitoring.ts';
import { resourcesOf, synth, logicalId } from './synth.ts';

const plain = synth();
const domain = {
  domainName: 'api.petstore.example.com',
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'petstore.example.com',
};
// The other shapes context can take: flat `-c <stage>.<key>=…` values for production, and the
// nested `stages` object (merged over cdk.json's) for staging.
const customised = synth({
  context: {
    ...Object.fromEntries(Object.entries(domain).map(([key, value]) => [`production.${key}`, value])),
    'production.alarmEmail': 'oncall@example.com',
    'staging.alarmEmail': 'team@example.com',
    'staging.burstSeconds': '1',
  },
});
afterAll(() => {
  plain.cleanup();
  customised.cleanup();
});

function alarmActions(stage: StageName, app = plain): unknown[] {
  return Object.values(resourcesOf(app.templates[stage], 'AWS::CloudWatch::Alarm')).map((a) => a.Properties?.AlarmActions);
}

describe.each(STAGE_NAMES)('%s alarms', (stage) => {
  const template = plain.templates[stage];

  it("watches the 5xx rate clients saw, API Gateway's 5XXError and every function's throttles over Count, and the p99 latency", () => {
    // API Gateway counts the 503 it answers for a throttled function as 4XXError (its status is
    // set: gateway-responses.ts); Lambda's Throttles of each function count those.
    const [alarm] = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { AlarmName: `PetStore-${stage}-api-5xx-rate` } }),
    );
    const { Metrics: queries, Threshold } = propertiesOf<{ Metrics: MetricQuery[]; Threshold: number }>(alarm);
    expect(Threshold).toBe(0.01);
    const functions = [...functionIds, 'docs'].map((name) => ({ Ref: logicalId(functionOf(stage, name)) }));
    const throttles = functions.map((_, i) => `throttles${i}`);
    expect(queries.find((q) => q.Expression)?.Expression).toBe(
      `(${['apiErrors', ...throttles].map((id) => `FILL(${id}, 0)`).join(' + ')}) / requests`,
    );
    const api = [
      { Name: 'ApiName', Value: `PetStore-${stage}` },
      { Name: 'Stage', Value: stage },
    ];
    const operands = queries.filter((q) => q.MetricStat);
    expect(Object.fromEntries(operands.map((q) => [q.Id, q.MetricStat]))).toEqual({
      apiErrors: { Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5XXError', Dimensions: api }, Period: 60, Stat: 'Sum' },
      requests: { Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: api }, Period: 60, Stat: 'Sum' },
      ...Object.fromEntries(
        functions.map((fn, i) => [
          `throttles${i}`,
          {
            Metric: { Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: [{ Name: 'FunctionName', Value: fn }] },
            Period: 60,
            Stat: 'Sum',
          },
        ]),
      ),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `PetStore-${stage}-api-p99-latency`,
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: 2000,
    });
  });

  it("filters metrics only from the canary's functions' log groups (the access log's class has no metric filters)", () => {
    const filtered = new Set(
      Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter')).map((f) => propertiesOf<MetricFilterProperties>(f).LogGroupName.Ref),
    );
    expect([...filtered].sort()).toEqual(stage === 'production' ? functionIds.map((name) => functionLogGroupId(name)).sort() : []);
    expect(filtered.has(accessLogGroupId(stage))).toBe(false);
  });

  it("names the API and stage in the latency alarm's dimensions as plain strings that match the deployed ones", () => {
    // Plain strings, not references: a reference to the stage from an alarm a deployment group
    // watches would close a dependency cycle (test/cdk/dependency-graph.test.ts).
    const [api] = Object.values(resourcesOf(template, 'AWS::ApiGateway::RestApi'));
    const [deployedStage] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    const dimensions = [
      { Name: 'ApiName', Value: api?.Properties?.Name },
      { Name: 'Stage', Value: deployedStage?.Properties?.StageName },
    ];
    expect(dimensions).toEqual([
      { Name: 'ApiName', Value: `PetStore-${stage}` },
      { Name: 'Stage', Value: stage },
    ]);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `PetStore-${stage}-api-p99-latency`,
      Namespace: 'AWS/ApiGateway',
      Dimensions: dimensions,
    });
  });

  it.each([...functionIds, 'docs'])('watches errors and throttles of %s (throttles: admitted requests shed as 503)', (name) => {
    for (const [suffix, metric] of [
      ['errors', 'Errors'],
      ['throttles', 'Throttles'],
    ] as const) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        AlarmName: `PetStore-${stage}-${name}-${suffix}`,
        MetricName: metric,
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(functionOf(stage, name)) } }],
      });
    }
  });

  it.each(allTables.map((t) => t.logicalName))('watches throttled requests on the %s table, every operand filled with 0', (table) => {
    const [alarm] = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { AlarmName: `PetStore-${stage}-${table}-throttled-requests` } }),
    ) as { Properties: { Metrics: ThrottleQuery[] } }[];
    const queries = alarm?.Properties.Metrics ?? [];
    const operands = queries.filter((q) => q.MetricStat);
    const sum = queries.filter((q) => q.Expression);
    // DynamoDB publishes an operation's ThrottledRequests only in minutes it was throttled, and a
    // metric-math sum has no value where an operand is missing: unFILLed, the alarm never fires.
    expect(sum).toHaveLength(1);
    expect(sum[0]?.ReturnData ?? true).toBe(true);
    expect(sum[0]?.Expression?.split(' + ').sort()).toEqual(operands.map((q) => `FILL(${q.Id}, 0)`).sort());
    expect(operands.map((q) => q.MetricStat?.Metric.Dimensions.find((d) => d.Name === 'Operation')?.Value)).toEqual(
      expect.arrayContaining(['GetItem', 'PutItem', 'UpdateItem', 'Query', 'Scan']),
    );
    for (const q of operands) {
      expect(q.ReturnData).toBe(false);
      expect(q.MetricStat).toMatchObject({
        Metric: { Namespace: 'AWS/DynamoDB', MetricName: 'ThrottledRequests' },
        Period: 60,
        Stat: 'Sum',
      });
    }
  });

  it('has the expected number of alarms', () => {
    // The canary's five per function in production only; each route function's at-throttle; the probe's.
    const canary = stage === 'production' ? 5 * functionIds.length : 0;
    // And the automatic blocks' (test/cdk/edge-blocks.test.ts).
    template.resourceCountIs(
      'AWS::CloudWatch::Alarm',
      3 + 2 * (functionIds.length + 1) + functionIds.length + allTables.length + canary + 1,
    );
  });
});

describe('alarm notifications', () => {
  it('page in production: every alarm notifies the SNS topic', () => {
    const template = plain.templates.production;
    template.resourceCountIs('AWS::SNS::Topic', 1);
    const topicId = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'))[0];
    for (const actions of alarmActions('production')) expect(actions).toEqual([{ Ref: topicId }]);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish' }),
        ]),
      },
    });
  });

  it('notify the topic in staging too, which reaches someone only with alarmEmail', () => {
    const template = plain.templates.staging;
    const topicId = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'))[0];
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'PetStore-staging-alarms' });
    for (const actions of alarmActions('staging')) expect(actions).toEqual([{ Ref: topicId }]);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(template.toJSON().Outputs[OUTPUT_IDS.alarmTopicArn]).toEqual({ Value: { Ref: topicId }, Description: expect.any(String) });
  });

  it.each([
    ['staging', 'team@example.com'],
    ['production', 'oncall@example.com'],
  ] as const)('subscribe alarmEmail in %s', (stage, email) => {
    const template = customised.templates[stage];
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: email });
    for (const actions of alarmActions(stage, customised)) expect(actions).toHaveLength(1);
    expect(template.toJSON().Outputs[OUTPUT_IDS.alarmTopicArn]).toBeDefined();
  });
});

describe('canary deployments', () => {
  const production = plain.templates.production;
  const stack = plain.stacks.production;

  it('publish each production function through a live alias shifted by CodeDeploy', () => {
    production.resourceCountIs('AWS::Lambda::Alias', functionIds.length);
    production.resourceCountIs('AWS::CodeDeploy::DeploymentGroup', functionIds.length);
    for (const name of functionIds) {
      const aliasId = logicalId(stack.liveAliases?.[name]);
      const groupId = logicalId(stack.deploymentGroups?.[name]);
      const resources = production.toJSON().Resources;
      expect(resources[aliasId]).toMatchObject({
        Properties: { Name: 'live', FunctionName: { Ref: logicalId(stack.functions[name]) } },
        UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: groupId } } },
      });
      expect(resources[groupId].Properties).toMatchObject({
        DeploymentConfigName: CANARY_DEPLOYMENT.deploymentConfigName,
        AutoRollbackConfiguration: {
          Enabled: true,
          Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']),
        },
        AlarmConfiguration: { Enabled: true },
      });
    }
  });

  it.each(functionIds)(
    'check a new %s version before any traffic: a hook that may invoke that version and report to that group only',
    (name) => {
      const resources = production.toJSON().Resources;
      const alias = resources[logicalId(stack.liveAliases?.[name])];
      const groupId = logicalId(stack.deploymentGroups?.[name]);
      const hookId = alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.BeforeAllowTrafficHook.Ref as string;
      const hook = resources[hookId].Properties;
      const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0] as string;
      expect(resources[versionId].Type).toBe('AWS::Lambda::Version');
      expect(hook.Environment.Variables[ENV.preTrafficTarget]).toEqual({ Ref: versionId });
      const roleId = hook.Role['Fn::GetAtt'][0];
      const policies = Object.values(resourcesOf(production, 'AWS::IAM::Policy')).filter((p) =>
        JSON.stringify(p.Properties?.Roles).includes(roleId),
      );
      expect(policies).toHaveLength(1);
      const statements = propertiesOf<{ PolicyDocument: { Statement: { Action: unknown }[] } }>(policies[0]).PolicyDocument.Statement;
      const beyondLogs = statements.filter((st) => !JSON.stringify(st.Action).match(/logs:|xray:/));
      expect(beyondLogs).toEqual([
        { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { Ref: versionId } },
        {
          Action: 'codedeploy:PutLifecycleEventHookExecutionStatus',
          Effect: 'Allow',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':codedeploy:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':deploymentgroup:',
                { Ref: resources[groupId].Properties.ApplicationName.Ref },
                '/',
                { Ref: groupId },
              ],
            ],
          },
        },
      ]);
    },
  );

  it('keep each version a successful deploy published, and delete one whose deploy rolled back, so the same commit can be deployed again', () => {
    // RetainExceptOnCreate: kept when a later deploy drops it from the template (pointing `live` back
    // by hand), deleted by the rollback of the operation that created it, so Lambda's "last version"
    // is again the one `live` serves, and the retried code publishes a new one (docs/operators.md).
    const versions = resourcesOf(production, 'AWS::Lambda::Version');
    expect(Object.keys(versions)).toHaveLength(functionIds.length);
    for (const version of Object.values(versions)) {
      expect(version).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    }
    const aliases = Object.values(resourcesOf(production, 'AWS::Lambda::Alias'));
    for (const alias of aliases)
      expect(Object.keys(versions)).toContain(
        (alias.Properties?.FunctionVersion as { 'Fn::GetAtt': string[] } | undefined)?.['Fn::GetAtt'][0],
      );
  });

  it.each(functionIds)("roll %s back on the deploying version's own alarms only", (name) => {
    const groupId = logicalId(stack.deploymentGroups?.[name]);
    const resources = production.toJSON().Resources;
    const alarms = (resources[groupId].Properties.AlarmConfiguration.Alarms as Array<{ Name: { Ref: string } }>).map(
      (a) => resources[a.Name.Ref],
    );
    expect(alarms.map((a) => a.Properties.AlarmName as string).sort()).toEqual(
      ['4xx-excess', '503-excess', '5xx-excess', 'duration-excess', 'errors-excess'].map(
        (suffix) => `PetStore-production-${name}-canary-${suffix}`,
      ),
    );
    // The version the alias moves to, and the function: never the stage (dependency-graph.test.ts).
    const aliasVersion = resources[logicalId(stack.liveAliases?.[name])].Properties.FunctionVersion;
    const fn = { Ref: logicalId(stack.functions[name]) };
    expect(JSON.stringify(alarms)).not.toContain(logicalId(stack.api.api.deploymentStage));
    for (const alarm of alarms) expect(JSON.stringify(alarm)).toContain(JSON.stringify(aliasVersion));

    const byName = Object.fromEntries(
      alarms.map((a) => [(a.Properties.AlarmName as string).replace(`PetStore-production-${name}-canary-`, ''), a.Properties]),
    );
    const queries = (suffix: string) => byName[suffix].Metrics as MetricQuery[];
    const perRequest = 'FILL(total, 0) / requests - FILL(allTotal, 0) / allRequests';
    // Each is the version's per request above its function's (every version), in minutes with at least 20 of its requests.
    for (const suffix of ['4xx-excess', '503-excess', '5xx-excess', 'errors-excess']) {
      expect(queries(suffix).find((q) => q.Expression)?.Expression).toBe(`IF(requests >= 20, ${perRequest}, 0)`);
    }
    expect(queries('duration-excess').find((q) => q.Expression)?.Expression).toBe(
      `IF(requests >= 20 AND FILL(total, 0) / requests > 2 * FILL(allTotal, 0) / allRequests, ${perRequest}, 0)`,
    );
    for (const alarm of Object.values(byName)) {
      expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
    }
    expect(
      ['4xx-excess', '503-excess', '5xx-excess', 'errors-excess', 'duration-excess'].map((suffix) => byName[suffix].Threshold),
    ).toEqual([0.5, 0.5, 0.05, 0.05, plain.stacks.production.settings.functionDurationMs]);
    // Lambda's own metrics of the version run through the alias, and of the function as a whole:
    // crashes/timeouts (the gateway's 502/504) and duration, over invocations.
    for (const [suffix, metricName] of [
      ['errors-excess', 'Errors'],
      ['duration-excess', 'Duration'],
    ] as const) {
      const metrics = Object.fromEntries(queries(suffix).flatMap((q) => (q.MetricStat ? [[q.Id, q.MetricStat]] : [])));
      const versionDimensions = [
        { Name: 'ExecutedVersion', Value: aliasVersion },
        { Name: 'FunctionName', Value: fn },
        { Name: 'Resource', Value: { 'Fn::Join': ['', [fn, ':live']] } },
      ];
      const lambda = (metric: string, dimensions: unknown[]) => ({
        Metric: { Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: dimensions },
        Period: 60,
        Stat: 'Sum',
      });
      expect(metrics).toEqual({
        requests: lambda('Invocations', versionDimensions),
        total: lambda(metricName, versionDimensions),
        allRequests: lambda('Invocations', [{ Name: 'FunctionName', Value: fn }]),
        allTotal: lambda(metricName, [{ Name: 'FunctionName', Value: fn }]),
      });
    }
    // Its answers, counted from its own request lines (`functionVersion`: the version that ran).
    const logGroup = functionLogGroupId(name);
    const request = '$.message = "request"';
    const clientError = `{ (${request}) && ($.status >= 400) && ($.status < 500) }`;
    // A dependency's 503 (service_unavailable) is no fault of the version: never counted.
    const bug = `{ (${request}) && ($.status >= 500) && ($.status != 503) }`;
    // …but a version's share of them well above its function's is its own (it cannot reach what the other reaches).
    const unavailable = `{ (${request}) && ($.status = 503) }`;
    // The function's own group and namespace: its lines need not name it.
    const byVersion = { Version: '$.functionVersion' };
    const filters = (errors: string) => ({
      requests: { logGroup, pattern: `{ ${request} }`, dimensions: byVersion },
      total: { logGroup, pattern: errors, dimensions: byVersion },
      allRequests: { logGroup, pattern: `{ ${request} }`, defaultValue: 0 },
      allTotal: { logGroup, pattern: errors, defaultValue: 0 },
    });
    const expected: Record<string, Record<string, FilterSummary>> = {
      '5xx-excess': filters(bug),
      '503-excess': filters(unavailable),
      '4xx-excess': filters(clientError),
    };
    for (const [suffix, filters] of Object.entries(expected)) {
      const operands = queries(suffix).filter((q) => q.MetricStat);
      expect(Object.fromEntries(operands.map((q) => [q.Id, filterOf('production', q, logGroup, `PetStore-production/${name}`)]))).toEqual(
        filters,
      );
      for (const q of operands) {
        const dimensions = Object.fromEntries((q.MetricStat?.Metric.Dimensions ?? []).map((d) => [d.Name, d.Value]));
        expect(dimensions).toEqual(q.Id.startsWith('all') ? {} : { Version: aliasVersion });
      }
    }
  });

  it('judge a version in windows that fire before the last shift, even on log lines Lambda delivers late', () => {
    // One 5xx alone (at most 1 in the 20 requests a minute judged) never crosses its threshold.
    expect(1 / CANARY_MIN_REQUESTS).toBeLessThanOrEqual(CANARY_EXCESS.serverErrors);
    // Lambda may deliver a line LOG_DELAY_MINUTES late: a version failing from its first full minute
    // has its second breaching minute counted by 1 + 2 + the delay and is in ALARM at the next
    // evaluation, before the last shift; the window still holds both minutes then.
    const [datapoints, minutes] = LOG_COUNTED_WINDOW;
    const alarmedBy = 1 + datapoints + LOG_DELAY_MINUTES + 1;
    expect(alarmedBy).toBeLessThan(CANARY.minutes);
    expect(minutes).toBeGreaterThanOrEqual(alarmedBy - 1);
    for (const name of functionIds) {
      const windowOf = (suffix: string) => {
        const [alarm] = Object.values(
          production.findResources('AWS::CloudWatch::Alarm', { Properties: { AlarmName: `PetStore-production-${name}-canary-${suffix}` } }),
        );
        return [alarm?.Properties.DatapointsToAlarm, alarm?.Properties.EvaluationPeriods];
      };
      for (const suffix of ['4xx-excess', '503-excess', '5xx-excess']) expect(windowOf(suffix)).toEqual([...LOG_COUNTED_WINDOW]);
      // Lambda's own metrics, not log-counted: fired within minutes.
      expect(windowOf('errors-excess')).toEqual([2, 3]);
      expect(windowOf('duration-excess')).toEqual([3, 5]);
    }
  });

  it.each(functionIds)(
    "roll %s back for what the version does, never for a dependency's slowness or 503s, which both versions meet",
    (name) => {
      const resources = production.toJSON().Resources;
      const groupId = logicalId(stack.deploymentGroups?.[name]);
      const alarms = (resources[groupId].Properties.AlarmConfiguration.Alarms as Array<{ Name: { Ref: string } }>).map(
        (a) => resources[a.Name.Ref].Properties,
      );
      // What the old version and the new one (the canary's share: 30 requests a minute) do, minute by minute.
      const fine: Behaviour = { share4xx: 0.05, share503: 0, share5xx: 0, crashes: 0, durationMs: 60 };
      const dependencySlow: Behaviour = { ...fine, share503: 0.4, crashes: 0.02, durationMs: 2_400 };
      const firingOver = (minutes: readonly (readonly [Behaviour, Behaviour])[], requests = 30) =>
        alarms
          .filter((alarm) => {
            const breaching = minutes.filter(([old, mine]) => {
              const oldRequests = (requests * (100 - CANARY.percent)) / CANARY.percent;
              const value = evaluate(alarm.Metrics as MetricQuery[], {
                old: { ...old, requests: oldRequests },
                mine: { ...mine, requests },
              });
              return value > (alarm.Threshold as number);
            });
            return breaching.length >= (alarm.DatapointsToAlarm as number);
          })
          .map((alarm) => (alarm.AlarmName as string).replace(`PetStore-production-${name}-canary-`, ''))
          .sort();
      // A steady scenario, every minute of the longest window alike.
      const firing = (old: Behaviour, mine: Behaviour, requests = 30) =>
        firingOver(
          Array.from({ length: LOG_COUNTED_WINDOW[1] }, () => [old, mine] as const),
          requests,
        );
      expect(firing(fine, fine)).toEqual([]);
      // DynamoDB slow or unreachable: 503 after the store's deadlines, a timeout or two, on both versions.
      expect(firing(dependencySlow, dependencySlow)).toEqual([]);
      expect(firing({ ...fine, share503: 1, durationMs: 4_500 }, { ...fine, share503: 1, durationMs: 4_500 })).toEqual([]);
      // The version alone.
      expect(firing(fine, { ...fine, share5xx: 1 })).toEqual(['5xx-excess']);
      expect(firing(fine, { ...fine, share4xx: 1 })).toEqual(['4xx-excess']);
      expect(firing(fine, { ...fine, crashes: 0.5 })).toEqual(['errors-excess']);
      expect(firing(fine, { ...fine, durationMs: 600 })).toEqual(['duration-excess']);
      // …also while a dependency fails both.
      expect(firing(dependencySlow, { ...dependencySlow, share5xx: 0.3 })).toEqual(['5xx-excess']);
      expect(firing(dependencySlow, { ...dependencySlow, crashes: 0.5 })).toEqual(['errors-excess']);
      // A version failing fast with 503s of its own (a refused connection, a name that does not resolve).
      expect(firing(fine, { ...fine, share503: 1, durationMs: 20 })).toEqual(['503-excess']);
      expect(firing(fine, { ...fine, share503: 0.6 })).toEqual(['503-excess']);
      // An outage of the key reads alone, from second s of a minute: the old version's warm instances
      // answer from their key cache for up to a minute (apiKeyCacheSeconds ≤ 60), the version's fresh
      // ones cannot: at most a minute of excess over two minutes of data, then both alike.
      const keyOutage = (s: number) =>
        [
          [fine, { ...fine, share503: (60 - s) / 60 }],
          [
            { ...fine, share503: (60 - s) / 60 },
            { ...fine, share503: 1 },
          ],
          ...Array.from({ length: 11 }, () => [
            { ...fine, share503: 1 },
            { ...fine, share503: 1 },
          ]),
        ] as [Behaviour, Behaviour][];
      for (const s of [0, 15, 30, 45, 59]) expect(firingOver(keyOutage(s)), `from second ${s}`).toEqual([]);
      // Under 20 of its requests a minute judge nothing.
      expect(firing(fine, { ...fine, share4xx: 1, share5xx: 1, crashes: 0.5, durationMs: 600 }, 19)).toEqual([]);
    },
  );

  it('refuse a function log group whose class has no metric filters, before CloudFormation would', () => {
    const stack = new Stack(new App(), 'PetStore-test');
    const logGroup = new LogGroup(stack, 'Logs', { logGroupClass: LogGroupClass.INFREQUENT_ACCESS });
    const fn = new LambdaFunction(stack, 'ListPets', {
      runtime: Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => ({ statusCode: 200 });'),
      logGroup,
    });
    const alias = new Alias(stack, 'Live', { aliasName: 'live', version: fn.currentVersion });
    expect(
      () =>
        new Monitoring(stack, 'Monitoring', {
          settings: plain.stacks.production.settings,
          api: { apiName: 'PetStore-test', stageName: 'production' },
          functions: Object.fromEntries(functionIds.map((id) => [id, fn])),
          referenceFunction: fn,
          liveAliases: { 'list-pets': alias },
          tables: [],
        }),
    ).toThrow(/metric filters need ListPets's log group in the Standard class/);
  });

  it('refuse a production log level that drops the request line they count by', () => {
    expect(() => synth({ context: { 'production.logLevel': 'warn' } })).toThrow(
      /stage "production" setting "logLevel" is "warn": the canary's alarms count each version's answers/,
    );
  });

  it('go all at once and past the alarms only for a hotfix deploy (-c production.hotfix=true)', () => {
    const hotfix = synth({ context: { 'production.hotfix': 'true' } });
    try {
      const groups = (app: typeof plain) => Object.values(resourcesOf(app.templates.production, 'AWS::CodeDeploy::DeploymentGroup'));
      for (const group of groups(hotfix)) {
        expect(group.Properties).toMatchObject({
          DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
          AlarmConfiguration: { Enabled: false },
          AutoRollbackConfiguration: { Enabled: true, Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST'] },
        });
      }
      // Every other deploy keeps the canary and its alarms: the flag is never in cdk.json.
      expect(
        groups(plain).every((g) =>
          (g.Properties?.AutoRollbackConfiguration as { Events: string[] } | undefined)?.Events.includes('DEPLOYMENT_STOP_ON_ALARM'),
        ),
      ).toBe(true);
      expect(JSON.stringify(cdkJsonContext())).not.toContain('hotfix');
    } finally {
      hotfix.cleanup();
    }
  });

  it('are absent in staging, which deploys all at once', () => {
    const staging = plain.templates.staging;
    staging.resourceCountIs('AWS::CodeDeploy::DeploymentGroup', 0);
    staging.resourceCountIs('AWS::CodeDeploy::Application', 0);
    staging.resourceCountIs('AWS::Lambda::Alias', 0);
    staging.resourceCountIs('AWS::Lambda::Version', 0);
  });
});

describe.each(STAGE_NAMES)('%s outputs', (stage) => {
  it('name the base URL and every table, without exports', () => {
    const outputs = plain.templates[stage].toJSON().Outputs as Record<string, { Value: unknown; Export?: unknown }>;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining([OUTPUT_IDS.baseUrl, OUTPUT_IDS.executeApiBaseUrl, OUTPUT_IDS.petsTableName, OUTPUT_IDS.apiKeysTableName]),
    );
    for (const output of Object.values(outputs)) expect(output.Export).toBeUndefined();
    const stack = plain.stacks[stage];
    for (const { definition, table } of stack.tables.all) {
      expect(outputs[tableNameOutputId(definition.logicalName)]?.Value).toEqual({
        Ref: logicalId(table),
      });
    }
  });
});

describe('custom domain from context', () => {
  const template = customised.templates.production;

  it("maps the stage at the root of a regional domain with the endpoint's TLS 1.2-or-1.3 policy", () => {
    template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: domain.domainName,
      RegionalCertificateArn: domain.certificateArn,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
    const [mapping] = Object.values(resourcesOf(template, 'AWS::ApiGateway::BasePathMapping'));
    expect(mapping?.Properties?.BasePath).toBeUndefined();
    const stageId = logicalId(customised.stacks.production.api.api.deploymentStage);
    expect(mapping?.Properties?.Stage).toEqual({ Ref: stageId });
  });

  it('adds a Route 53 alias record in the given zone', () => {
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: `${domain.domainName}.`,
      Type: 'A',
      HostedZoneId: domain.hostedZoneId,
      AliasTarget: Match.objectLike({ DNSName: Match.anyValue() }),
    });
  });

  it('makes the base URL https://<domain>/v1, keeping the execute-api address as another output', () => {
    expect(template.toJSON().Outputs.BaseUrl.Value).toBe(`https://${domain.domainName}/v1`);
    expect(JSON.stringify(template.toJSON().Outputs.ExecuteApiBaseUrl.Value)).toContain('.execute-api.');
  });

  it('leaves the other stage alone and applies flat overrides', () => {
    const { rateLimit, burstLimit } = stageCapacity(
      readStageSettings('staging', (key) => (key === 'staging.burstSeconds' ? '1' : undefined)),
    ).apiThrottle;
    const oneSecondBurst = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
    expect(burstLimit).toBe(rateLimit);
    customised.templates.staging.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    customised.templates.staging.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: Match.arrayWith([Match.objectLike({ ResourcePath: '/*', ...oneSecondBurst })]),
    });
  });
});

describe('cdk-nag (AWS Solutions)', () => {
  it.each(STAGE_NAMES)('reports no unacknowledged error or warning on %s', (stage) => {
    const report = new AwsSolutionsChecks().validateScope(plain.stacks[stage]);
    expect(report.violations.map((v) => `${v.severity} ${v.ruleName} ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
    const withDomain = new AwsSolutionsChecks().validateScope(customised.stacks[stage]);
    expect(withDomain.violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('gives every acknowledgement a one-line reason', () => {
    const reasons: string[] = [];
    const walk = (node: IConstruct) => {
      for (const entry of node.node.metadata) {
        if (entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY) {
          reasons.push(...Object.values(entry.data as Record<string, string>));
        }
      }
      node.node.children.forEach(walk);
    };
    walk(plain.app);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) {
      expect(reason.trim().length).toBeGreaterThan(20);
      expect(reason).not.toContain('\n');
    }
  });

  it('acknowledges the Lambda-side API key check for the unauthenticated-method findings', () => {
    const acknowledged = new Set<string>();
    const walk = (node: IConstruct) => {
      for (const entry of node.node.metadata) {
        if (entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY) {
          for (const id of Object.keys(entry.data as Record<string, string>)) acknowledged.add(id.replace(/^annotation::/i, ''));
        }
      }
      node.node.children.forEach(walk);
    };
    walk(plain.app);
    expect([...acknowledged]).toEqual(expect.arrayContaining(['AwsSolutions-APIG4', 'AwsSolutions-COG4']));
  });
});

interface ThrottleQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly ReturnData?: boolean;
  readonly MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] };
    Period: number;
    Stat: string;
  };
}

interface Transformation {
  readonly MetricName: string;
  readonly MetricNamespace: string;
  readonly MetricValue: string;
  readonly DefaultValue?: number;
  readonly Dimensions?: { Key: string; Value: string }[];
}

interface MetricQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly ReturnData?: boolean;
  readonly MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] };
    Period: number;
    Stat: string;
  };
}

interface MetricFilterProperties {
  readonly LogGroupName: { Ref: string };
  readonly FilterPattern: string;
  readonly MetricTransformations: Transformation[];
}

/** A template resource's Properties, which the test expects to be there. */
function propertiesOf<T>(resource: { Properties?: unknown } | undefined): T {
  expect(resource?.Properties).toBeDefined();
  return resource?.Properties as T;
}

interface FilterSummary {
  readonly logGroup: string;
  readonly pattern: string;
  readonly defaultValue?: number;
  /** Dimension name → the log field it is read from. */
  readonly dimensions?: Record<string, string>;
}

function accessLogGroupId(stage: StageName): string {
  const [stageResource] = Object.values(resourcesOf(plain.templates[stage], 'AWS::ApiGateway::Stage'));
  const setting = propertiesOf<{ AccessLogSetting: { DestinationArn: { 'Fn::GetAtt': string[] } } }>(stageResource).AccessLogSetting;
  return setting.DestinationArn['Fn::GetAtt'][0] as string;
}

function functionOf(stage: StageName, name: string) {
  const stack = plain.stacks[stage];
  return name === 'docs' ? stack.referenceFunction : stack.functions[name as keyof typeof stack.functions];
}

function functionLogGroupId(name: string): string {
  const fn = plain.templates.production.toJSON().Resources[logicalId(functionOf('production', name))];
  return fn.Properties.LoggingConfig.LogGroup.Ref as string;
}

/** The one metric filter on `logGroup` that makes a query's metric (namespace, name and dimension names), in `namespace`. */
function filterOf(stage: StageName, query: MetricQuery, logGroup: string, namespace: string): FilterSummary {
  const metric = query.MetricStat?.Metric;
  const names = (metric?.Dimensions ?? []).map((d) => d.Name).sort();
  const found = Object.values(resourcesOf(plain.templates[stage], 'AWS::Logs::MetricFilter')).filter((f) => {
    const properties = propertiesOf<MetricFilterProperties>(f);
    const [t] = properties.MetricTransformations;
    return (
      properties.LogGroupName.Ref === logGroup &&
      t?.MetricNamespace === metric?.Namespace &&
      t?.MetricName === metric?.MetricName &&
      JSON.stringify((t?.Dimensions ?? []).map((d) => d.Key).sort()) === JSON.stringify(names)
    );
  });
  expect(found, `${metric?.MetricName} ${names.join(',')} on ${logGroup}`).toHaveLength(1);
  const properties = propertiesOf<MetricFilterProperties>(found[0]);
  const [t] = properties.MetricTransformations;
  expect(t?.MetricValue).toBe('1');
  expect(t?.MetricNamespace).toBe(namespace);
  return {
    logGroup,
    pattern: properties.FilterPattern,
    ...(t?.DefaultValue === undefined ? {} : { defaultValue: t.DefaultValue }),
    ...(t?.Dimensions ? { dimensions: Object.fromEntries(t.Dimensions.map((d) => [d.Key, d.Value])) } : {}),
  };
}

/** What one version does in a minute: shares of its requests, and its mean duration. */
interface Behaviour {
  readonly share4xx: number;
  /** A dependency's 503 (`service_unavailable`). */
  readonly share503: number;
  /** 5xx other than 503: bugs. */
  readonly share5xx: number;
  /** Crashes and timeouts: no answer, so no request line. */
  readonly crashes: number;
  readonly durationMs: number;
}

/**
 * A minute's value of an alarm's metric math, with each metric read from what the versions did:
 * Lambda's metrics by their name, the request line's counts by their filter's (pinned above).
 */
function evaluate(queries: readonly MetricQuery[], versions: Record<'old' | 'mine', Behaviour & { requests: number }>): number {
  const of = (b: Behaviour & { requests: number }, metricName: string): number => {
    const answered = b.requests * (1 - b.crashes);
    const values: Record<string, number> = {
      Invocations: b.requests,
      Errors: b.requests * b.crashes,
      Duration: b.requests * b.durationMs,
      Responses: answered,
      Responses4xx: answered * b.share4xx,
      Responses5xxExcept503: answered * b.share5xx,
      Responses503: answered * b.share503,
    };
    const value = values[metricName];
    if (value === undefined) throw new Error(`No scenario value for ${metricName}`);
    return value;
  };
  const data: Record<string, number> = {};
  for (const q of queries) {
    if (!q.MetricStat) continue;
    const { MetricName, Dimensions = [] } = q.MetricStat.Metric;
    // The version's metric names it (ExecutedVersion, or Version from its line); the function's is every version's.
    const ofVersion = Dimensions.some((d) => d.Name === 'ExecutedVersion' || d.Name === 'Version');
    data[q.Id] = ofVersion ? of(versions.mine, MetricName) : of(versions.mine, MetricName) + of(versions.old, MetricName);
  }
  const expression = queries.find((q) => q.ReturnData !== false && q.Expression)?.Expression;
  if (!expression) throw new Error('No expression');
  return metricMath(expression, data);
}

/** CloudWatch metric math, the part the alarms use: numbers, ids, + - * /, > >=, AND, IF() and FILL(). */
function metricMath(expression: string, data: Readonly<Record<string, number>>): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[A-Za-z]\w*|>=|[-+*/(),>]/g) ?? [];
  let at = 0;
  const next = () => tokens[at++] as string;
  const expect_ = (token: string) => {
    if (next() !== token) throw new Error(`Expected ${token} in ${expression}`);
  };
  const primary = (): number => {
    const token = next();
    if (token === '(') {
      const value = condition();
      expect_(')');
      return value;
    }
    if (/^\d/.test(token)) return Number(token);
    if (token === 'IF' || token === 'FILL') {
      expect_('(');
      const args = [condition()];
      while (tokens[at] === ',') {
        next();
        args.push(condition());
      }
      expect_(')');
      const [a = 0, b = 0, c = 0] = args;
      return token === 'IF' ? (a ? b : c) : Number.isNaN(a) ? b : a;
    }
    // A metric with no data point in the minute is missing: NaN until FILLed.
    return data[token] ?? Number.NaN;
  };
  const term = (): number => {
    let value = primary();
    while (tokens[at] === '*' || tokens[at] === '/') value = next() === '*' ? value * primary() : value / primary();
    return value;
  };
  const sum = (): number => {
    let value = term();
    while (tokens[at] === '+' || tokens[at] === '-') value = next() === '+' ? value + term() : value - term();
    return value;
  };
  const comparison = (): number => {
    const left = sum();
    if (tokens[at] !== '>' && tokens[at] !== '>=') return left;
    const op = next();
    const right = sum();
    return Number(op === '>' ? left > right : left >= right);
  };
  const condition = (): number => {
    let value = comparison();
    while (tokens[at] === 'AND') {
      next();
      value = Number(comparison() && value);
    }
    return value;
  };
  const value = condition();
  if (at !== tokens.length) throw new Error(`Unparsed ${tokens.slice(at).join(' ')} in ${expression}`);
  return value;
}
