/**
 * What a stage watches, as data: rows of graphs (`Watch`), each a list of lines, a line a metric or
 * a metric with an alarm (`Alarmed`: its kind in ALARMS and its threshold).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { LambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, Metric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Alias, Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, FilterPattern, type JsonPattern, LogGroupClass, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { mapValues } from '#lib/map-values.ts';
import { API_BASE_PATH, routes } from '#lib/routes.ts';
import { AT_THROTTLE_SHARE, stageCapacity } from '../capacity.ts';
import { pascal } from '../pascal.ts';
import type { StageSettings } from '../stages.ts';
import type { ServiceTable } from './data-tables.ts';

/** One-minute data, so a canary is judged on several points. */
const PERIOD = Duration.minutes(1);

/** Production's deploys: CANARY.percent of a function's traffic for CANARY.minutes, then all of it. */
export const CANARY_DEPLOYMENT = LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES;
export const CANARY = (() => {
  const [, percent, minutes] = /Canary(\d+)Percent(\d+)Minutes$/.exec(CANARY_DEPLOYMENT.deploymentConfigName) ?? [];
  return { percent: Number(percent), minutes: Number(minutes) };
})();

/** Lambda may deliver a log line this many minutes late; the metric filters count it only then. */
export const LOG_DELAY_MINUTES = 10;

/**
 * The log-counted canary alarms need 2 breaching minutes of a window that still holds a version's
 * first two full minutes when their lines arrive LOG_DELAY_MINUTES late: ALARM by minute
 * 1 + 2 + LOG_DELAY_MINUTES + 1 (the next evaluation), before the last shift at CANARY.minutes.
 */
export const LOG_COUNTED_WINDOW = [2, LOG_DELAY_MINUTES + 3] as const;

/** Fewer of the new version's requests in a minute than this judge none of its rates. */
export const CANARY_MIN_REQUESTS = 20;

/**
 * How far the version's share of an answer may exceed its function's (all versions) in a minute, 0.5 = 50 points. 5xx: one answer alone
 * (1 / CANARY_MIN_REQUESTS at most) never crosses it. 503: an outage of the key reads gives the version's fresh instances (empty key
 * cache) at most one minute more of 503s than the old one's, spread over two minutes of data: never 2 above 0.5.
 */
export const CANARY_EXCESS = { clientErrors: 0.5, unavailable: 0.5, serverErrors: 1 / CANARY_MIN_REQUESTS } as const;

export interface AlarmKind {
  /** Breaching minutes of the minutes evaluated. */
  readonly window: Window;
  /** What fires it, against its threshold: its description, and the docs' condition. */
  readonly when: string;
  /** What an operator does (the docs). */
  readonly action: string;
  /** At or above the threshold; else above it. */
  readonly atLeast: boolean;
  /** A minute without data breaches (silence is the failure); else it does not (no traffic, nothing to judge). */
  readonly breaching?: boolean;
  /** A deploying version's alarm: its deployment group rolls back on it. */
  readonly canary?: boolean;
}

type Window = readonly [number, number];
const kind = (window: Window, when: string, action: string, atLeast = false): AlarmKind => ({ window, when, action, atLeast });
/** At least one in 2 of 3 minutes. */
const anyOf = (when: string, action: string) => kind([2, 3], when, action, true);
const canary = (window: Window, when: string): AlarmKind => ({
  ...kind(window, `the deploying version's ${when} above its function's`, 'CodeDeploy rolled the version back: read its logs'),
  canary: true,
});
const over = (share: number) => `over ${share * 100} points`;

/** Every kind of alarm, by its name after `PetStore-<stage>-`. */
export const ALARMS = {
  'api-5xx-rate': kind(
    [2, 3],
    "more than `alarm5xxRatePercent` % of requests answered 5xx as clients saw them: (API Gateway's `5XXError` + every function's `Throttles`) / `Count`",
    "the dashboard's Limits row says which: with function throttles, concurrency; with function errors, a crash or timeout; else a dependency (the functions' `dependency unavailable` warnings)",
  ),
  'api-p99-latency': kind(
    [3, 5],
    'p99 latency above `alarmP99LatencyMs` (a lone cold start does not page)',
    'function duration and table throttles on the dashboard',
  ),
  '<function>-errors': anyOf('a crash or timeout (the handlers answer their own failures)', "the function's logs (`level` error)"),
  '<function>-throttles': anyOf(
    'a throttled invocation (`docs` included): a request the gateway admitted was shed as 503',
    "its concurrency was used up: by the account's other functions, by its reservation, or by slow calls (docs/scaling.md)",
  ),
  '<function>-at-throttle': kind(
    [3, 5],
    `invocations at ${AT_THROTTLE_SHARE * 100} % of its methods' rate r (${AT_THROTTLE_SHARE} × 60 × r a minute): their buckets are about empty, clients beyond them get the gateway's 429`,
    "the access log's 401s by `sourceIp` ([Block a flood's sources](#block-a-floods-sources)); keyed clients within their allowance: raise the rate (docs/scaling.md)",
    true,
  ),
  '<table>-throttled-requests': anyOf(
    'a throttled DynamoDB request, any operation (each FILLed with 0: DynamoDB publishes it only when it happens)',
    "the table's consumed capacity on the dashboard: a sudden multiple of its previous peak, or a hot key",
  ),
  '<function>-canary-5xx-excess': canary(
    LOG_COUNTED_WINDOW,
    `share of 5xx but 503 (bugs), from request lines, ${over(CANARY_EXCESS.serverErrors)}`,
  ),
  '<function>-canary-503-excess': canary(LOG_COUNTED_WINDOW, `share of 503, from request lines, ${over(CANARY_EXCESS.unavailable)}`),
  '<function>-canary-4xx-excess': canary(LOG_COUNTED_WINDOW, `share of 4xx, from request lines, ${over(CANARY_EXCESS.clientErrors)}`),
  '<function>-canary-errors-excess': canary([2, 3], `share of crashes and timeouts (\`Errors\`) ${over(CANARY_EXCESS.serverErrors)}`),
  '<function>-canary-duration-excess': canary([3, 5], 'mean `Duration` over twice and `functionDurationMs`'),
} satisfies Record<string, AlarmKind>;
/** Construct ids as first deployed: a new one would replace the named alarm. Else from the alarm's name. */
const DEPLOYED_IDS: Record<string, string> = { 'api-5xx-rate': 'ApiServerErrorRate', 'api-p99-latency': 'ApiLatencyP99' };
type AlarmName = keyof typeof ALARMS;

/** A line with an alarm: the metric, the kind, whose it is (the `<…>` of its name) and the threshold. */
export interface Alarmed {
  readonly metric: IMetric;
  readonly alarm: AlarmName;
  readonly subject?: string;
  readonly threshold: number;
}

/** One graph of the dashboard. */
export interface Watch {
  readonly title: string;
  readonly lines: readonly (IMetric | Alarmed)[];
}

export const isAlarmed = (line: IMetric | Alarmed): line is Alarmed => 'alarm' in line;
const graph = (title: string, ...lines: (IMetric | Alarmed)[]): Watch => ({ title, lines });

/** What identifies a web ACL's metrics: the `MetricName`s of its visibility configs, not its name. */
export interface WatchedWebAcl {
  readonly metricName: string;
  readonly ruleMetricNames: readonly string[];
}

export interface MonitoringProps {
  readonly settings: StageSettings;
  /**
   * The REST API's name and stage name, as plain strings, never the constructs' tokens: an alarm a
   * deployment group watches that referenced the stage would close the loop alias → group → alarm
   * → stage → deployment → method → alias, and CloudFormation would refuse the stack.
   */
  readonly api: { readonly apiName: string; readonly stageName: string };
  /** The functions behind the routes, by function name: they write the request line to their log groups. */
  readonly functions: Readonly<Record<string, LambdaFunction>>;
  /** The reference page's function (no request line): watched for errors and throttles as `docs`. */
  readonly referenceFunction: IFunction;
  /** Production: each function's `live` alias, whose version a deploy moves it to. */
  readonly liveAliases?: Readonly<Record<string, Alias>>;
  readonly tables: readonly ServiceTable[];
  readonly webAcl?: WatchedWebAcl;
}

export class Monitoring extends Construct {
  readonly topic: Topic;
  /** The dashboard's rows of graphs, top to bottom. */
  readonly rows: readonly (readonly Watch[])[];
  readonly #alarms = new Map<string, { alarm: Alarm; line: Alarmed }>();

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings, api } = props;
    const functions = { ...props.functions, docs: props.referenceFunction };
    const serverErrors = serverErrorMetrics(api, functions);
    const stage = { ApiName: api.apiName, Stage: api.stageName };
    const lambda = (fn: IFunction, name: string, statistic: string = Stats.SUM, label?: string) =>
      metric('AWS/Lambda', name, { FunctionName: fn.functionName }, statistic, label);
    const alarmed = (alarm: AlarmName, subject: string, metric: IMetric, threshold = 1): Alarmed => ({ metric, alarm, subject, threshold });
    const errors = (name: string, fn: IFunction) => alarmed('<function>-errors', name, lambda(fn, 'Errors'));
    const throttles = (name: string, fn: IFunction) => alarmed('<function>-throttles', name, lambda(fn, 'Throttles'));
    const { rateLimit } = stageCapacity(settings).apiThrottle;
    const atThrottle = Object.entries(props.functions).map(([name, fn]) => {
      const methods = routes.filter((r) => r.functionId === name).length;
      return alarmed('<function>-at-throttle', name, lambda(fn, 'Invocations'), Math.ceil(AT_THROTTLE_SHARE * 60 * rateLimit * methods));
    });

    const rows: Watch[][] = [
      apiGraphs('API, all operations', stage, serverErrors.serverErrorRate, settings),
      [
        graph('Limits: throttled functions (the gateway’s 503)', ...Object.entries(functions).map(([name, fn]) => throttles(name, fn))),
        graph('5xx as clients saw them (the gateway’s 503 for throttles included)', serverErrors.serverErrors),
        graph('Limits: invocations a minute, at their methods’ rate', ...atThrottle),
      ],
      ...(props.webAcl ? [[webAclGraph(props.webAcl, Stack.of(this).region)]] : []),
      ...routes.map((route) => {
        const fn = props.functions[route.functionId];
        if (!fn) throw new Error(`No function ${route.functionId} for ${route.operationId}`);
        const title = `${route.operationId} (${route.method} ${API_BASE_PATH}${route.resource})`;
        const method = { ...stage, Method: route.method, Resource: `${API_BASE_PATH}${route.resource}` };
        return [
          ...apiGraphs(title, method),
          graph(`${route.operationId}: function duration (ms)`, ...PERCENTILES.map((p) => lambda(fn, 'Duration', Stats.p(p), `p${p}`))),
          graph(
            `${route.operationId}: function concurrency`,
            lambda(fn, 'ConcurrentExecutions', Stats.MAXIMUM, 'Concurrent executions (max)'),
          ),
          graph(`${route.operationId}: function errors and throttles`, errors(route.functionId, fn), throttles(route.functionId, fn)),
        ];
      }),
      [
        graph(
          'docs (the reference page): function errors and throttles',
          errors('docs', functions.docs),
          throttles('docs', functions.docs),
        ),
      ],
      ...props.tables.flatMap(({ definition, table }) => [
        [
          ...tableGraphs(definition.logicalName, { TableName: table.tableName }),
          graph(
            `${definition.logicalName}: throttled requests, all operations`,
            alarmed('<table>-throttled-requests', definition.logicalName, throttledRequests(table)),
          ),
        ],
        ...definition.globalSecondaryIndexes.map(({ indexName }) =>
          tableGraphs(`${definition.logicalName} index ${indexName}`, { TableName: table.tableName, GlobalSecondaryIndexName: indexName }),
        ),
      ]),
      ...Object.entries(props.functions).flatMap(([name, fn]) => {
        const alias = props.liveAliases?.[name];
        return alias ? [canaryGraphs(this, name, fn, alias, settings)] : [];
      }),
    ];
    this.rows = rows;

    const prefix = Stack.of(this).stackName;
    for (const line of this.rows.flat().flatMap((watch) => watch.lines)) {
      if (!isAlarmed(line)) continue;
      const name = nameOf(line);
      if (this.#alarms.has(name)) continue;
      const kind = kindOf(line);
      const [datapointsToAlarm, evaluationPeriods] = kind.window;
      const subjectId = line.subject && /^[A-Z]/.test(line.subject) ? line.subject : pascal(line.subject ?? '');
      const alarm = new Alarm(this, DEPLOYED_IDS[line.alarm] ?? `${subjectId}${pascal(line.alarm.replace(/^<\w+>-/, ''))}`, {
        alarmName: `${prefix}-${name}`,
        alarmDescription:
          `${kind.when.replaceAll('`', '')}; threshold ${line.threshold}, in ${datapointsToAlarm} of ${evaluationPeriods} minutes` +
          `${kind.canary ? ` with at least ${CANARY_MIN_REQUESTS} of the version's requests` : ''}.`,
        metric: line.metric,
        threshold: line.threshold,
        comparisonOperator: ComparisonOperator[kind.atLeast ? 'GREATER_THAN_OR_EQUAL_TO_THRESHOLD' : 'GREATER_THAN_THRESHOLD'],
        datapointsToAlarm,
        evaluationPeriods,
        treatMissingData: kind.breaching ? TreatMissingData.BREACHING : TreatMissingData.NOT_BREACHING,
      });
      this.#alarms.set(name, { alarm, line });
    }

    // Every stage's alarms notify its topic; who is subscribed is the stage's `alarmEmail` (docs/operators.md).
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

  get all(): Alarm[] {
    return [...this.#alarms.values()].map(({ alarm }) => alarm);
  }

  /** The alarm a line carries, by its name after the stack's. */
  alarmOf(line: Alarmed): Alarm {
    return this.#alarms.get(nameOf(line))?.alarm as Alarm;
  }

  /** What a canary of `functionName` is judged on: the deploying version against its function, nothing stage-wide. */
  alarmsFor(functionName: string): Alarm[] {
    const alarms = [...this.#alarms.values()].filter(({ line }) => kindOf(line).canary && line.subject === functionName);
    if (alarms.length === 0) throw new Error(`No canary alarms for function ${functionName}`);
    return alarms.map(({ alarm }) => alarm);
  }
}

const kindOf = (line: Alarmed): AlarmKind => ALARMS[line.alarm];
const nameOf = (line: Alarmed) => line.alarm.replace(/<\w+>/, line.subject ?? '');

const PERCENTILES = [50, 90, 99] as const;

function metric(namespace: string, metricName: string, dimensionsMap: Record<string, string>, statistic: string, label?: string): Metric {
  return new Metric({ namespace, metricName, dimensionsMap, statistic, period: PERIOD, ...(label ? { label } : {}) });
}

/** Requests, error rates and latency of API Gateway for these dimensions: the stage's (its 5xx clients saw, alarmed), or one method's. */
function apiGraphs(title: string, dimensions: Record<string, string>, serverErrorRate?: IMetric, settings?: StageSettings): Watch[] {
  const api = (name: string, statistic: string, label: string) => metric('AWS/ApiGateway', name, dimensions, statistic, label);
  const p99 = metric('AWS/ApiGateway', 'Latency', dimensions, Stats.p(99));
  const rate = serverErrorRate ?? api('5XXError', Stats.AVERAGE, '5xx rate (the function’s)');
  return [
    graph(`${title}: requests`, api('Count', Stats.SUM, 'Requests')),
    // The average of 4XXError is the share of requests that ended so; API Gateway counts its own answers (a 503 or 504 included) there.
    graph(
      `${title}: 4xx and 5xx rates`,
      api('4XXError', Stats.AVERAGE, '4xx rate (with the gateway’s own 5xx)'),
      settings ? { metric: rate, alarm: 'api-5xx-rate', threshold: settings.alarm5xxRatePercent / 100 } : rate,
    ),
    graph(
      `${title}: API Gateway latency (ms)`,
      ...PERCENTILES.slice(0, 2).map((p) => api('Latency', Stats.p(p), `p${p}`)),
      settings ? { metric: p99, alarm: 'api-p99-latency', threshold: settings.alarmP99LatencyMs } : p99,
    ),
  ];
}

/** Consumed capacity and throttle events of a table or one of its indexes. */
function tableGraphs(title: string, dimensions: Record<string, string>): Watch[] {
  const dynamo = (name: string, label: string) => metric('AWS/DynamoDB', name, dimensions, Stats.SUM, label);
  return [
    graph(`${title}: consumed capacity units`, dynamo('ConsumedReadCapacityUnits', 'Read'), dynamo('ConsumedWriteCapacityUnits', 'Write')),
    graph(`${title}: throttle events`, dynamo('ReadThrottleEvents', 'Read'), dynamo('WriteThrottleEvents', 'Write')),
  ];
}

/** Requests the web ACL blocked: in all (WAF's `ALL` rule) and by each rule, whatever rules it has. */
function webAclGraph(webAcl: WatchedWebAcl, region: string): Watch {
  const blocked = (rule: string, label: string) =>
    metric('AWS/WAFV2', 'BlockedRequests', { WebACL: webAcl.metricName, Rule: rule, Region: region }, Stats.SUM, label);
  const rules = webAcl.ruleMetricNames.map((rule) => blocked(rule, rule));
  return graph('Limits: requests the web ACL blocked, by rule', blocked('ALL', 'All rules'), ...rules);
}

/** Whose throttling is watched: every operation the functions and the key CLI use, and more, to an alarm's 10 metrics with the sum. */
const WATCHED_OPERATIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem'];

/**
 * Metric math over counts AWS publishes only for minutes that have some: each operand is FILLed
 * with 0, since an expression has no value for a minute in which an operand is missing.
 */
function filledSum(usingMetrics: Record<string, IMetric>, label: string, requests?: IMetric): MathExpression {
  const sum = Object.keys(usingMetrics)
    .map((id) => `FILL(${id}, 0)`)
    .join(' + ');
  return requests
    ? new MathExpression({ expression: `(${sum}) / requests`, usingMetrics: { ...usingMetrics, requests }, label, period: PERIOD })
    : new MathExpression({ expression: sum, usingMetrics, label, period: PERIOD });
}

/** ThrottledRequests summed over the watched operations. */
function throttledRequests(table: ITable): IMetric {
  const throttled = (Operation: string) =>
    metric('AWS/DynamoDB', 'ThrottledRequests', { TableName: table.tableName, Operation }, Stats.SUM);
  const operations = WATCHED_OPERATIONS.map((op, i) => [`throttled${i}`, throttled(op)]);
  return filledSum(Object.fromEntries(operations), 'Throttled requests, all operations');
}

/** API Gateway's 5XXError plus each function's Throttles, in all and over Count. */
function serverErrorMetrics(api: MonitoringProps['api'], functions: Readonly<Record<string, IFunction>>) {
  const stage = { ApiName: api.apiName, Stage: api.stageName };
  const counts: Record<string, IMetric> = {
    apiErrors: metric('AWS/ApiGateway', '5XXError', stage, Stats.SUM),
    ...Object.fromEntries(
      Object.values(functions).map((fn, i) => [`throttles${i}`, fn.metricThrottles({ period: PERIOD, statistic: Stats.SUM })]),
    ),
  };
  // An alarm's metric math takes at most 10 metrics: these and Count.
  if (Object.keys(counts).length > 9) throw new Error(`${Object.keys(counts).length} counts in the 5xx rate; an alarm takes 10 metrics`);
  const requests = metric('AWS/ApiGateway', 'Count', stage, Stats.SUM);
  return {
    serverErrors: filledSum(counts, '5xx (the gateway’s 503 for throttles included)'),
    serverErrorRate: filledSum(counts, '5xx rate (the gateway’s 503 for throttles included)', requests),
  };
}

/** What a function's request lines count: its requests, its 4xx, its 503 and its other 5xx. */
type Answer = keyof typeof CANARY_EXCESS | 'requests';

/**
 * The graphs of one function's deploying version, each against the function as a whole (every
 * version), so that what a dependency does to both versions alike fires none.
 */
function canaryGraphs(scope: Construct, name: string, fn: LambdaFunction, alias: Alias, settings: StageSettings): Watch[] {
  // CloudFormation would refuse the filters at deploy time; say why at synth instead.
  const group = fn.logGroup.node.defaultChild;
  if (!(group instanceof CfnLogGroup) || group.logGroupClass !== LogGroupClass.STANDARD) {
    throw new Error(`The canary's metric filters need ${fn.node.id}'s log group in the Standard class (log-groups.ts logGroupClass)`);
  }
  const requestLine = FilterPattern.stringValue('$.message', '=', 'request');
  const status = (comparison: string, value: number) => FilterPattern.numberValue('$.status', comparison, value);
  const patterns: Record<Answer, [string, JsonPattern]> = {
    requests: ['Responses', requestLine],
    clientErrors: ['Responses4xx', FilterPattern.all(requestLine, status('>=', 400), status('<', 500))],
    // 503 is `service_unavailable`, what a dependency's failure answers (lib/http/error-responder.ts); any other 5xx is a bug.
    serverErrors: ['Responses5xxExcept503', FilterPattern.all(requestLine, status('>=', 500), status('!=', 503))],
    unavailable: ['Responses503', FilterPattern.all(requestLine, status('=', 503))],
  };
  const namespace = `${Stack.of(scope).stackName}/${name}`;
  const counts = (byVersion: boolean) =>
    mapValues(patterns, ([metricName, pattern]) =>
      new MetricFilter(scope, `${pascal(name)}${metricName}${byVersion ? 'ByVersion' : ''}`, {
        logGroup: fn.logGroup,
        filterPattern: pattern,
        metricNamespace: namespace,
        metricName,
        metricValue: '1',
        // A filter with dimensions may not have a default value; the others count 0 for each other line.
        ...(byVersion ? { dimensions: { Version: '$.functionVersion' } } : { defaultValue: 0 }),
      }).metric({ statistic: Stats.SUM, period: PERIOD }),
    ) as Record<Answer, Metric>;
  const version = alias.version.version;
  const [byVersion, all] = [counts(true), counts(false)];
  const mine = mapValues(byVersion, (m) => m.with({ dimensionsMap: { Version: version } })) as Record<Answer, Metric>;
  // Lambda's metrics of the version invoked through the alias, and of the function. The FunctionName
  // is spelt out: `alias.functionName` refers to the alias, which would close the cycle alias → group → alarm.
  const functionName = alias.version.lambda.functionName;
  const lambda = (metricName: string, ofVersion: boolean) =>
    metric(
      'AWS/Lambda',
      metricName,
      ofVersion
        ? { FunctionName: functionName, Resource: `${functionName}:${alias.aliasName}`, ExecutedVersion: version }
        : { FunctionName: functionName },
      Stats.SUM,
    );
  const excess = (alarm: AlarmName, threshold: number, using: Record<string, IMetric>, atLeastTimes?: number): Watch => {
    const [minePer, allPer] = ['FILL(total, 0) / requests', 'FILL(allTotal, 0) / allRequests'];
    const times = atLeastTimes === undefined ? '' : ` AND ${minePer} > ${atLeastTimes} * ${allPer}`;
    const suffix = alarm.replace('<function>-canary-', '');
    const expression = `IF(requests >= ${CANARY_MIN_REQUESTS}${times}, ${minePer} - ${allPer}, 0)`;
    const label = `${name} ${suffix}: the version's per request above the function's`;
    const metric = new MathExpression({ expression, usingMetrics: using, label, period: PERIOD });
    return graph(`${name} canary: ${suffix}`, { metric, alarm, subject: name, threshold });
  };
  const logged = (answer: keyof typeof CANARY_EXCESS) => ({
    requests: mine.requests,
    total: mine[answer],
    allRequests: all.requests,
    allTotal: all[answer],
  });
  const executed = (total: string) => ({
    ...{ requests: lambda('Invocations', true), total: lambda(total, true) },
    ...{ allRequests: lambda('Invocations', false), allTotal: lambda(total, false) },
  });
  return [
    excess('<function>-canary-5xx-excess', CANARY_EXCESS.serverErrors, logged('serverErrors')),
    excess('<function>-canary-503-excess', CANARY_EXCESS.unavailable, logged('unavailable')),
    excess('<function>-canary-4xx-excess', CANARY_EXCESS.clientErrors, logged('clientErrors')),
    excess('<function>-canary-errors-excess', CANARY_EXCESS.serverErrors, executed('Errors')),
    // Over twice the function's as well: one slow dependency slows both versions alike.
    excess('<function>-canary-duration-excess', settings.functionDurationMs, executed('Duration'), 2),
  ];
}
