/**
 * The stage's alarms: API 5xx rate and p99 latency, errors and throttles per function, throttled
 * requests per table. Production alarms always notify an SNS topic (subscribe the pager to it; an
 * e-mail address can be given in context); staging alarms notify only when `alarmEmail` is set.
 * The canary deployment (stage-stack.ts) rolls back on these same alarms; the dashboard
 * (dashboard.ts) shows their states.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { StageSettings } from '../stages.ts';
import type { ServiceTable } from './data-tables.ts';
import { pascal } from '../pascal.ts';

/** One-minute data, so a canary (5 minutes) is judged on several points. */
const PERIOD = Duration.minutes(1);

/**
 * The table operations whose throttling is watched: every operation the functions and the key CLI
 * use, and the rest of the common ones (an alarm takes at most 10 metrics: these 8 and the sum).
 */
const WATCHED_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
];

export interface MonitoringProps {
  readonly settings: StageSettings;
  /**
   * The REST API's name and stage name, as plain strings, never the constructs' tokens: in
   * production the canary's deployment groups watch these alarms, the `live` aliases name those
   * groups in their UpdatePolicy, and CloudFormation counts a reference there as a dependency. An
   * alarm that referenced the stage would close the loop alias → group → alarm → stage →
   * deployment → method → alias, and CloudFormation would refuse the stack.
   */
  readonly api: { readonly apiName: string; readonly stageName: string };
  readonly functions: Readonly<Record<string, IFunction>>;
  readonly tables: readonly ServiceTable[];
}

export class Monitoring extends Construct {
  /** Present in production, and in staging when `alarmEmail` is set. */
  readonly topic?: Topic;
  readonly apiServerErrorRate: Alarm;
  readonly apiLatencyP99: Alarm;
  readonly functionErrors: Readonly<Record<string, Alarm>>;
  readonly functionThrottles: Readonly<Record<string, Alarm>>;
  readonly tableThrottles: Readonly<Record<string, Alarm>>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings } = props;
    const prefix = Stack.of(this).stackName;

    this.apiServerErrorRate = new Alarm(this, 'ApiServerErrorRate', {
      alarmName: `${prefix}-api-5xx-rate`,
      alarmDescription: `More than ${settings.alarm5xxRatePercent}% of requests answered 5xx in 2 of 3 minutes.`,
      // The average of 5XXError is the share of requests that ended in a 5xx.
      metric: apiMetric(props.api, '5XXError', Stats.AVERAGE),
      threshold: settings.alarm5xxRatePercent / 100,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.apiLatencyP99 = new Alarm(this, 'ApiLatencyP99', {
      alarmName: `${prefix}-api-p99-latency`,
      // 3 of 5 minutes: a lone cold start does not page.
      alarmDescription: `p99 latency above ${settings.alarmP99LatencyMs} ms in 3 of 5 minutes.`,
      metric: apiMetric(props.api, 'Latency', Stats.p(99)),
      threshold: settings.alarmP99LatencyMs,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    const errors: Record<string, Alarm> = {};
    const throttles: Record<string, Alarm> = {};
    for (const [name, fn] of Object.entries(props.functions)) {
      // Errors are crashes and timeouts only: the handlers turn their own failures into responses,
      // which the 5xx-rate alarm sees.
      errors[name] = countAlarm(this, `${pascal(name)}Errors`, {
        alarmName: `${prefix}-${name}-errors`,
        metric: fn.metricErrors({ period: PERIOD }),
        what: `${name} crashed or timed out`,
      });
      throttles[name] = countAlarm(this, `${pascal(name)}Throttles`, {
        alarmName: `${prefix}-${name}-throttles`,
        metric: fn.metricThrottles({ period: PERIOD }),
        what: `${name} invocations were throttled (concurrency exhausted)`,
      });
    }
    this.functionErrors = errors;
    this.functionThrottles = throttles;

    const tableThrottles: Record<string, Alarm> = {};
    for (const { definition, table } of props.tables) {
      tableThrottles[definition.logicalName] = countAlarm(this, `${definition.logicalName}ThrottledRequests`, {
        alarmName: `${prefix}-${definition.logicalName}-throttled-requests`,
        metric: throttledRequests(table),
        what: `requests to the ${definition.logicalName} table were throttled`,
      });
    }
    this.tableThrottles = tableThrottles;

    if (settings.production || settings.alarmEmail) {
      this.topic = new Topic(this, 'AlarmTopic', {
        topicName: `${prefix}-alarms`,
        displayName: `Pet Store ${settings.stage} alarms`,
        enforceSSL: true,
      });
      // An explicit topic policy replaces SNS's default one, so CloudWatch needs its own grant.
      this.topic.addToResourcePolicy(
        new PolicyStatement({
          principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [this.topic.topicArn],
          conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
        }),
      );
      if (settings.alarmEmail) this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));
      const action = new SnsAction(this.topic);
      for (const alarm of this.all) {
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
      }
    }
  }

  get all(): Alarm[] {
    return [
      this.apiServerErrorRate,
      this.apiLatencyP99,
      ...Object.values(this.functionErrors),
      ...Object.values(this.functionThrottles),
      ...Object.values(this.tableThrottles),
    ];
  }

  /**
   * What a canary of `functionName` is judged on: the API-wide alarms (a broken version shows as
   * 5xx or latency, since the handlers turn their own errors into responses), the function's own
   * errors and throttles, and the tables' throttling.
   */
  alarmsFor(functionName: string): IAlarm[] {
    const errors = this.functionErrors[functionName];
    const throttles = this.functionThrottles[functionName];
    if (!errors || !throttles) throw new Error(`No alarms for function ${functionName}`);
    const alarms = [this.apiServerErrorRate, this.apiLatencyP99, errors, throttles, ...Object.values(this.tableThrottles)];
    // CodeDeploy takes at most 10 alarms per deployment group; with more tables, combine them.
    if (alarms.length > 10) throw new Error(`${alarms.length} alarms for ${functionName}; CodeDeploy takes 10`);
    return alarms;
  }
}

/** An API Gateway metric of the stage, by the dimensions API Gateway publishes it under. */
function apiMetric(api: MonitoringProps['api'], metricName: '5XXError' | 'Latency', statistic: string): Metric {
  return new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiName: api.apiName, Stage: api.stageName },
    statistic,
    period: PERIOD,
  });
}

/**
 * ThrottledRequests summed over the watched operations. DynamoDB publishes the metric of an
 * operation only for minutes in which it was throttled, and metric math has no value for a minute
 * in which any operand is missing; so each operand is FILLed with 0, or the sum (as the CDK's
 * metricThrottledRequestsForOperations builds it) would almost never have a data point to alarm on.
 */
function throttledRequests(table: ITable): IMetric {
  const usingMetrics = Object.fromEntries(
    WATCHED_OPERATIONS.map((operation, i) => [
      `throttled${i}`,
      table.metric('ThrottledRequests', {
        dimensionsMap: { TableName: table.tableName, Operation: operation },
        statistic: Stats.SUM,
        period: PERIOD,
      }),
    ]),
  );
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics,
    label: 'Throttled requests, all operations',
    period: PERIOD,
  });
}

interface CountAlarmProps {
  readonly alarmName: string;
  readonly metric: IMetric;
  /** What happened, for the description: "Alarm when <what> in 2 of the last 3 minutes." */
  readonly what: string;
}

/** Alarm when a count is at least 1 in 2 of the last 3 minutes. */
function countAlarm(scope: Construct, id: string, { alarmName, metric, what }: CountAlarmProps): Alarm {
  return new Alarm(scope, id, {
    alarmName,
    alarmDescription: `Alarm when ${what} in 2 of the last 3 minutes.`,
    metric,
    threshold: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
