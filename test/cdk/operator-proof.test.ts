/**
 * What an operator leans on after a deploy, as synthesized: the probe (a Synthetics canary with the
 * shared checks inline, its key by secret name, an alarm that counts a missing run as failed, to
 * the stage's topic), production's backup plan and its copy, the trace id in the access log, and
 * the default endpoint switched off with a custom domain.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../infra/cdk/constructs/pet-store-api.ts';
import { PROBE_MINUTES, probeKeySecretName } from '../../infra/cdk/constructs/probe.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { resourcesOf, synth } from './synth.ts';

const COPY_VAULT = 'arn:aws:backup:eu-central-1:123456789012:backup-vault:PetStore-production-copy';
const domain = {
  'production.domainName': 'api.example.com',
  'production.certificateArn': 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123',
  'production.hostedZoneId': 'Z123',
  'production.hostedZoneName': 'example.com',
};
const app = synth({ context: { ...domain, 'production.disableExecuteApiEndpoint': 'true', 'production.backupCopyVaultArn': COPY_VAULT } });
afterAll(() => app.cleanup());

describe.each(['staging', 'production'] as const)('the probe of %s', (stage) => {
  const template = app.templates[stage];
  const [canary] = Object.values(resourcesOf(template, 'AWS::Synthetics::Canary'));

  it(`runs the shared checks every ${PROBE_MINUTES} minutes against the public base address, with the key named by its secret`, () => {
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped; the assertions check its shape.
    const props = canary?.Properties as Record<string, any>;
    expect(props.Schedule.Expression).toBe(`rate(${PROBE_MINUTES} minutes)`);
    expect(props.RuntimeVersion).toMatch(/^syn-nodejs-puppeteer-\d+\.\d+$/);
    expect(props.Code.Handler).toBe('index.handler');
    // The checks verify runs, bundled: the unknown route it asks for and the Error shape it checks.
    expect(props.Code.Script).toContain('/no-such-route');
    expect(props.Code.Script).toContain('PROBE_KEY_SECRET');
    expect(props.RunConfig.EnvironmentVariables.PROBE_KEY_SECRET).toBe(probeKeySecretName(`PetStore-${stage}`));
    if (stage === 'production') expect(props.RunConfig.EnvironmentVariables.PROBE_BASE_URL).toBe('https://api.example.com/v1');
  });

  it('may read its own secret and no other', () => {
    const policies = JSON.stringify(resourcesOf(template, 'AWS::IAM::Policy'));
    expect(policies).toContain(`:secret:${probeKeySecretName(`PetStore-${stage}`)}-??????`);
    expect(policies).not.toMatch(/secretsmanager:GetSecretValue"[^\]]*"Resource":"\*"/);
  });

  it('alarms when a run fails or does not happen, to the stage topic', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `PetStore-${stage}-probe`,
      MetricName: 'SuccessPercent',
      Namespace: 'CloudWatchSynthetics',
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 100,
      TreatMissingData: 'breaching',
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('AlarmTopic') })],
    });
  });
});

describe('backups', () => {
  it("put production's tables in a daily plan kept 35 days, copied to the vault the setting names", () => {
    const production = app.templates.production;
    production.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: {
        BackupPlanRule: [
          Match.objectLike({
            ScheduleExpression: 'cron(0 5 * * ? *)',
            Lifecycle: { DeleteAfterDays: 35 },
            CopyActions: [{ DestinationBackupVaultArn: COPY_VAULT, Lifecycle: { DeleteAfterDays: 35 } }],
          }),
        ],
      },
    });
    const [selection] = Object.values(resourcesOf(production, 'AWS::Backup::BackupSelection'));
    expect(JSON.stringify(selection?.Properties)).toMatch(/Pets.*ApiKeys|ApiKeys.*Pets/);
    expect(resourcesOf(app.templates.staging, 'AWS::Backup::BackupPlan')).toEqual({});
  });
});

describe('the trace id and the default endpoint', () => {
  it('puts the X-Ray trace id on every access log line', () => {
    expect(ACCESS_LOG_FIELDS.xrayTraceId).toBe('$context.xrayTraceId');
    app.templates.staging.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { Format: Match.stringLikeRegexp('"xrayTraceId":"\\$context.xrayTraceId"') },
    });
  });

  it('switches the execute-api endpoint off where the setting says, and only with a custom domain', () => {
    app.templates.production.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
    app.templates.staging.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: false });
    expect(() => readStageSettings('staging', (key) => (key === 'staging.disableExecuteApiEndpoint' ? 'true' : undefined))).toThrow(
      /"disableExecuteApiEndpoint" needs a custom domain/,
    );
  });
});
