/**
 * The stage's alarms: the 5xx rate clients saw and the API's p99 latency, errors and throttles per
 * function, throttled requests per table and, in production, each deploying version's own alarms,
 * which the canary (stage-stack.ts) rolls back on. Production alarms always notify an SNS topic
 * (subscribe the pager to it; an e-mail address can be given in context); staging alarms notify
 * only when `alarmEmail` is set. The dashboard (dashboard.ts) shows their states and the metrics
 * made here.
 *
 * The 5xx clients saw is metric math over what API Gateway and Lambda publish: API Gateway counts a
 * gateway response whose status was set (all of the service's: gateway-responses.ts) as 4XXError,
 * so the 503 it answers for a throttled function never reaches 5XXError; Lambda's Throttles of the
 * functions behind the API count those 503s.
 *
 * What each version answered has no AWS metric, so metric filters count it from its function's
 * request line (`functionVersion`: the version that ran, lib/http/request-line.ts): a canary takes
 * 10 % of one function's traffic, too little to move a stage-wide rate. A version is judged against
 * its function (every version): a 4xx is the client's mistake, and a 5xx other than a dependency's
 * 503 a bug, only where one version answers more of them than the others; a dependency's 503
 * (`service_unavailable`) is no fault of the version and never counts. Crashes and duration, which
 * Lambda publishes per version, are judged against the function's alike, so a slow or failing
 * dependency, which both versions meet, fires none. The arithmetic of the thresholds and windows
 * against the canary's length is in docs/operators.md.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { LambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
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
import type { Alias, Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, FilterPattern, type ILogGroup, type JsonPattern, LogGroupClass, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { mapValues } from '#lib/map-values.ts';
import { routes } from '#lib/routes.ts';
import { AT_THROTTLE_SHARE, stageCapacity } from '../capacity.ts';
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

/** Production's deploys: CANARY_PERCENT of a function's traffic for CANARY_MINUTES, then all of it. */
export const CANARY_DEPLOYMENT = LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES;
export const CANARY_PERCENT = 10;
export const CANARY_MINUTES = 15;

/** Lambda may deliver a log line this many minutes late; the metric filters count it only then. */
export const LOG_DELAY_MINUTES = 10;

/**
 * The log-counted canary alarms need 2 breaching minutes in a window that still holds a version's
 * first two full minutes when their lines arrive LOG_DELAY_MINUTES late: ALARM by minute
 * 1 + 2 + LOG_DELAY_MINUTES + 1 (the next evaluation), before the last shift at CANARY_MINUTES.
 */
export const LOG_COUNTED_WINDOW = { datapointsToAlarm: 2, evaluationPeriods: LOG_DELAY_MINUTES + 3 };

/** Fewer of the new version's requests in a minute than this judge none of its rates. */
export const CANARY_MIN_REQUESTS = 20;

/**
 * How far the version's share of an answer may exceed its function's (all versions) in a minute,
 * 0.5 = 50 points. 5xx: one answer alone (1 / CANARY_MIN_REQUESTS at most) never crosses it.
 */
export const CANARY_EXCESS = { clientErrors: 0.5, serverErrors: 1 / CANARY_MIN_REQUESTS } as const;

/** 5xx as clients saw them: the functions' own and the 503 API Gateway answers for a throttled function. */
export interface ServerErrorMetrics {
  /** Their count a minute. */
  readonly serverErrors: IMetric;
  /** Their share of the requests. */
  readonly serverErrorRate: IMetric;
}

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
  /** The functions behind the routes, by function name: they write the request line to their log groups. */
  readonly functions: Readonly<Record<string, LambdaFunction>>;
  /** The reference page's function (no request line): watched for errors and throttles as `docs`. */
  readonly referenceFunction: IFunction;
  /** Production: each function's `live` alias, whose version a deploy moves it to. */
  readonly liveAliases?: Readonly<Record<string, Alias>>;
  readonly tables: readonly ServiceTable[];
}

/**
 * The alarms of one function's deployment group: each compares the version being deployed with its
 * function as a whole (every version), so what a dependency does to both versions alike fires none.
 */
export interface CanaryAlarms {
  /** Its share of 5xx but 503 (bugs) CANARY_EXCESS.serverErrors above the function's. */
  readonly serverErrorExcess: Alarm;
  /** Its 4xx share CANARY_EXCESS.clientErrors above the function's. */
  readonly clientErrorExcess: Alarm;
  /** Its share of crashes and timeouts (the gateway's 502/504: no request line) CANARY_EXCESS.serverErrors above the function's. */
  readonly errorExcess: Alarm;
  /** Its mean duration over twice the function's and `functionDurationMs` above it. */
  readonly durationExcess: Alarm;
}

export class Monitoring extends Construct {
  /** Present in production, and in staging when `alarmEmail` is set. */
  readonly topic?: Topic;
  readonly apiServerErrorRate: Alarm;
  readonly apiLatencyP99: Alarm;
  readonly functionErrors: Readonly<Record<string, Alarm>>;
  readonly functionThrottles: Readonly<Record<string, Alarm>>;
  /** Each route function invoked at its methods' rate: their buckets are empty, clients beyond them get 429. */
  readonly functionsAtThrottle: Readonly<Record<string, Alarm>>;
  readonly tableThrottles: Readonly<Record<string, Alarm>>;
  /** Production: the alarms each deployment group watches, by function name. */
  readonly canaryAlarms: Readonly<Record<string, CanaryAlarms>>;
  readonly serverErrors: ServerErrorMetrics;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings } = props;
    const prefix = Stack.of(this).stackName;
    const apiFunctions = { ...props.functions, docs: props.referenceFunction };

    this.serverErrors = serverErrorMetrics(props.api, apiFunctions);
    this.apiServerErrorRate = new Alarm(this, 'ApiServerErrorRate', {
      alarmName: `${prefix}-api-5xx-rate`,
      alarmDescription:
        `More than ${settings.alarm5xxRatePercent}% of requests answered 5xx (the functions' and the gateway's 503 ` +
        'for a throttled function) in 2 of 3 minutes.',
      metric: this.serverErrors.serverErrorRate,
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
    for (const [name, fn] of Object.entries(apiFunctions)) {
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
        what: `${name} invocations were throttled (concurrency exhausted: clients got the gateway's 503)`,
      });
    }
    this.functionErrors = errors;
    this.functionThrottles = throttles;
    const { rateLimit } = stageCapacity(settings).apiThrottle;
    const atThrottle = Object.entries(props.functions).map(([name, fn]) => {
      const perMinute = Math.ceil(AT_THROTTLE_SHARE * 60 * rateLimit * routes.filter((r) => r.functionId === name).length);
      const alarm = new Alarm(this, `${pascal(name)}AtThrottle`, {
        alarmName: `${prefix}-${name}-at-throttle`,
        alarmDescription:
          `${name} was invoked ${perMinute} times a minute or more (${AT_THROTTLE_SHARE * 100} % of its methods' rate) in 3 of 5 minutes: ` +
          "clients beyond it get the gateway's 429. More demand than the model, or a flood of made-up keys (docs/scaling.md).",
        metric: fn.metricInvocations({ period: PERIOD, statistic: Stats.SUM }),
        threshold: perMinute,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      return [name, alarm] as const;
    });
    this.functionsAtThrottle = Object.fromEntries(atThrottle);

    const tableThrottles: Record<string, Alarm> = {};
    for (const { definition, table } of props.tables) {
      tableThrottles[definition.logicalName] = countAlarm(this, `${definition.logicalName}ThrottledRequests`, {
        alarmName: `${prefix}-${definition.logicalName}-throttled-requests`,
        metric: throttledRequests(table),
        what: `requests to the ${definition.logicalName} table were throttled`,
      });
    }
    this.tableThrottles = tableThrottles;

    const canaryAlarms: Record<string, CanaryAlarms> = {};
    for (const [name, fn] of Object.entries(props.functions)) {
      const alias = props.liveAliases?.[name];
      if (!alias) continue;
      // One namespace per function: a version's number means something only with its function.
      const answers = versionMetrics(this, pascal(name), fn, `${prefix}/${name}`);
      canaryAlarms[name] = canaryAlarmsOf(this, { name, prefix, settings, alias, answers });
    }
    this.canaryAlarms = canaryAlarms;

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
      ...Object.values(this.functionsAtThrottle),
      ...Object.values(this.tableThrottles),
      ...Object.values(this.canaryAlarms).flatMap((alarms) => Object.values(alarms)),
    ];
  }

  /**
   * What a canary of `functionName` is judged on: the deploying version's 5xx, 4xx, crashes and
   * duration, each against its function's. Nothing stage-wide: 10 % of one function's traffic hardly moves a
   * stage's rate, and a surge, a table's throttling or another function's failure during the
   * deploy is no fault of the new version (those alarms page as usual).
   */
  alarmsFor(functionName: string): IAlarm[] {
    const alarms = this.canaryAlarms[functionName];
    if (!alarms) throw new Error(`No canary alarms for function ${functionName}`);
    return Object.values(alarms);
  }
}

/** An API Gateway metric of the stage, by the dimensions API Gateway publishes it under. */
function apiMetric(api: MonitoringProps['api'], metricName: 'Count' | '5XXError' | 'Latency', statistic: string): Metric {
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

/** A filter on `logGroup` counting the lines that match `pattern` as `metricName` (1 each). */
function countFilter(
  scope: Construct,
  id: string,
  props: { logGroup: ILogGroup; namespace: string; metricName: string; pattern: JsonPattern; dimensions?: Record<string, string> },
): Metric {
  const filter = new MetricFilter(scope, id, {
    logGroup: props.logGroup,
    filterPattern: props.pattern,
    metricNamespace: props.namespace,
    metricName: props.metricName,
    metricValue: '1',
    // A filter with dimensions may not have a default value; the others count 0 for each other
    // line, so a minute with traffic always has a data point.
    ...(props.dimensions ? { dimensions: props.dimensions } : { defaultValue: 0 }),
  });
  return filter.metric({ statistic: Stats.SUM, period: PERIOD });
}

/**
 * API Gateway's 5XXError plus each function's Throttles, in all and over Count. Lambda publishes
 * Throttles only for minutes with some, and metric math has no value for a minute in which an
 * operand is missing, so each count is FILLed with 0.
 */
function serverErrorMetrics(api: MonitoringProps['api'], functions: Readonly<Record<string, IFunction>>): ServerErrorMetrics {
  const counts: Record<string, IMetric> = {
    apiErrors: apiMetric(api, '5XXError', Stats.SUM),
    ...Object.fromEntries(
      Object.values(functions).map((fn, i) => [`throttles${i}`, fn.metricThrottles({ period: PERIOD, statistic: Stats.SUM })]),
    ),
  };
  // An alarm's metric math takes at most 10 metrics: these and Count.
  if (Object.keys(counts).length > 9) throw new Error(`${Object.keys(counts).length} counts in the 5xx rate; an alarm takes 10 metrics`);
  const sum = Object.keys(counts)
    .map((id) => `FILL(${id}, 0)`)
    .join(' + ');
  return {
    serverErrors: new MathExpression({
      expression: sum,
      usingMetrics: counts,
      label: '5xx (the gateway’s 503 for throttles included)',
      period: PERIOD,
    }),
    serverErrorRate: new MathExpression({
      expression: `(${sum}) / requests`,
      usingMetrics: { ...counts, requests: apiMetric(api, 'Count', Stats.SUM) },
      label: '5xx rate (the gateway’s 503 for throttles included)',
      period: PERIOD,
    }),
  };
}

/** What a function's request lines count: its requests, its 4xx, and its 5xx but a dependency's 503. */
type Answer = keyof typeof CANARY_EXCESS | 'requests';

/** One function's answers from its request lines, by version and in all. */
interface VersionMetrics {
  readonly byVersion: (version: string) => Record<Answer, Metric>;
  readonly all: Record<Answer, Metric>;
}

/**
 * Filters on `fn`'s own log group, so its lines need not name the function: the metrics are in
 * `namespace` (the function's), by the dimension `Version` or in all.
 */
function versionMetrics(scope: Construct, id: string, fn: LambdaFunction, namespace: string): VersionMetrics {
  const logGroup = fn.logGroup;
  // CloudFormation would refuse the filters at deploy time; say why at synth instead.
  const group = logGroup.node.defaultChild;
  if (!(group instanceof CfnLogGroup) || group.logGroupClass !== LogGroupClass.STANDARD) {
    throw new Error(`The canary's metric filters need ${fn.node.id}'s log group in the Standard class (log-groups.ts logGroupClass)`);
  }
  const requestLine = FilterPattern.stringValue('$.message', '=', 'request');
  const status = (comparison: string, value: number) => FilterPattern.numberValue('$.status', comparison, value);
  const patterns: Record<Answer, [string, JsonPattern]> = {
    requests: ['Responses', requestLine],
    clientErrors: ['Responses4xx', FilterPattern.all(requestLine, status('>=', 400), status('<', 500))],
    // 503 is `service_unavailable`, a dependency's failure (lib/http/error-responder.ts); any other 5xx is a bug.
    serverErrors: ['Responses5xxExcept503', FilterPattern.all(requestLine, status('>=', 500), status('!=', 503))],
  };
  const counts = (dimensions?: Record<string, string>) =>
    mapValues(patterns, ([metricName, pattern]) =>
      countFilter(scope, `${id}${metricName}${dimensions ? 'ByVersion' : ''}`, {
        logGroup,
        namespace,
        metricName,
        pattern,
        ...(dimensions ? { dimensions } : {}),
      }),
    ) as Record<Answer, Metric>;
  const versioned = counts({ Version: '$.functionVersion' });
  return {
    byVersion: (version) =>
      mapValues(versioned, (metric) => metric.with({ dimensionsMap: { Version: version } })) as Record<Answer, Metric>,
    all: counts(),
  };
}

interface CanaryProps {
  readonly name: string;
  readonly prefix: string;
  readonly settings: StageSettings;
  readonly alias: Alias;
  readonly answers: VersionMetrics;
}

/** A count or total of the version's requests and of its function's (every version), and the requests. */
interface Compared {
  readonly mine: { readonly total: IMetric; readonly requests: IMetric };
  readonly all: { readonly total: IMetric; readonly requests: IMetric };
}

/**
 * The alarms on the version `alias` is being moved to (its number is the Version resource's, so
 * each deploy re-points them before CodeDeploy starts). They reference the function and its
 * version, never the API stage (see MonitoringProps.api).
 */
function canaryAlarmsOf(scope: Construct, { name, prefix, settings, alias, answers }: CanaryProps): CanaryAlarms {
  const version = alias.version.version;
  const mine = answers.byVersion(version);
  // Lambda's metrics of the version when invoked through the alias, and of the function as a whole.
  // The FunctionName is spelt out: `alias.functionName` refers to the alias, which would close the
  // cycle alias → group → alarm.
  const functionName = alias.version.lambda.functionName;
  const lambda = (metricName: 'Invocations' | 'Errors' | 'Duration', ofVersion: boolean) =>
    new Metric({
      namespace: 'AWS/Lambda',
      metricName,
      dimensionsMap: ofVersion
        ? { FunctionName: functionName, Resource: `${functionName}:${alias.aliasName}`, ExecutedVersion: version }
        : { FunctionName: functionName },
      statistic: Stats.SUM,
      period: PERIOD,
    });
  const executed = (metricName: 'Errors' | 'Duration'): Compared => ({
    mine: { total: lambda(metricName, true), requests: lambda('Invocations', true) },
    all: { total: lambda(metricName, false), requests: lambda('Invocations', false) },
  });
  const excess = (suffix: string, compared: Compared, props: Omit<ExcessProps, 'alarmName'>) =>
    excessAlarm(scope, `${pascal(name)}Canary${pascal(suffix)}`, compared, { alarmName: `${prefix}-${name}-canary-${suffix}`, ...props });
  // The rates counted from its request lines, late as Lambda delivers them.
  const logged = (answer: keyof typeof CANARY_EXCESS, suffix: string, what: string) =>
    excess(
      suffix,
      { mine: { total: mine[answer], requests: mine.requests }, all: { total: answers.all[answer], requests: answers.all.requests } },
      { what, threshold: CANARY_EXCESS[answer], window: LOG_COUNTED_WINDOW },
    );
  return {
    serverErrorExcess: logged('serverErrors', '5xx-excess', 'a share of 5xx other than 503 (bugs)'),
    clientErrorExcess: logged('clientErrors', '4xx-excess', 'a share of 4xx'),
    errorExcess: excess('errors-excess', executed('Errors'), {
      what: 'a share of crashes and timeouts',
      threshold: CANARY_EXCESS.serverErrors,
      window: { datapointsToAlarm: 2, evaluationPeriods: 3 },
    }),
    durationExcess: excess('duration-excess', executed('Duration'), {
      what: 'a mean duration (ms)',
      threshold: settings.functionDurationMs,
      // Over twice the function's as well: one slow dependency slows both versions alike.
      atLeastTimes: 2,
      window: { datapointsToAlarm: 3, evaluationPeriods: 5 },
    }),
  };
}

interface ExcessProps {
  readonly alarmName: string;
  /** What the version had, for the description: "…had <what> above its function's…". */
  readonly what: string;
  readonly threshold: number;
  readonly window: { readonly datapointsToAlarm: number; readonly evaluationPeriods: number };
  /** Only where the version's value is also more than this many times its function's. */
  readonly atLeastTimes?: number;
}

/**
 * Alarm when the version's total per request exceeds its function's (every version, itself
 * included) by more than `threshold`, in minutes with at least CANARY_MIN_REQUESTS of its requests.
 */
function excessAlarm(scope: Construct, id: string, { mine, all }: Compared, props: ExcessProps): Alarm {
  const [minePer, allPer] = ['FILL(total, 0) / requests', 'FILL(allTotal, 0) / allRequests'];
  const times = props.atLeastTimes === undefined ? '' : ` AND ${minePer} > ${props.atLeastTimes} * ${allPer}`;
  return new Alarm(scope, id, {
    alarmName: props.alarmName,
    alarmDescription:
      `The version being deployed had ${props.what} ${props.threshold} above its function's (all versions)` +
      `${props.atLeastTimes === undefined ? '' : ` and over ${props.atLeastTimes} times it`}, with at least ` +
      `${CANARY_MIN_REQUESTS} requests a minute, in ${props.window.datapointsToAlarm} of ${props.window.evaluationPeriods} minutes.`,
    metric: new MathExpression({
      expression: `IF(requests >= ${CANARY_MIN_REQUESTS}${times}, ${minePer} - ${allPer}, 0)`,
      usingMetrics: { requests: mine.requests, total: mine.total, allRequests: all.requests, allTotal: all.total },
      label: `${props.alarmName}: the version's per request above the function's`,
      period: PERIOD,
    }),
    threshold: props.threshold,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    ...props.window,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
