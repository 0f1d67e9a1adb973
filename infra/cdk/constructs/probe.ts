/**
 * The stage's outside-in probe: a CloudWatch Synthetics canary that asks the public API, every five
 * minutes, the answers `npm run verify` checks (infra/cli/stage-checks.ts, bundled here), with a
 * key of its own read from Secrets Manager (`<stack>/probe-key`, docs/operators.md, "The probe").
 */
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Canary, Code, Runtime, Schedule, Test } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';

/** Minutes between the probe's runs; its alarm fires after two failed or missing runs in a row. */
export const PROBE_MINUTES = 5;
/** The secret holding the probe's key: `npm run keys -- create --label probe --stage …` issues it. */
export const probeKeySecretName = (stackName: string) => `${stackName}/probe-key`;

export class Probe extends Construct {
  readonly alarm: Alarm;

  /** `baseUrl`: the public base address (the custom domain when there is one), ending in /v1. */
  constructor(scope: Construct, id: string, props: { stage: string; baseUrl: string; topic?: ITopic | undefined }) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const secret = Secret.fromSecretNameV2(this, 'Key', probeKeySecretName(stackName));
    // The shared checks and a CommonJS `handler`, inline: no asset, and the SDK from Lambda's runtime.
    const entryPoints = [fileURLToPath(new URL('../../cli/stage-checks.ts', import.meta.url))];
    const options = { bundle: true, write: false, minify: true, platform: 'node', format: 'cjs', target: 'node22' } as const;
    const bundle = buildSync({ ...options, entryPoints, external: ['@aws-sdk/*'] });
    const canary = new Canary(this, 'Canary', {
      canaryName: `petstore-${props.stage}`,
      runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
      test: Test.custom({ code: Code.fromInline(bundle.outputFiles[0]?.text ?? ''), handler: 'index.handler' }),
      schedule: Schedule.rate(Duration.minutes(PROBE_MINUTES)),
      environmentVariables: { PROBE_BASE_URL: props.baseUrl, PROBE_KEY_SECRET: secret.secretName },
      provisionedResourceCleanup: true,
    });
    secret.grantRead(canary.role);
    // Its run reports, not data: gone with a failed first deploy, like the log groups.
    canary.artifactsBucket.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    // Synthetics' own grants: its run reports in its bucket, its log group, its metrics.
    const reason = "CloudWatch Synthetics' grants to a canary's role, and its artifacts bucket of run reports.";
    const bucket = 'Resource::<ProbeCanaryArtifactsBucket3E032D77.Arn>/*';
    const { region, account } = Stack.of(this);
    const where = Token.isUnresolved(region) ? '<AWS::Region>:<AWS::AccountId>' : `${region}:${account}`;
    const logs = `Resource::arn:<AWS::Partition>:logs:${where}:log-group:/aws/lambda/cwsyn-*`;
    const ids = ['AwsSolutions-S1', 'AwsSolutions-IAM5[Resource::*]', `AwsSolutions-IAM5[${bucket}]`, `AwsSolutions-IAM5[${logs}]`];
    Validations.of(this).acknowledge(...ids.map((id) => ({ id, reason })));
    this.alarm = new Alarm(this, 'Failing', {
      alarmName: `${stackName}-probe`,
      alarmDescription: `The public API failed the probe's checks, or the probe did not run (docs/operators.md, "The probe").`,
      metric: canary.metricSuccessPercent({ period: Duration.minutes(PROBE_MINUTES), statistic: 'Minimum' }),
      threshold: 100,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 2,
      // No data is no run: nothing proves the API answers.
      treatMissingData: TreatMissingData.BREACHING,
    });
    if (props.topic) this.alarm.addAlarmAction(new SnsAction(props.topic));
  }
}
