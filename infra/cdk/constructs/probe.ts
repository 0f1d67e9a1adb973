/**
 * The stage's outside-in probe: a CloudWatch Synthetics canary that asks the public API, every five
 * minutes, the answers `npm run verify` checks (infra/cli/stage-checks.ts, bundled here), with a
 * key of its own read from Secrets Manager (`<stack>/probe-key`, docs/operators.md, "The probe").
 * Its alarm counts a run that did not happen as a failed one, so a silent outage pages too.
 */
import { fileURLToPath } from 'node:url';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
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

export interface ProbeProps {
  readonly stage: string;
  /** The public base address (the custom domain when there is one), ending in /v1. */
  readonly baseUrl: string;
  readonly topic?: ITopic | undefined;
}

export class Probe extends Construct {
  readonly canary: Canary;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: ProbeProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const secret = Secret.fromSecretNameV2(this, 'Key', probeKeySecretName(stackName));
    // The shared checks and a CommonJS `handler`, inline: no asset, and the SDK from Lambda's runtime.
    const bundle = buildSync({
      stdin: {
        contents: "export { probe as handler } from './infra/cli/stage-checks.ts';",
        resolveDir: fileURLToPath(new URL('../../..', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      external: ['@aws-sdk/*'],
      minify: true,
    });
    this.canary = new Canary(this, 'Canary', {
      canaryName: `petstore-${props.stage}`,
      runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
      test: Test.custom({ code: Code.fromInline(bundle.outputFiles[0]?.text ?? ''), handler: 'index.handler' }),
      schedule: Schedule.rate(Duration.minutes(PROBE_MINUTES)),
      environmentVariables: { PROBE_BASE_URL: props.baseUrl, PROBE_KEY_SECRET: secret.secretName },
      successRetentionPeriod: Duration.days(7),
      failureRetentionPeriod: Duration.days(31),
      provisionedResourceCleanup: true,
    });
    secret.grantRead(this.canary.role);
    Validations.of(this).acknowledge(
      { id: 'AwsSolutions-S1', reason: "The canary's artifacts bucket holds only its run reports; access logs of it would tell nothing." },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: "Synthetics' own grants: s3:ListAllMyBuckets and cloudwatch:PutMetricData (limited to its namespace) take no resource.",
      },
      { id: 'AwsSolutions-IAM5[Resource::<ProbeCanaryArtifactsBucket3E032D77.Arn>/*]', reason: 'Its run reports, in its own bucket.' },
      {
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/lambda/cwsyn-*]',
        reason: "Synthetics names the canary's log group when it creates the function.",
      },
    );
    this.alarm = new Alarm(this, 'Failing', {
      alarmName: `${stackName}-probe`,
      alarmDescription: `The public API failed the probe's checks, or the probe did not run (docs/operators.md, "The probe").`,
      metric: this.canary.metricSuccessPercent({ period: Duration.minutes(PROBE_MINUTES), statistic: 'Minimum' }),
      threshold: 100,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 2,
      // No data is no run: nothing proves the API answers.
      treatMissingData: TreatMissingData.BREACHING,
    });
    if (props.topic) this.alarm.addAlarmAction(new SnsAction(props.topic));
  }
}
